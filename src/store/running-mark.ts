// The mark a running sandbox holds on its database file: a read lock on `<db>-lock`, a small SQLite
// file of its own, kept from start to stop. SQLite's locks are the operating system's file locks,
// which end with the process however it ends (a kill -9 included), so the mark is never stale: a
// command that must not work behind a running sandbox's back (`split-sandbox reset`) asks for it.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

export const runningMarkOf = (dbFile: string) => `${dbFile}-lock`;

/** Holds the mark until release() (or the process ends). Several sandboxes on one file hold it together. */
export function holdRunningMark(dbFile: string): { release(): void } {
  const mark = new Database(runningMarkOf(dbFile));
  mark.pragma('busy_timeout = 2000');
  mark.exec('CREATE TABLE IF NOT EXISTS running (since INTEGER)');
  // A read transaction left open: SQLite keeps its SHARED lock on the file until it ends.
  mark.exec('BEGIN');
  mark.prepare('SELECT count(*) FROM running').pluck().get();
  return {
    release() {
      if (mark.open) mark.close();
    },
  };
}

/** Whether a running sandbox holds the mark of this database file (asked without waiting). */
export function runningMarkHeld(dbFile: string): boolean {
  if (!existsSync(runningMarkOf(dbFile))) return false;
  const mark = new Database(runningMarkOf(dbFile), { fileMustExist: true });
  try {
    mark.pragma('busy_timeout = 0');
    mark.exec('BEGIN EXCLUSIVE');
    mark.exec('COMMIT');
    return false;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw e;
  } finally {
    mark.close();
  }
}
