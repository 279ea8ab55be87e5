// Shared plumbing of the tests of snapshots and stories: reading a whole database as plain data.
import Database from 'better-sqlite3';
import { Store } from '../../src/store/store';

/** Tables whose values only grow (ID sequences): a restore keeps the higher of live and snapshot. */
export const SEQUENCE_TABLES = ['sqlite_sequence', 'counters'];

/** Every row of every table but `except`, in rowid order, by table name. */
export function tablesOf(source: Database.Database | Store, except: string[] = []): Record<string, unknown[]> {
  // A live store's journal entries of the last milliseconds are written first, as a copy would.
  if (source instanceof Store) source.writePending();
  const db = source instanceof Store ? source.db : source;
  const prepare = prepared(db);
  const names = prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  const out: Record<string, unknown[]> = {};
  // A live database's request journal is in its own attached database; a copy carries it in requests_kept.
  const live = prepare("SELECT 1 FROM pragma_database_list WHERE name = 'journal'").get() !== undefined;
  const from = (t: string) => (live && t === 'requests_kept' ? 'journal.requests' : `"${t}"`);
  for (const t of names) if (!except.includes(t)) out[t] = prepare(`SELECT * FROM ${from(t)} ORDER BY rowid`).all();
  return out;
}

// Each statement prepared once per connection: preparing was most of what reading a small database
// cost, and a test reads one after each of hundreds of requests. (SQLite prepares a kept statement
// again itself when the tables change.)
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
function prepared(db: Database.Database): (sql: string) => Database.Statement {
  let kept = statements.get(db);
  if (!kept) statements.set(db, (kept = new Map()));
  return (sql) => {
    let statement = kept.get(sql);
    if (!statement) kept.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
}

/** The ID sequences and counters of a database, as `table:name → value`. */
export function sequencesOf(db: Database.Database): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of db.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[]) out[`sqlite_sequence:${r.name}`] = r.seq;
  for (const r of db.prepare('SELECT name, value FROM counters').all() as { name: string; value: number }[]) out[`counters:${r.name}`] = r.value;
  return out;
}

/** Opens a database file read-only, runs `fn`, closes it. */
export function withFile<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
