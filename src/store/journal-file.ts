// The request journal's own database, attached to the store's connection as `journal`: for a file
// database `X`, the file `X-requests` beside it (an in-memory one for an in-memory database).
//
// Apart, because its entries (a request's and its answer's bodies, 2-3 KB each) are written with every
// request: in the main database they doubled what each commit wrote to the WAL and each checkpoint
// copied again, and a create cost a fifth more. Here a commit writes its pages once, with no WAL, no
// checkpoint and no fsync (synchronous OFF): the journal is a record of what was sent, not the
// sandbox's state. Its rollback journal is a file (PERSIST: kept, its header zeroed, rather than made
// and removed with every commit), so that a process killed in the middle of a commit leaves a journal
// SQLite rolls back at the next open; a file found damaged anyway (the machine lost power) is replaced
// by an empty one. Its pages are 16 KiB: with SQLite's 4 KiB an entry took a page of its own, and a
// commit wrote (and the file grew by) three times as many; a written entry cost 7 µs instead of 4.7.
// Entries are appended and rarely read, so its page cache is small (512 KiB; the default 2 MB of
// 16 KiB pages held some 40 MB more memory under load).
//
// A read's answer is kept once, by its digest, however many entries tell of it (request_bodies, below):
// readers and copies read the entries whole through the request_entries view.
//
// A copy of the database (a snapshot) carries the entries in its own `requests_kept` table
// (migration 15), each answer whole: saving fills it from here, restoring moves its rows back here. The file's
// user_version says its entries were scrubbed of card data (16: migration 16's number).
import { rmSync } from 'node:fs';
import type { Db } from './db';
import { sql as twelve } from './migrations/0012-requests';
import { COLUMNS as OWNER_COLUMNS, ownerOf, storedBytesOf } from './migrations/0017-journal-owners';
import { scrubEntries } from './migrations/0016-card-data';

export const JOURNAL_SCHEMA = 'journal';

/** The live table, qualified: what a statement on the journal names. */
export const JOURNAL_TABLE = `${JOURNAL_SCHEMA}.requests`;

/** The table a copy of the database carries the journal in (empty in a live database). */
export const KEPT_TABLE = 'requests_kept';

/** The journal's file for the database file `file` (an in-memory database's is in memory too). */
export function journalFileOf(file: string): string {
  return file === ':memory:' || file === '' ? ':memory:' : `${file}-requests`;
}

// Migration 12's table and indexes with migration 17's columns, in the journal's database: a copy's
// `requests_kept` (that table, renamed and given the same columns) is read into this one column for
// column, and this one's entries whole (request_entries) into it. Then what the quotas read: the entries of each owner by age, and each
// owner's entries and bytes (0: the unauthenticated pool), so that a quota is checked without
// counting. Deletes keep them by a trigger (retention, resets, restores and clears delete entries
// too); the two writers of entries keep them themselves: RequestsRepo.addAll adds each owner's once a
// batch (a trigger's row of its own for each entry cost some 40% of an entry's write), and taking a
// copy's entries in counts them afresh (TAKE_KEPT). Files made before had an insert trigger: dropped.
const TABLE_SQL = twelve
  .replace(/CREATE TABLE requests \(/, `CREATE TABLE IF NOT EXISTS ${JOURNAL_TABLE} (`)
  .replace(/(response_bytes +INTEGER NOT NULL)\n\)/, `$1,\n  ${OWNER_COLUMNS.join(',\n  ')}\n)`)
  .replace(/CREATE INDEX (\w+) ON/g, `CREATE INDEX IF NOT EXISTS ${JOURNAL_SCHEMA}.$1 ON`);
if (!TABLE_SQL.includes(JOURNAL_TABLE) || !TABLE_SQL.includes(OWNER_COLUMNS[1])) throw new Error('journal-file: migration 12 no longer creates the requests table as expected');

/** The table of each owner's share: entries and bytes (owner 0: the unauthenticated pool). */
export const SHARES_TABLE = `${JOURNAL_SCHEMA}.request_shares`;

/**
 * The entries being deleted past their quotas (each owner's up to `last`; 0: the pool's), while
 * RequestsRepo.dropThrough deletes them: it keeps the shares and the kept answers for all of them in
 * a few statements, and the triggers leave those entries alone. Empty the rest of the time.
 */
export const DROPPING_TABLE = `${JOURNAL_SCHEMA}.request_dropping`;

/** Not an entry being deleted past its quota (DROPPING_TABLE), in a trigger on `requests`. */
const NOT_DROPPING = `NOT EXISTS (SELECT 1 FROM request_dropping d WHERE d.owner = coalesce(OLD.owner_site_id, 0) AND OLD.id <= d.last)`;

const SHARES_SQL = `
CREATE INDEX IF NOT EXISTS ${JOURNAL_SCHEMA}.requests_by_owner ON requests (owner_site_id, id, stored_bytes);
CREATE TABLE IF NOT EXISTS ${SHARES_TABLE} (owner INTEGER PRIMARY KEY, entries INTEGER NOT NULL, bytes INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS ${DROPPING_TABLE} (owner INTEGER PRIMARY KEY, last INTEGER NOT NULL) STRICT;
`;

/** The answers kept once each, by their SHA-256 (`refs`: the entries that name one). */
export const BODIES_TABLE = `${JOURNAL_SCHEMA}.request_bodies`;
/** Which kept answer an entry's is (the entries whose response_body is NULL with response_bytes above 0). */
export const ANSWERS_TABLE = `${JOURNAL_SCHEMA}.request_answers`;
/** The entries as they were sent and answered, each shared answer in its place: what readers and copies read. */
export const ENTRIES_VIEW = `${JOURNAL_SCHEMA}.request_entries`;

/** An entry whose answer is kept apart (requests.repo.ts writes them so; a copy's entries carry theirs whole). */
const SHARED = (t: string) => `${t}.response_body IS NULL AND ${t}.response_bytes > 0`;

// An answer given again and again (a list page polled, a payment read) was written whole with each
// entry: some 45 MB/s into the file for a list page's 9 KB. Kept once by its digest, an entry names it
// in request_answers (a table apart, so that the entries' own table keeps its columns: a copy's
// requests_kept and it are still read into each other column for column, and an entry brought back
// from a copy keeps its answer whole). The trigger lets an answer go with the last entry naming it,
// whichever way entries are deleted (quotas, retention, resets, restores, clears).
const BODIES_SQL = `
CREATE TABLE IF NOT EXISTS ${BODIES_TABLE} (id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, body TEXT NOT NULL, refs INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS ${ANSWERS_TABLE} (entry_id INTEGER PRIMARY KEY, body_id INTEGER NOT NULL) STRICT;
CREATE VIEW IF NOT EXISTS ${ENTRIES_VIEW} AS SELECT r.id, r.at, r.wall_at, r.address, r.method, r.path, r.query, r.route, r.site_id, r.authenticated,
  r.payment_id, r.refund_id, r.split_id, r.status, r.reasons, r.duration_ms, r.fault, r.near_miss, r.request_body, r.request_bytes,
  CAST(coalesce(r.response_body, b.body) AS TEXT) AS response_body, r.response_bytes, r.owner_site_id, r.stored_bytes
  FROM requests r LEFT JOIN request_answers a ON ${SHARED('r')} AND a.entry_id = r.id LEFT JOIN request_bodies b ON b.id = a.body_id;
`;

// What a deleted entry takes with it (its share, its kept answer's count, and the answer with the last
// entry naming it), in one trigger: each trigger is a program of its own run for each row deleted, and
// with two (one for the shares, one for the answers) a quota's bulk deletion ran both for every entry
// only to find, twice, that it was being dropped. Made again at each open: a file made before has the
// two (and, older still, an insert trigger and no WHEN). It keeps the shares' trigger's name, so that a
// version before, opening this file, drops it by that name and makes its own two, not three.
const DROP_OLD_SQL = `
DROP TRIGGER IF EXISTS ${JOURNAL_SCHEMA}.request_shares_add;
DROP TRIGGER IF EXISTS ${JOURNAL_SCHEMA}.request_shares_drop;
DROP TRIGGER IF EXISTS ${JOURNAL_SCHEMA}.request_answers_drop;
`;
const DROP_TRIGGER_SQL = `
CREATE TRIGGER ${JOURNAL_SCHEMA}.request_shares_drop AFTER DELETE ON requests WHEN ${NOT_DROPPING} BEGIN
  UPDATE request_shares SET entries = entries - 1, bytes = bytes - OLD.stored_bytes WHERE owner = coalesce(OLD.owner_site_id, 0);
  UPDATE request_bodies SET refs = refs - 1 WHERE ${SHARED('OLD')} AND id = (SELECT body_id FROM request_answers WHERE entry_id = OLD.id);
  DELETE FROM request_bodies WHERE ${SHARED('OLD')} AND id = (SELECT body_id FROM request_answers WHERE entry_id = OLD.id) AND refs <= 0;
  DELETE FROM request_answers WHERE ${SHARED('OLD')} AND entry_id = OLD.id;
END;
`;

/** The journal's table, its indexes and its shares, made where missing (another connection attaching a journal runs it too). */
export const JOURNAL_TABLE_SQL = TABLE_SQL + SHARES_SQL + BODIES_SQL + DROP_OLD_SQL + DROP_TRIGGER_SQL;

/** The same for a journal with no table yet (each test's sandbox makes one): it has no older trigger to drop. */
const NEW_JOURNAL_SQL = TABLE_SQL + SHARES_SQL + BODIES_SQL + DROP_TRIGGER_SQL;

/**
 * Attaches the journal's database to `db` (made if missing), and takes in the entries a restored or
 * older database kept. `inMemory`: the journal is off (`--request-journal 0`), and no file is made for it.
 */
export function attachJournal(db: Db, inMemory = false): void {
  const file = inMemory ? ':memory:' : journalFileOf(db.memory ? ':memory:' : db.name);
  try {
    open(db, file);
  } catch (e) {
    if (file === ':memory:' || !isDamaged(e)) throw e;
    const attached = db.prepare('SELECT 1 FROM pragma_database_list WHERE name = ?').get(JOURNAL_SCHEMA) !== undefined;
    if (attached) db.prepare(`DETACH DATABASE ${JOURNAL_SCHEMA}`).run();
    for (const f of [file, `${file}-journal`]) rmSync(f, { force: true });
    open(db, file);
  }
  scrubOnce(db);
  takeKept(db);
}

/** The journal's user_version from which its entries hold no card data (the version of migration 16). */
const SCRUBBED = 16;

/** Entries written before card data was masked by what it is are scrubbed once, as migration 16 does a copy's. */
function scrubOnce(db: Db): void {
  if ((db.pragma(`${JOURNAL_SCHEMA}.user_version`, { simple: true }) as number) >= SCRUBBED) return;
  db.transaction(() => {
    scrubEntries(db, JOURNAL_TABLE);
    db.pragma(`${JOURNAL_SCHEMA}.user_version = ${SCRUBBED}`);
  }).immediate();
}

/** The file the journal attached to `db` is in (`:memory:` for one in memory), for another connection to attach. */
export function attachedJournalFile(db: Db): string {
  const file = db.prepare('SELECT file FROM pragma_database_list WHERE name = ?').pluck().get(JOURNAL_SCHEMA) as string | undefined;
  return file ? file : ':memory:';
}

/** Statements (for the connection the journal is attached to) that move a copy's kept entries into the journal, replacing its own. */
export const TAKE_KEPT = [
  `DELETE FROM ${JOURNAL_TABLE}`,
  `INSERT INTO ${JOURNAL_TABLE} SELECT * FROM main.${KEPT_TABLE}`,
  `DELETE FROM main.${KEPT_TABLE}`,
  `DELETE FROM ${SHARES_TABLE}`,
  `INSERT INTO ${SHARES_TABLE} SELECT coalesce(owner_site_id, 0), count(*), sum(stored_bytes) FROM ${JOURNAL_TABLE} GROUP BY 1`,
];

/** Counts one owner's share afresh (`@owner`, a marketplace's SiteID): after its entries were brought back from its own copy. */
export const RECOUNT_SHARE = `INSERT INTO ${SHARES_TABLE} (owner, entries, bytes)
  SELECT @owner, count(*), coalesce(sum(stored_bytes), 0) FROM ${JOURNAL_TABLE} WHERE owner_site_id = @owner
  ON CONFLICT (owner) DO UPDATE SET entries = excluded.entries, bytes = excluded.bytes`;

/** Statements that fill a copy's `requests_kept` (attached as `schema`) with the journal's entries. */
export const keepInCopy = (schema: string) => [`DELETE FROM ${schema}.${KEPT_TABLE}`, `INSERT INTO ${schema}.${KEPT_TABLE} SELECT * FROM ${ENTRIES_VIEW}`];

function open(db: Db, file: string): void {
  db.prepare(`ATTACH DATABASE ? AS ${JOURNAL_SCHEMA}`).run(file);
  if (file !== ':memory:') {
    // Takes effect on a new file only (before its first table); an older file keeps its 4 KiB pages.
    db.pragma(`${JOURNAL_SCHEMA}.page_size = 16384`);
    db.pragma(`${JOURNAL_SCHEMA}.cache_size = -512`);
    db.pragma(`${JOURNAL_SCHEMA}.journal_mode = PERSIST`);
    db.pragma(`${JOURNAL_SCHEMA}.synchronous = OFF`);
  }
  // A new journal (every in-memory one) is made whole in one transaction, marked scrubbed: it has no
  // entry to give owners, count or scrub, and each test's sandbox makes one.
  if (db.prepare(`SELECT 1 FROM ${JOURNAL_SCHEMA}.sqlite_master LIMIT 1`).get() === undefined) {
    db.transaction(() => {
      db.exec(NEW_JOURNAL_SQL);
      db.pragma(`${JOURNAL_SCHEMA}.user_version = ${SCRUBBED}`);
    })();
    return;
  }
  db.exec(TABLE_SQL);
  const columns = db.prepare(`SELECT name FROM pragma_table_info('requests', ?)`).pluck().all(JOURNAL_SCHEMA) as string[];
  const sharesMade = db.prepare(`SELECT 1 FROM ${JOURNAL_SCHEMA}.sqlite_master WHERE name = 'request_shares'`).get() !== undefined;
  db.transaction(() => {
    // A file written before migration 17: its entries are given their owners and sizes as a copy's are.
    if (!columns.includes('owner_site_id')) {
      for (const c of OWNER_COLUMNS) db.prepare(`ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN ${c}`).run();
      db.prepare(`UPDATE ${JOURNAL_TABLE} AS r SET owner_site_id = ${ownerOf('r')}, stored_bytes = ${storedBytesOf('r')}`).run();
    }
    db.exec(SHARES_SQL + BODIES_SQL + DROP_OLD_SQL + DROP_TRIGGER_SQL);
    if (!sharesMade) {
      db.prepare(`INSERT INTO ${SHARES_TABLE} SELECT coalesce(owner_site_id, 0), count(*), sum(stored_bytes) FROM ${JOURNAL_TABLE} GROUP BY 1`).run();
    }
    // Deferred: it writes the journal's file only, and BEGIN IMMEDIATE would take main's write lock too,
    // which another sandbox on the same file may hold in an open commit group (this thread would then
    // wait out busy_timeout for a lock that only its own event loop could release).
  })();
}

/** A database migrated past 15 keeps its entries in `requests_kept` only when a copy put them there (or an older version wrote them). */
function takeKept(db: Db): void {
  const kept = db.prepare(`SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?`).get(KEPT_TABLE) !== undefined;
  if (!kept || db.prepare(`SELECT 1 FROM main.${KEPT_TABLE} LIMIT 1`).get() === undefined) return;
  db.transaction(() => {
    for (const sql of TAKE_KEPT) db.prepare(sql).run();
  }).immediate();
}

function isDamaged(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB';
}
