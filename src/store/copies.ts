// Whole-database copies, made by SQLite itself: VACUUM INTO writes a consistent copy (a snapshot, a
// file `start --db` opens), and a copy's data replaces the live data table by table, in one
// transaction, through ATTACH.
import { copyFileSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { openDatabase } from './db';
import { MIGRATIONS } from './migrations';
import { CopyRejected, checkCopy, checkCopySchema } from './copy-check';
import { isStorageFailure } from './failures';

const LATEST = MIGRATIONS[MIGRATIONS.length - 1]!.version;
import type { Store } from './store';

/**
 * Counters that only ever grow, as `table(key → value)`. A restore brings every other table back as
 * it was, but these stay at the higher of the live and the copied value, so that an ID handed out
 * before the restore is never handed out again.
 */
export const SEQUENCES: readonly { table: string; key: string; value: string }[] = [
  { table: 'sqlite_sequence', key: 'name', value: 'seq' },
  { table: 'counters', key: 'name', value: 'value' },
];

// Run in a worker thread on a connection of its own: it reads only committed data (WAL), and a
// large database is copied without holding up the requests on the main thread.
const VACUUM_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
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
  store.flush();
  const db = store.db;
  if (db.memory) {
    // No other connection can see an in-memory database; it is small, and nothing is open on it now.
    db.prepare('VACUUM INTO ?').run(target);
    return;
  }
  const failure = await new Promise<string | null>((resolve, reject) => {
    const worker = new Worker(VACUUM_WORKER, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), source: db.name, target },
    });
    worker.once('message', (m: string | null) => resolve(m));
    worker.once('error', reject);
    // Only when it ended without a word (its answer comes first otherwise).
    worker.once('exit', (code) => resolve(`the copy stopped (exit code ${code})`));
  });
  if (failure !== null) throw new Error(`the database could not be copied: ${failure}`);
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
 * Replaces every table's rows with those of the copy in `file`, in one transaction on the live
 * connection (foreign keys checked at its end). A copy from an older schema is brought up to date
 * first, on a copy of it (`scratch`). The SEQUENCES keep the higher of the two values.
 */
export function replaceData(store: Store, file: string, scratch: string): void {
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
      copyFileSync(file, scratch);
      bringUpToDate(scratch);
    }
    swap(store, source);
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

function swap(store: Store, source: string): void {
  // ATTACH and DETACH happen outside a transaction: the open commit group is committed first.
  store.flush();
  const db = store.db;
  db.prepare('ATTACH DATABASE ? AS copy').run(source);
  try {
    checkCopy(db, 'copy');
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      const kept = SEQUENCES.map((s) => ({
        ...s,
        live: new Map(db.prepare(`SELECT ${s.key} AS k, ${s.value} AS v FROM main.${s.table}`).all().map((r) => [(r as { k: string }).k, (r as { v: number }).v])),
      }));
      const tables = db
        .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        .pluck()
        .all() as string[];
      for (const t of [...tables, 'sqlite_sequence']) {
        const columns = (db.prepare(`SELECT name FROM pragma_table_info(?, 'main')`).pluck().all(t) as string[]).map((c) => `"${c}"`).join(', ');
        db.prepare(`DELETE FROM main."${t}"`).run();
        db.prepare(`INSERT INTO main."${t}" (${columns}) SELECT ${columns} FROM copy."${t}"`).run();
      }
      for (const s of kept) {
        const update = db.prepare(`UPDATE main.${s.table} SET ${s.value} = ? WHERE ${s.key} = ? AND ${s.value} < ?`);
        const insert = db.prepare(`INSERT INTO main.${s.table} (${s.key}, ${s.value}) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM main.${s.table} WHERE ${s.key} = ?)`);
        for (const [k, v] of s.live) {
          update.run(v, k, v);
          insert.run(k, v, k);
        }
      }
    }).immediate();
  } finally {
    db.prepare('DETACH DATABASE copy').run();
  }
}
