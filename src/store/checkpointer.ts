// Checkpoints the WAL between requests, a little at a time: without it SQLite would do it inside a
// commit once the WAL reached wal_autocheckpoint pages, one long stall instead of many short ones.
// (A worker thread doing it would cost a second V8 isolate, some 20 MB, for no measurable speed.)
import type { Db } from './db';

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(db: Db, everyMs = 250): Checkpointer {
  const timer = setInterval(() => {
    // PASSIVE: copies what no reader still needs and never waits for a lock.
    if (db.open && !db.inTransaction) {
      try {
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Busy (another process on the file): the next round.
      }
    }
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}
