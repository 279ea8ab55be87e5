// Checkpoints a file database's WAL from a worker thread, on a connection of its own: the copy into
// the database file and its fsyncs (the only ones under synchronous=NORMAL) never hold up the main
// thread, which answers the requests.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log';

// PASSIVE never waits for a lock and never holds up a writer: it copies what no reader still needs and
// leaves the rest for next time, so it cannot block a commit, a restore or a snapshot's copy. Its
// connection waits for nothing either (timeout 0): a busy database (another process on the file holding
// it) is tried again at the next interval.
//
// It runs at a lower priority (Linux: niceness 10, for this thread alone), so that it takes the
// time the main thread leaves: at the same priority every checkpoint took its share of the one core
// the server had, and the turn of the event loop it fell in was that much longer. Should it fall
// behind, SQLite's own checkpoint (at wal_autocheckpoint pages, on the main thread) still bounds the WAL.
const CHECKPOINT_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
try {
  const thread = require('node:fs').readlinkSync('/proc/thread-self');
  require('node:os').setPriority(Number(thread.slice(thread.lastIndexOf('/') + 1)), 10);
} catch {
  // Not Linux: the same priority as the main thread.
}
let db = null;
let checkpoint = null;
// A connection is kept only once it is wholly ready (its pragmas set, its statement prepared), and
// dropped after any failure: the next run starts from a fresh one, whatever went wrong.
function open() {
  const next = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
  try {
    // The same syncing as the main connection; a few pages of cache are enough for a checkpoint.
    next.pragma('synchronous = NORMAL');
    next.pragma('cache_size = -256');
    checkpoint = next.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  } catch (e) {
    next.close();
    throw e;
  }
  db = next;
}
function run() {
  try {
    if (db === null) open();
    const r = checkpoint.get();
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    if (db !== null) {
      try {
        db.close();
      } catch {
        // Closed already, or unusable: either way it is dropped.
      }
    }
    db = null;
    checkpoint = null;
    parentPort.postMessage({ failed: String((e && e.message) || e) });
  }
}
const timer = setInterval(run, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  if (db !== null) db.close();
  parentPort.close();
});`;

/** How long stop() waits for the worker to end by itself before it is terminated. */
const STOP_WAIT_MS = 5000;

/** What one checkpoint found: frames in the WAL, and how many of them are in the database file now. */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

/** How long after its thread ended by itself (a crash, its heap limit) a new one is started. */
const RESPAWN_AFTER_MS = 1000;

export class Checkpointer {
  /** Emits 'checkpoint' with a CheckpointResult after each one, and 'failure' with the reason when one failed. */
  readonly events = new EventEmitter();
  private stopped: Promise<void> | null = null;
  private worker!: Worker;
  private exited!: Promise<void>;
  private respawn: NodeJS.Timeout | null = null;

  private constructor(
    private readonly file: string,
    private readonly everyMs: number,
  ) {
    this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(CHECKPOINT_WORKER, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file: this.file, everyMs: this.everyMs },
      // It holds a timer and a prepared statement: a small heap is plenty.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    });
    this.worker = worker;
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        resolve();
        if (this.stopped !== null) return;
        // Ended without being asked: SQLite's own checkpoints keep the WAL bounded until a new thread runs.
        this.events.emit('failure', `the checkpoint thread ended (exit code ${code})`);
        this.respawn = setTimeout(() => {
          this.respawn = null;
          if (this.stopped === null) this.spawn();
        }, Math.max(this.everyMs, RESPAWN_AFTER_MS));
        this.respawn.unref();
      }),
    );
    worker.on('message', (m: CheckpointResult | { failed: string }) => {
      if ('failed' in m) this.events.emit('failure', m.failed);
      else this.events.emit('checkpoint', m);
    });
    worker.on('error', (e) => this.events.emit('failure', e.message));
    // Neither the timer nor the thread keeps a process alive that has nothing else to do.
    worker.unref();
  }

  /**
   * Starts checkpointing `file` (a WAL database, opened and migrated already) every `everyMs`. With a
   * logger, a run of failures is told once (a warning with the first reason) and its end once (info):
   * they come every `everyMs`, and a line each would bury the log.
   */
  static start(file: string, everyMs: number, log?: Logger): Checkpointer {
    const checkpointer = new Checkpointer(file, everyMs);
    if (log) {
      let failing = false;
      checkpointer.events.on('failure', (why: string) => {
        if (failing) return;
        failing = true;
        log.warn(`WAL checkpoints in their own thread fail (${why}); SQLite's own checkpoints keep the WAL bounded meanwhile`);
      });
      checkpointer.events.on('checkpoint', () => {
        if (!failing) return;
        failing = false;
        log.info('WAL checkpoints in their own thread work again');
      });
    }
    return checkpointer;
  }

  /**
   * Ends the worker, a checkpoint under way first: its connection is closed before the main one is,
   * so that the main connection, the last, checkpoints what is left and removes the WAL file.
   */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      if (this.respawn !== null) clearTimeout(this.respawn);
      this.worker.postMessage('stop');
      const timer = setTimeout(() => void this.worker.terminate(), STOP_WAIT_MS);
      await this.exited;
      clearTimeout(timer);
    })();
    return this.stopped;
  }
}
