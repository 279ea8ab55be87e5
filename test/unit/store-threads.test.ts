// The store's worker thread: copies, restores and a marketplace's checks of a file database run on one
// thread kept for the process, each job's answer and failure as a thread of its own gave them, and an
// idle thread keeps no process alive.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { DEFAULT_FIXTURES_DIR, loadFixtures, readFixtures } from '../../src/fixtures';
import { copyDatabase, replaceData } from '../../src/store/copies';
import { Store } from '../../src/store/store';
import { runOffThread } from '../../src/store/threads';

/** The worker threads started while `run` runs. */
async function threadsStartedBy(run: () => Promise<void>): Promise<number> {
  let started = 0;
  const count = () => void started++;
  subscribe('worker_threads', count);
  try {
    await run();
  } finally {
    unsubscribe('worker_threads', count);
  }
  return started;
}

describe("the store's worker thread", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'split-sandbox-threads-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the copies and the restore of a file database one after another on one thread', async () => {
    const store = Store.open(join(dir, 'live.db'));
    try {
      loadFixtures(store, readFixtures(DEFAULT_FIXTURES_DIR));
      store.tx(() => store.db.prepare("UPDATE counters SET value = 41 WHERE name = 'customer'").run());
      const started = await threadsStartedBy(async () => {
        await copyDatabase(store, join(dir, 'a.db'));
        await copyDatabase(store, join(dir, 'b.db'));
        store.tx(() => store.db.prepare("UPDATE counters SET value = 40 WHERE name = 'customer'").run());
        await replaceData(store, join(dir, 'a.db'), join(dir, 'scratch.db'));
      });
      // The kept thread of an earlier test of this file, or one started for these.
      expect(started).toBeLessThanOrEqual(1);
      expect(store.db.prepare("SELECT value FROM counters WHERE name = 'customer'").pluck().get()).toBe(41);
    } finally {
      store.close();
    }
  });

  it("answers each job with what it posted, on the thread of the one before", async () => {
    const job = 'parentPort.postMessage({ sum: workerData.a + workerData.b, driver: typeof require(workerData.driver) })';
    const started = await threadsStartedBy(async () => {
      const data = { driver: require.resolve('better-sqlite3') };
      expect(await runOffThread(job, { ...data, a: 1, b: 2 }, () => 'ended')).toEqual({ sum: 3, driver: 'function' });
      expect(await runOffThread(job, { ...data, a: 5, b: 5 }, () => 'ended')).toEqual({ sum: 10, driver: 'function' });
    });
    expect(started).toBeLessThanOrEqual(1);
  });

  it('gives a job running while the kept thread is busy a thread of its own', async () => {
    const job = 'parentPort.postMessage(workerData)';
    const answers = await Promise.all([1, 2, 3].map((n) => runOffThread(job, n, () => 0)));
    expect(answers).toEqual([1, 2, 3]);
  });

  it('rejects with the error a job throws past its own catch, and runs the next job on a new thread', async () => {
    await expect(runOffThread("throw new RangeError('no such table')", null, () => 'ended')).rejects.toThrow('no such table');
    const started = await threadsStartedBy(async () => {
      expect(await runOffThread('parentPort.postMessage(7)', null, () => 'ended')).toBe(7);
    });
    expect(started).toBe(1);
  });

  it("answers a job that posts nothing, or whose thread ends under it, with the caller's words for it", async () => {
    expect(await runOffThread('const x = 1;', null, (code) => `stopped (exit code ${code})`)).toBe('stopped (exit code 0)');
    expect(await runOffThread('process.exit(3)', null, (code) => `stopped (exit code ${code})`)).toBe('stopped (exit code 3)');
    expect(await runOffThread('parentPort.postMessage(null)', null, () => 'ended')).toBeNull();
  });

  it('keeps no process alive while its thread is idle', () => {
    // The module alone, as the build makes it, in a process that only runs a job and then has nothing to do.
    const module = join(dir, 'threads.js');
    writeFileSync(module, transformSync(readFileSync(join(__dirname, '../../src/store/threads.ts'), 'utf8'), { loader: 'ts', format: 'cjs' }).code);
    const script = `
      const { runOffThread } = require(${JSON.stringify(module)});
      runOffThread('parentPort.postMessage(1)', null, () => 0).then((answer) => {
        process.stdout.write('ANSWER ' + answer + '\\n');
        // Fires only if something still holds the process, and before the idle thread would end by itself.
        setTimeout(() => {
          process.stdout.write('HELD\\n');
          process.exit(1);
        }, 5000).unref();
      });`;
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 })).toBe('ANSWER 1\n');
  });
});
