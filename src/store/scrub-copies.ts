// Snapshot files at rest written before card data was masked by what it is (schema 15): their
// journal entries scrubbed in place, as migration 16 scrubs a copy on its way in, and the file then
// said to be of schema 16, which is all that migration changes.
import Database from 'better-sqlite3';
import { scrubEntries } from './migrations/0016-card-data';

/** The schema whose files hold unscrubbed entries, and the one they are of once scrubbed. */
const BEFORE = 15;
const AFTER = 16;

const hasTable = (db: Database.Database, t: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t) !== undefined;

/**
 * Scrubs one snapshot file: a whole-sandbox copy (its user_version is its schema) or a marketplace's
 * own copy (its copy_of row says its schema). Older copies are scrubbed by migration 16 when
 * restored; a file of another kind, or one that cannot be written, is left as it is. Whether it changed.
 */
export function scrubCopyFile(file: string): boolean {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const conn = db;
    if (hasTable(conn, 'copy_of')) {
      const schema = conn.prepare('SELECT schema FROM copy_of').pluck().get();
      if (schema !== BEFORE || !hasTable(conn, 'requests_kept')) return false;
      conn.transaction(() => {
        scrubEntries(conn, 'requests_kept');
        conn.prepare('UPDATE copy_of SET schema = ?').run(AFTER);
      })();
      return true;
    }
    if (conn.pragma('user_version', { simple: true }) !== BEFORE || !hasTable(conn, 'requests_kept')) return false;
    conn.transaction(() => {
      scrubEntries(conn, 'requests_kept');
      conn.pragma(`user_version = ${AFTER}`);
    })();
    return true;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}
