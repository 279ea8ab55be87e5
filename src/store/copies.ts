// Whole-database copies, made by SQLite itself: VACUUM INTO writes a consistent copy (a snapshot, a
// file `start --db` opens), and a copy's data, once checked (copy-check.ts), replaces the live data
// table by table, in one transaction, through ATTACH (in a worker thread for a file database).
import { rmSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { type Db, openDatabase } from './db';
import { MIGRATIONS } from './migrations';
import { CopyRejected, checkCopySchema, checkCopyValues, copyQueries } from './copy-check';
import { isStorageFailure } from './failures';
import type { Store } from './store';
import { JOURNAL_TABLE_SQL, TAKE_KEPT, attachedJournalFile, keepInCopy } from './journal-file';
import { runOffThread } from './threads';

const LATEST = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * Counters that only ever grow, as `table(key → value)`. A restore brings every other table back as
 * it was, but these stay at the higher of the live and the copied value, so that an ID handed out
 * before the restore is never handed out again.
 */
export const SEQUENCES: readonly { table: string; key: string; value: string }[] = [
  { table: 'sqlite_sequence', key: 'name', value: 'seq' },
  { table: 'counters', key: 'name', value: 'value' },
];

// Run in a worker thread (threads.ts) on a connection of its own: it reads only committed data (WAL),
// and a large database is copied without holding up the requests on the main thread.
const VACUUM_WORKER = `
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.source, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(workerData.target);
  parentPort.postMessage(null);
} catch (e) {
  parentPort.postMessage(String(e && e.message || e));
} finally {
  if (db) db.close();
}`;

/**
 * Writes a copy of the store's committed data to `target` (which must not exist yet). What the
 * current commit group holds is committed first, so the copy has everything answered so far.
 */
export async function copyDatabase(store: Store, target: string): Promise<void> {
  store.writePending();
  store.flush();
  const db = store.db;
  if (db.memory) {
    // No other connection can see an in-memory database; it is small, and nothing is open on it now.
    db.prepare('VACUUM INTO ?').run(target);
    keepJournal(store, target);
    return;
  }
  const failure = await runOffThread<string | null>(
    VACUUM_WORKER,
    { driver: require.resolve('better-sqlite3'), source: db.name, target },
    // Only when it ended without a word (its answer comes first otherwise).
    (code) => `the copy stopped (exit code ${code})`,
  );
  if (failure !== null) throw new Error(`the database could not be copied: ${failure}`);
  keepJournal(store, target);
}

/**
 * The request journal's entries into the copy's requests_kept, on the live connection (the journal's
 * file takes one writer or readers, never both: another connection reading it would hold up a commit).
 */
function keepJournal(store: Store, target: string): void {
  store.writePending();
  const db = store.db;
  store.withAttached(target, 'copy', () =>
    db.transaction(() => {
      for (const sql of keepInCopy('copy')) db.prepare(sql).run();
    })(),
  );
}

export interface CopyInfo {
  /** The sandbox time the copy kept, epoch ms (undefined for a copy without one). */
  sandboxMs: number | undefined;
  payments: number;
}

/** What a copy holds, read without changing it. */
export function readCopy(file: string): CopyInfo {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const has = (t: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t) !== undefined;
    return {
      sandboxMs: has('sandbox_clock') ? (db.prepare('SELECT sandbox_ms FROM sandbox_clock WHERE id = 1').pluck().get() as number | undefined) : undefined,
      payments: has('payments') ? (db.prepare('SELECT count(*) FROM payments').pluck().get() as number) : 0,
    };
  } finally {
    db.close();
  }
}

export class CopyTooNewError extends Error {}

/**
 * Replaces every table's rows with those of the copy in `file`, in one transaction (foreign keys
 * checked at its end), once the copy passed its checks (copy-check.ts). A copy from an older schema is
 * brought up to date first, on a copy of it (`scratch`). The SEQUENCES keep the higher of the two
 * values. A file database is written by a worker thread on a connection of its own, the store's
 * writes held meanwhile (they fail as busy): the main thread goes on answering what only reads.
 */
export async function replaceData(store: Store, file: string, scratch: string): Promise<void> {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  let current: number;
  try {
    current = copy.pragma('user_version', { simple: true }) as number;
    if (current > LATEST) throw new CopyTooNewError(`it was written by a newer split-sandbox (schema ${current}, this one knows ${LATEST})`);
    // Before anything is copied or migrated: a file of another application would be "migrated" into an empty sandbox.
    checkCopySchema(copy);
  } finally {
    copy.close();
  }
  let source = file;
  try {
    if (current < LATEST) {
      source = scratch;
      await copyFile(file, scratch);
      bringUpToDate(scratch);
    }
    if (store.db.memory) swap(store, source);
    else await swapOffThread(store, source);
  } finally {
    // Whatever failed (the copy, its migration, the swap), no scratch file stays behind.
    if (source === scratch) removeScratch(scratch);
  }
}

/** Migrates a scratch copy; a migration that refuses its rows refuses the copy (the disk failing stays a storage failure). */
function bringUpToDate(scratch: string): void {
  try {
    openDatabase(scratch).close();
  } catch (e) {
    if (isStorageFailure(e) || typeof (e as NodeJS.ErrnoException).syscall === 'string') throw e;
    throw new CopyRejected(`it could not be brought up to schema ${LATEST}: ${(e as Error).message}`);
  }
}

/** A scratch database and the files SQLite keeps beside it. */
export function removeScratch(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
}

/**
 * The statements that replace the live rows with those of the copy attached as `copy`, run in one
 * transaction with foreign keys deferred: every table emptied and filled again, the SEQUENCES kept at
 * the higher of the two values (through a temporary table, so that another connection can run them).
 */
export function swapStatements(db: Db): string[] {
  const tables = db
    .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    .pluck()
    .all() as string[];
  const out = [
    'CREATE TEMP TABLE restore_kept (seq_table TEXT NOT NULL, k TEXT NOT NULL, v INTEGER NOT NULL)',
    ...SEQUENCES.map((s) => `INSERT INTO temp.restore_kept SELECT '${s.table}', ${s.key}, ${s.value} FROM main.${s.table}`),
  ];
  for (const t of [...tables, 'sqlite_sequence']) {
    const columns = (db.prepare(`SELECT name FROM pragma_table_info(?, 'main')`).pluck().all(t) as string[]).map((c) => `"${c}"`).join(', ');
    out.push(`DELETE FROM main."${t}"`, `INSERT INTO main."${t}" (${columns}) SELECT ${columns} FROM copy."${t}"`);
  }
  for (const s of SEQUENCES) {
    out.push(
      `UPDATE main.${s.table} SET ${s.value} = k.v FROM temp.restore_kept k WHERE k.seq_table = '${s.table}' AND k.k = main.${s.table}.${s.key} AND main.${s.table}.${s.value} < k.v`,
      `INSERT INTO main.${s.table} (${s.key}, ${s.value}) SELECT k.k, k.v FROM temp.restore_kept k WHERE k.seq_table = '${s.table}' AND NOT EXISTS (SELECT 1 FROM main.${s.table} t WHERE t.${s.key} = k.k)`,
    );
  }
  out.push('DROP TABLE temp.restore_kept');
  return out;
}

function swap(store: Store, source: string): void {
  const db = store.db;
  store.withAttached(source, 'copy', () => {
    checkCopyValues(db, 'copy');
    const statements = swapStatements(db);
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      for (const sql of [...statements, ...TAKE_KEPT]) db.prepare(sql).run();
    }).immediate();
  });
}

// Checks and swaps on a connection of its own to the live file, in a worker thread (threads.ts): reading
// a large copy whole and writing it into the live database took the main thread (and every answer)
// 12 s for 350 MB. It answers {bad: {index, row}} for the first check that found something, {failed}
// for an error, or {done}.
const SWAP_WORKER = `
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.live, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  db.prepare('ATTACH DATABASE ? AS copy').run(workerData.source);
  db.prepare('ATTACH DATABASE ? AS journal').run(workerData.journal);
  // Made where missing: a journal kept in memory (the journal is off) is a new, empty one here.
  db.exec(workerData.journalTable);
  let bad = null;
  for (let i = 0; i < workerData.checks.length && bad === null; i++) {
    const row = db.prepare(workerData.checks[i]).get();
    if (row !== undefined) bad = { index: i, row };
  }
  if (bad !== null) parentPort.postMessage({ bad });
  else {
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      for (const sql of workerData.statements) db.prepare(sql).run();
    }).immediate();
    parentPort.postMessage({ done: true });
  }
} catch (e) {
  parentPort.postMessage({ failed: { message: String((e && e.message) || e), code: e && e.code } });
} finally {
  if (db) db.close();
}`;

type SwapAnswer = { done: true } | { bad: { index: number; row: Record<string, unknown> } } | { failed: { message: string; code?: string } };

async function swapOffThread(store: Store, source: string): Promise<void> {
  const queries = copyQueries('copy');
  const statements = swapStatements(store.db);
  store.flush();
  store.holdWrites();
  let answer: SwapAnswer;
  try {
    answer = await runOffThread<SwapAnswer>(
      SWAP_WORKER,
      {
        driver: require.resolve('better-sqlite3'),
        live: store.db.name,
        journal: attachedJournalFile(store.db),
        journalTable: JOURNAL_TABLE_SQL,
        source,
        checks: queries.map((q) => q.sql),
        statements: [...statements, ...TAKE_KEPT],
      },
      (code) => ({ failed: { message: `the restore stopped (exit code ${code})` } }),
    );
  } finally {
    store.releaseWrites();
  }
  if ('bad' in answer) throw new CopyRejected(queries[answer.bad.index]!.says(answer.bad.row));
  if ('failed' in answer) throw Object.assign(new Error(answer.failed.message), answer.failed.code === undefined ? {} : { code: answer.failed.code });
}
