// Checkpoints the WAL from a worker thread. Under synchronous=NORMAL a checkpoint is the only write
// that waits for the disk (fsync); done on the request thread it stalls every request for its
// length, done here it costs the API nothing.
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: the next round */ }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, everyMs = 250): Checkpointer {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, everyMs, driver: require.resolve('better-sqlite3') },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop() {
      worker.postMessage('stop');
      return exited;
    },
  };
}
