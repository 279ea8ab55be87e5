// The worker thread that copies, restores and their checks run on: one kept per process and used again.
import { Worker } from 'node:worker_threads';

// Starting a thread (an isolate, Node's bootstrap, the SQLite driver loaded) cost more CPU than most of
// the jobs it ran. A job is the script a one-off thread used to run: it reads `workerData` and posts
// one answer on `parentPort`. The kept thread runs each job in turn, with those two as a one-off thread
// had them, and its own `require`. A job that throws past its own catch ends the thread, as it ended a
// one-off one: its caller hears the error, and the next job gets a new thread.
const THREAD = `
const { parentPort } = require('node:worker_threads');
const jobs = new Map();
parentPort.on('message', ({ code, data }) => {
  let job = jobs.get(code);
  if (job === undefined) jobs.set(code, (job = new Function('require', 'workerData', 'parentPort', code)));
  let answered = false;
  job(require, data, {
    postMessage(answer) {
      if (answered) return;
      answered = true;
      parentPort.postMessage({ answer });
    },
  });
  // The old thread ended here, which its caller heard as an end without an answer.
  if (!answered) parentPort.postMessage({ none: true });
});`;

/** How long an idle thread is kept: one that is never used again ends, and frees what it holds. */
const IDLE_MS = 10_000;

interface Kept {
  worker: Worker;
  idle: NodeJS.Timeout | null;
}

/** The idle thread, if one is kept. A job that finds it busy gets a thread of its own (and may be the one kept next). */
let kept: Kept | null = null;

function take(): Kept {
  const found = kept;
  if (found !== null) {
    kept = null;
    if (found.idle !== null) clearTimeout(found.idle);
    found.idle = null;
    found.worker.ref();
    return found;
  }
  const worker = new Worker(THREAD, { eval: true });
  const thread: Kept = { worker, idle: null };
  // An idle thread that ends anyway (it is never asked to) is simply not kept.
  worker.once('exit', () => {
    if (kept === thread) kept = null;
    if (thread.idle !== null) clearTimeout(thread.idle);
  });
  return thread;
}

function giveBack(thread: Kept): void {
  if (kept !== null) {
    void thread.worker.terminate();
    return;
  }
  // Neither the thread nor its timer keeps a process alive that has nothing else to do.
  thread.worker.unref();
  thread.idle = setTimeout(() => {
    if (kept === thread) kept = null;
    void thread.worker.terminate();
  }, IDLE_MS);
  thread.idle.unref();
  kept = thread;
}

/**
 * Runs `code` (a job's script, as above) with `data` as its workerData on the kept thread, and resolves
 * with what it posted. When the job ends without posting (exit code 0, as a one-off thread's), or its
 * thread ends under it, resolves with `ended(exitCode)`; rejects with the error that ended the thread.
 */
export function runOffThread<T>(code: string, data: unknown, ended: (exitCode: number) => T): Promise<T> {
  const thread = take();
  const { worker } = thread;
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (m: { answer: T } | { none: true }): void => {
      done();
      giveBack(thread);
      // A one-off thread whose job posted nothing ended with code 0.
      resolve('answer' in m ? m.answer : ended(0));
    };
    const onError = (e: Error): void => {
      done();
      reject(e);
    };
    const onExit = (code: number): void => {
      done();
      resolve(ended(code));
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({ code, data });
  });
}
