// Opens the SQLite database, sets it up for durable concurrent use and brings its schema up to date.
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {}

export function openDatabase(file: string): Db {
  const db = new Database(file);
  // A new database lets pages freed by retention go back to the file system a few at a time
  // (PRAGMA incremental_vacuum). Only settable before the first table exists; an older file is
  // switched by useIncrementalVacuum().
  if (db.pragma('page_count', { simple: true }) === 0) db.pragma('auto_vacuum = INCREMENTAL');
  if (file !== ':memory:') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // A second process on the same file waits for the lock instead of failing at once.
    db.pragma('busy_timeout = 5000');
    // Checkpoints (the only fsyncs under synchronous=NORMAL) every 40 MB of WAL instead of every 4 MB:
    // a fifth less time per write under load, and no loss on a crash of the process.
    db.pragma('wal_autocheckpoint = 10000');
  }
  // 8 MB of page cache (the indexes' upper levels and the newest pages); the rest is in the OS's
  // file cache, and repeated list pages are kept as JSON anyway.
  db.pragma('cache_size = -8000');
  db.pragma('foreign_keys = ON');
  // Each request's savepoint inside a commit group keeps its undo pages in memory, not in a temp file.
  db.pragma('temp_store = MEMORY');
  migrate(db);
  return db;
}

/** Brings the schema up to date (or only up to `upTo`, to see what an older version made). */
export function migrate(db: Db, upTo?: number): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
  if (current > latest) {
    throw new DatabaseTooNewError(
      `this database was written by a newer split-sandbox (schema ${current}, this one knows ${latest}); use a newer version or another --db file`,
    );
  }
  const enforced = db.pragma('foreign_keys', { simple: true }) === 1;
  for (const m of MIGRATIONS) {
    if (m.version <= current || (upTo !== undefined && m.version > upTo)) continue;
    // Rebuilding a table (the only way SQLite changes a column's constraints) needs foreign keys off
    // while the old table is dropped, and that switch works only outside a transaction: the rebuilt
    // tables' references (the whole database's, for a migration with code) are checked instead,
    // before the migration commits.
    const rebuilding = m.up !== undefined || (m.rebuilds ?? []).length > 0;
    if (enforced && rebuilding) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        m.up?.(db);
        const checks = m.up !== undefined ? ['foreign_key_check'] : (m.rebuilds ?? []).map((t) => `foreign_key_check(${t})`);
        for (const check of enforced && rebuilding ? checks : []) {
          const broken = db.pragma(check) as unknown[];
          if (broken.length > 0) throw new Error(`migration ${m.version} would leave ${broken.length} broken references; nothing was changed`);
        }
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    } finally {
      if (enforced && rebuilding) db.pragma('foreign_keys = ON');
    }
  }
}

/**
 * Switches a database made without incremental auto-vacuum to it, with the one VACUUM that takes:
 * the whole file is rewritten (10 s for a 1 GB file here, with a WAL as large), so it is done only when
 * retention asks for it, at start, before anything is served. VACUUM cannot run inside a
 * transaction, hence here and not in a migration. Returns whether the file was rewritten.
 */
export function useIncrementalVacuum(db: Db): boolean {
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return false;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  return true;
}

const INCREMENTAL = 2;
