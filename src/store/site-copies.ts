// A marketplace's own copy: its rows of every table it owns (owned.ts) in a small SQLite file, with
// its clock. Saving and restoring go in steps, each a short statement, with the event loop turning
// between them: a marketplace whose copy is large never holds up another's requests for long. A
// copy is checked before anything is replaced: its tables, whose rows it holds, every reference a row
// makes (to a parent row of the copy, to a site of the marketplace, a fault rule's SiteID and
// PaymentID) and its values as a whole snapshot's are (copy-check.ts); the live tables' STRICT types
// and constraints refuse the rest inside the transaction, which then changes nothing.
import Database from 'better-sqlite3';
import { type CopyQuery, badValueMessage, valueChecks } from './copy-check';
import { MIGRATIONS } from './migrations';
import { OWNED_TABLES, liveTable, ownedRows, parentLinks } from './owned';
import type { Store } from './store';
import { JOURNAL_TABLE, RECOUNT_SHARE } from './journal-file';
import { runOffThread } from './threads';

/** What a marketplace's copy says of itself. */
export interface SiteCopyInfo {
  siteId: number;
  /** The marketplace's own clock when it was taken; null: it ran on the sandbox's. */
  ownClockMs: number | null;
  /** The time it was taken at (its own clock's, or the sandbox's). */
  takenMs: number;
  payments: number;
}

/** A copy that is not one of this marketplace, or that this sandbox cannot read: the reason says which table and row. */
export class SiteCopyRefused extends Error {}

/** A copy that grew past the bytes it was allowed: nothing of it is kept. */
export class SiteCopyTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`the copy reached ${bytes} bytes`);
  }
}

/** How a copy goes in steps. */
export interface StepOptions {
  /** Awaited between two steps (default: one turn of the event loop), where other requests are answered. */
  pause?: () => Promise<void>;
  /** A save stops with SiteCopyTooLarge once the copy's file passes this many bytes. */
  maxBytes?: number;
  /** A restore calls it once the data tables are replaced (committed), before the journal's entries follow. */
  replaced?: () => void;
}

/**
 * Rows per step. A step of the data tables copies some 2 MB (payments are about 1 KB each); one of the
 * journal's tables at most 32 entries, each at most two bodies of the largest accepted size.
 */
export const DATA_ROWS_PER_STEP = 2000;
export const JOURNAL_ROWS_PER_STEP = 16;

/**
 * A copy being written is a scratch file, removed if anything fails (the process ending too, at the
 * next start): it needs no rollback journal and no fsync of each step's commit.
 */
const SCRATCH_PRAGMAS = ['snap.journal_mode = OFF', 'snap.synchronous = OFF'];

const LATEST = () => MIGRATIONS[MIGRATIONS.length - 1]!.version;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The tables kept in the main database (copied as of one moment) and those kept apart (the journal's, copied entry by entry). */
const DATA_TABLES = OWNED_TABLES.filter((t) => t.live === undefined);
const APART_TABLES = OWNED_TABLES.filter((t) => t.live !== undefined);

/** The sites of marketplace `site`, as SQL on the live database. */
const sitesOf = (site: number) => `(SELECT site_id FROM main.sites WHERE site_id = ${site} OR marketplace_site_id = ${site})`;

/**
 * Writes the marketplace's rows to `target` (a new file), in steps. A file database's tables are read
 * on a connection of their own in one read transaction (WAL: a consistent view that holds no lock a
 * writer waits for), so that the copy is of one moment even while the marketplace's requests go on;
 * the journal's entries follow, a few per step. Throws SiteCopyTooLarge past `maxBytes`.
 */
export async function copySite(
  store: Store,
  siteId: number,
  target: string,
  clock: { ownMs: number | null; takenMs: number },
  options: StepOptions = {},
): Promise<void> {
  const pause = options.pause ?? turn;
  const maxBytes = options.maxBytes ?? Infinity;
  // The journal's entries of the last answers belong in the copy too.
  store.writePending();
  const head = (db: Database.Database) => {
    db.prepare('CREATE TABLE snap.copy_of (site_id INTEGER NOT NULL, own_clock_ms INTEGER, taken_ms INTEGER NOT NULL, schema INTEGER NOT NULL)').run();
    db.prepare('INSERT INTO snap.copy_of VALUES (?, ?, ?, ?)').run(siteId, clock.ownMs, clock.takenMs, LATEST());
  };
  const db = store.db;
  // What was answered so far is committed: the copy has it.
  store.flush();
  if (db.memory) {
    // No other connection can see an in-memory database: its tables in one transaction.
    store.withAttached(target, 'snap', () =>
      db.transaction(() => {
        head(db);
        for (const t of DATA_TABLES) db.prepare(`CREATE TABLE snap."${t.table}" AS SELECT * FROM ${liveTable(t)} WHERE ${ownedRows(t)} ORDER BY rowid`).run({ site: siteId });
        if (bytesOf(db) > maxBytes) throw new SiteCopyTooLarge(bytesOf(db));
      })(),
    );
  } else {
    await copyDataInSteps(db.name, siteId, target, head, pause, maxBytes);
  }
  // The journal's tables, on the store's own connection (the journal's file takes one writer or
  // readers, never both: only this connection touches it), a few entries per step.
  for (const t of APART_TABLES) {
    store.withAttached(target, 'snap', () => db.prepare(`CREATE TABLE snap."${t.table}" AS SELECT * FROM ${liveTable(t)} WHERE 0`).run());
    const attached = <T>(fn: () => T) =>
      store.withAttached(target, 'snap', () => {
        for (const p of SCRATCH_PRAGMAS) db.pragma(p);
        return fn();
      });
    let after = -1;
    for (;;) {
      store.writePending();
      const ids = db.prepare(`SELECT rowid FROM ${liveTable(t)} WHERE ${ownedRows(t)} AND rowid > @after ORDER BY rowid LIMIT ${JOURNAL_ROWS_PER_STEP}`).pluck().all({ site: siteId, after }) as number[];
      if (ids.length === 0) break;
      const last = ids[ids.length - 1]!;
      const bytes = attached(() => {
        // A view has no rowid: the journal's entries are found by their ID, which is theirs.
        const [from, key] = t.whole === undefined ? [liveTable(t), 'rowid'] : [t.whole, 'id'];
        db.prepare(`INSERT INTO snap."${t.table}" SELECT * FROM ${from} WHERE ${ownedRows(t)} AND ${key} > @after AND ${key} <= @last ORDER BY ${key}`).run({ site: siteId, after, last });
        return bytesOf(db);
      });
      if (bytes > maxBytes) throw new SiteCopyTooLarge(bytes);
      after = last;
      await pause();
    }
  }
}

/** The attached copy's size: its pages as they stand, in the transaction or not. */
function bytesOf(db: Database.Database): number {
  return (db.pragma('snap.page_count', { simple: true }) as number) * (db.pragma('snap.page_size', { simple: true }) as number);
}

async function copyDataInSteps(
  live: string,
  siteId: number,
  target: string,
  head: (db: Database.Database) => void,
  pause: () => Promise<void>,
  maxBytes: number,
): Promise<void> {
  // Not fileMustExist: that opens without SQLITE_OPEN_CREATE, which the ATTACH of the new copy needs.
  const reader = new Database(live);
  try {
    reader.pragma('busy_timeout = 5000');
    reader.prepare('ATTACH DATABASE ? AS snap').run(target);
    for (const p of SCRATCH_PRAGMAS) reader.pragma(p);
    reader.prepare('BEGIN').run();
    head(reader);
    for (const t of DATA_TABLES) {
      const from = `main."${t.table}"`;
      reader.prepare(`CREATE TABLE snap."${t.table}" AS SELECT * FROM ${from} WHERE 0`).run();
      const boundary = reader.prepare(`SELECT rowid FROM ${from} WHERE ${ownedRows(t)} AND rowid > @after ORDER BY rowid LIMIT 1 OFFSET ${DATA_ROWS_PER_STEP - 1}`).pluck();
      const upTo = reader.prepare(`INSERT INTO snap."${t.table}" SELECT * FROM ${from} WHERE ${ownedRows(t)} AND rowid > @after AND rowid <= @last ORDER BY rowid`);
      const rest = reader.prepare(`INSERT INTO snap."${t.table}" SELECT * FROM ${from} WHERE ${ownedRows(t)} AND rowid > @after ORDER BY rowid`);
      let after = -1;
      for (;;) {
        const last = boundary.get({ site: siteId, after }) as number | undefined;
        if (last === undefined) rest.run({ site: siteId, after });
        else upTo.run({ site: siteId, after, last });
        if (bytesOf(reader) > maxBytes) throw new SiteCopyTooLarge(bytesOf(reader));
        await pause();
        if (last === undefined) break;
        after = last;
      }
    }
    reader.prepare('COMMIT').run();
  } finally {
    if (reader.inTransaction) reader.prepare('ROLLBACK').run();
    reader.close();
  }
}

/** What a copy holds, read without changing it; a SiteCopyRefused when it is not a marketplace's copy. */
export function readSiteCopy(file: string): SiteCopyInfo {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new SiteCopyRefused(`it cannot be opened: ${(e as Error).message}`);
  }
  try {
    const row = db.prepare('SELECT site_id, own_clock_ms, taken_ms, schema FROM copy_of').get() as
      | { site_id: unknown; own_clock_ms: unknown; taken_ms: unknown; schema: unknown }
      | undefined;
    if (!row) throw new SiteCopyRefused('copy_of: it has no row saying whose copy it is');
    const whole = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v);
    // The times a sandbox can show: 14-digit timestamps, years 1970 to 9999.
    const time = (v: unknown) => whole(v) && (v as number) >= 0 && (v as number) < 253402300800000;
    if (!whole(row.site_id) || !time(row.taken_ms) || !(row.own_clock_ms === null || time(row.own_clock_ms))) {
      throw new SiteCopyRefused('copy_of: its SiteID or clock is not a SiteID or a sandbox time');
    }
    if (row.schema !== LATEST()) throw new SiteCopyRefused(`copy_of: it was written with schema ${String(row.schema)}, this sandbox has ${LATEST()}`);
    const payments = db.prepare('SELECT count(*) FROM payments').pluck().get() as number;
    return { siteId: row.site_id as number, ownClockMs: row.own_clock_ms as number | null, takenMs: row.taken_ms as number, payments };
  } catch (e) {
    if (e instanceof SiteCopyRefused) throw e;
    throw new SiteCopyRefused(`it is not a marketplace's copy: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}

/** The owned table a column such as `payment_id` or `refund_id` points at (by the house's naming), if any. */
function linkedTable(column: string): string | undefined {
  const m = /^([a-z]+)_id$/.exec(column);
  const table = m ? `${m[1]}s` : undefined;
  return DATA_TABLES.some((t) => t.table === table) ? table : undefined;
}

const isSiteColumn = (column: string) => column === 'site_id' || column.endsWith('_site_id');

/**
 * The checks of a copy of marketplace `siteId` attached as `snap` to a connection on the live
 * database, each a query that returns a row only when something is wrong. Plain SQL, so that a worker
 * thread can run them on a connection of its own. `columnsOf` gives a table's live columns.
 */
export function siteCopyQueries(siteId: number, columnsOf: (table: string) => string[]): CopyQuery[] {
  const sites = sitesOf(siteId);
  const out: CopyQuery[] = [];
  for (const t of OWNED_TABLES) {
    const from = `snap."${t.table}"`;
    // A row is named by its ID where it has one (the copy's own rowids mean nothing to its reader).
    const key = columnsOf(t.table).includes('id') ? 'id' : 'rowid';
    const not = (what: string) => (row: Record<string, unknown>) => `${t.table}: row ${key} ${String(row.r)} ${what}`;
    // Whose row it is: by its site, or through a parent row of the copy.
    const foreign = t.site
      ? `${t.site} IS NULL OR ${t.site} NOT IN ${sites}`
      : `NOT (${parentLinks(t).map((l) => `${l.column} IS NOT NULL AND ${l.column} IN (SELECT id FROM snap."${l.parent}")`).join(' OR ')})`;
    out.push({ sql: `SELECT ${key} AS r FROM ${from} WHERE ${foreign} LIMIT 1`, says: not(`is not of SiteID ${siteId}`) });
    for (const column of columnsOf(t.table)) {
      if (column === t.site) continue;
      if (isSiteColumn(column)) {
        // A step or a notification on another's clock would run at that marketplace's advance.
        out.push({
          sql: `SELECT ${key} AS r FROM ${from} WHERE "${column}" IS NOT NULL AND "${column}" NOT IN ${sites} LIMIT 1`,
          says: not(`names in ${column} a site that is not of SiteID ${siteId}`),
        });
        continue;
      }
      // The journal's entries say what was asked, a payment of another marketplace too: only whose entry it is counts there.
      const parent = t.live === undefined ? linkedTable(column) : undefined;
      if (parent === undefined || (parent === t.table && column === 'id')) continue;
      out.push({
        sql: `SELECT ${key} AS r FROM ${from} WHERE "${column}" IS NOT NULL AND "${column}" NOT IN (SELECT id FROM snap."${parent}") LIMIT 1`,
        says: not(`names in ${column} a row of ${parent} that is not in the copy (every row it points at must be SiteID ${siteId}'s)`),
      });
    }
  }
  // A fault rule acts on the SiteID and PaymentID its Match names: those must be the marketplace's.
  out.push({
    sql: `SELECT id AS r FROM snap.faults WHERE json_valid(match_json) AND (json_type(match_json, '$.SiteID') IS NOT 'integer' OR json_extract(match_json, '$.SiteID') NOT IN ${sites}) LIMIT 1`,
    says: (row) => `faults: row id ${String(row.r)} has a Match.SiteID that is not one of SiteID ${siteId}'s`,
  });
  out.push({
    sql: `SELECT id AS r FROM snap.faults WHERE json_valid(match_json) AND json_type(match_json, '$.PaymentID') IS NOT NULL
          AND (json_type(match_json, '$.PaymentID') IS NOT 'integer'
               OR json_extract(match_json, '$.PaymentID') IN (SELECT id FROM main.payments WHERE owner_site_id NOT IN ${sites})) LIMIT 1`,
    says: (row) => `faults: row id ${String(row.r)} has a Match.PaymentID that is another marketplace's payment`,
  });
  // The values a whole snapshot's restore checks (copy-check.ts knows them from the schema), on the owned tables.
  const owned = new Set(OWNED_TABLES.map((t) => t.table));
  for (const check of valueChecks('snap')) {
    if (owned.has(check.table)) out.push({ sql: check.sql, says: (row) => badValueMessage(check, row) });
  }
  return out;
}

// Runs a copy's checks on a connection of its own to the live file, in a worker thread (threads.ts):
// reading a large copy whole took the main thread seconds. Answers {bad: {index, row}}, {failed} or {done}.
const CHECK_WORKER = `
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.live, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.prepare('ATTACH DATABASE ? AS snap').run(workerData.copy);
  let bad = null;
  for (let i = 0; i < workerData.checks.length && bad === null; i++) {
    const row = db.prepare(workerData.checks[i]).get();
    if (row !== undefined) bad = { index: i, row };
  }
  parentPort.postMessage(bad === null ? { done: true } : { bad });
} catch (e) {
  parentPort.postMessage({ failed: String((e && e.message) || e) });
} finally {
  if (db) db.close();
}`;

type CheckAnswer = { done: true } | { bad: { index: number; row: Record<string, unknown> } } | { failed: string };

async function runChecks(store: Store, file: string, queries: CopyQuery[]): Promise<void> {
  const db = store.db;
  let answer: CheckAnswer;
  if (db.memory) {
    answer = store.withAttached(file, 'snap', () => {
      for (let i = 0; i < queries.length; i++) {
        const row = db.prepare(queries[i]!.sql).get() as Record<string, unknown> | undefined;
        if (row !== undefined) return { bad: { index: i, row } };
      }
      return { done: true as const };
    });
  } else {
    answer = await runOffThread<CheckAnswer>(
      CHECK_WORKER,
      { driver: require.resolve('better-sqlite3'), live: db.name, copy: file, checks: queries.map((q) => q.sql) },
      (code) => ({ failed: `the check stopped (exit code ${code})` }),
    );
  }
  if ('bad' in answer) throw new SiteCopyRefused(queries[answer.bad.index]!.says(answer.bad.row));
  if ('failed' in answer) throw new SiteCopyRefused(`it cannot be read: ${answer.failed}`);
}

/**
 * Replaces the marketplace's rows with the copy's; nobody else's are touched. Refused (SiteCopyRefused,
 * nothing changed) when the copy's tables are not the live ones, a row belongs to another site or
 * points at a row that is not the marketplace's, or a value does not fit. The checks run off the main
 * thread (a file database); the data tables are replaced in one transaction (with `apply`); the
 * journal's entries then a few per step, the marketplace's older entries deleted first.
 */
export async function restoreSite(store: Store, siteId: number, file: string, apply: () => void, options: StepOptions = {}): Promise<void> {
  const pause = options.pause ?? turn;
  const info = readSiteCopy(file);
  if (info.siteId !== siteId) throw new SiteCopyRefused(`copy_of: it is a copy of SiteID ${info.siteId}`);
  const db = store.db;
  const columnsOf = (schema: string, t: string) => db.prepare(`SELECT name FROM pragma_table_info(?, ?) ORDER BY cid`).pluck().all(t, schema) as string[];
  store.withAttached(file, 'snap', () => {
    for (const t of OWNED_TABLES) {
      // The journal's kept table has the live journal's columns (journal-file.ts).
      if (columnsOf('snap', t.table).join() !== columnsOf('main', t.table).join()) throw new SiteCopyRefused(`${t.table}: its columns are not this sandbox's`);
    }
  });
  await runChecks(store, file, siteCopyQueries(siteId, (t) => columnsOf('main', t)));
  store.writePending();
  try {
    store.withAttached(file, 'snap', () => {
      store.tx(() => {
        for (const t of DATA_TABLES) db.prepare(`DELETE FROM ${liveTable(t)} WHERE ${ownedRows(t)}`).run({ site: siteId });
        // Parents before the rows that point at them.
        for (const t of [...DATA_TABLES].reverse()) {
          const columns = columnsOf('main', t.table)
            .map((c) => `"${c}"`)
            .join(', ');
          db.prepare(`INSERT INTO ${liveTable(t)} (${columns}) SELECT ${columns} FROM snap."${t.table}" ORDER BY rowid`).run();
        }
        apply();
      });
      store.flush();
    });
    options.replaced?.();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code?.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_MISMATCH') throw new SiteCopyRefused(`a row does not fit: ${(e as Error).message}`);
    throw e;
  }
  // The journal: the entries it held when the restore began go, the copy's come back; entries written
  // meanwhile (the marketplace's requests during the restore) stay.
  for (const t of APART_TABLES) {
    const upTo = (db.prepare(`SELECT coalesce(max(rowid), 0) FROM ${liveTable(t)}`).pluck().get() as number) ?? 0;
    for (;;) {
      store.writePending();
      const gone = store.txApart(
        () =>
          db
            .prepare(`DELETE FROM ${liveTable(t)} WHERE rowid IN (SELECT rowid FROM ${liveTable(t)} WHERE ${ownedRows(t)} AND rowid <= @upTo ORDER BY rowid LIMIT ${JOURNAL_ROWS_PER_STEP})`)
            .run({ site: siteId, upTo }).changes,
      );
      if (gone === 0) break;
      await pause();
    }
    let after = -1;
    for (;;) {
      const last = store.withAttached(file, 'snap', () => {
        const ids = db.prepare(`SELECT rowid FROM snap."${t.table}" WHERE rowid > ? ORDER BY rowid LIMIT ${JOURNAL_ROWS_PER_STEP}`).pluck().all(after) as number[];
        if (ids.length === 0) return undefined;
        const end = ids[ids.length - 1]!;
        // An entry whose ID another's entry holds now is not brought back over it.
        store.txApart(() => {
          db.prepare(`INSERT OR IGNORE INTO ${liveTable(t)} SELECT * FROM snap."${t.table}" WHERE rowid > ? AND rowid <= ? ORDER BY rowid`).run(after, end);
          // The journal's shares count what its writers write (no trigger adds them): the owners brought back are counted again.
          if (t.live !== JOURNAL_TABLE) return;
          const owners = db.prepare(`SELECT DISTINCT owner_site_id FROM snap."${t.table}" WHERE rowid > ? AND rowid <= ? AND owner_site_id IS NOT NULL`).pluck().all(after, end);
          for (const owner of owners) db.prepare(RECOUNT_SHARE).run({ owner });
        });
        return end;
      });
      if (last === undefined) break;
      after = last;
      await pause();
    }
  }
}
