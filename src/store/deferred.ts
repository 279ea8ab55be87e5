// Statements prepared on their first use: the repositories' constructors ask for some 150, and a start
// (or a test's sandbox) uses a handful of them.
import Database, { type Statement } from 'better-sqlite3';
import type { Db } from './db';

const prepareNow: (this: Db, sql: string) => Statement = Database.prototype.prepare;

type Mode = 'pluck' | 'raw' | 'expand' | 'safeIntegers';

/**
 * A statement that SQLite compiles when it is first run or read: the driver's Statement, behind one
 * call. Its modes (pluck, raw…) set before then are set on it then, in the same order. SQL with a
 * mistake throws at that first use rather than where it is written, which is where the tests run it.
 */
class DeferredStatement {
  private prepared: Statement | undefined;
  private modes: [Mode, unknown[]][] | undefined;

  constructor(
    private readonly db: Db,
    readonly source: string,
  ) {}

  private get now(): Statement {
    if (this.prepared === undefined) {
      const s = prepareNow.call(this.db, this.source);
      for (const [mode, args] of this.modes ?? []) (s[mode] as (...a: unknown[]) => unknown).apply(s, args);
      this.modes = undefined;
      this.prepared = s;
    }
    return this.prepared;
  }

  private mode(mode: Mode, args: unknown[]): this {
    if (this.prepared !== undefined) (this.prepared[mode] as (...a: unknown[]) => unknown).apply(this.prepared, args);
    else (this.modes ??= []).push([mode, args]);
    return this;
  }

  run(...params: unknown[]) {
    return this.now.run(...params);
  }
  get(...params: unknown[]) {
    return this.now.get(...params);
  }
  all(...params: unknown[]) {
    return this.now.all(...params);
  }
  iterate(...params: unknown[]) {
    return this.now.iterate(...params);
  }
  bind(...params: unknown[]) {
    this.now.bind(...params);
    return this;
  }
  columns() {
    return this.now.columns();
  }
  pluck(...args: unknown[]) {
    return this.mode('pluck', args);
  }
  raw(...args: unknown[]) {
    return this.mode('raw', args);
  }
  expand(...args: unknown[]) {
    return this.mode('expand', args);
  }
  safeIntegers(...args: unknown[]) {
    return this.mode('safeIntegers', args);
  }
  get reader() {
    return this.now.reader;
  }
  get readonly() {
    return this.now.readonly;
  }
  get busy() {
    return this.now.busy;
  }
  get database() {
    return this.db;
  }
}

/**
 * Until the returned function is called, `db.prepare` hands out statements prepared on first use: for
 * the constructors of the repositories, which keep their statements. Prepares made later (a method's
 * own, run at once) are the driver's, as before.
 */
export function deferPrepares(db: Db): () => void {
  const own = Object.getOwnPropertyDescriptor(db, 'prepare');
  db.prepare = ((sql: string) => new DeferredStatement(db, sql)) as unknown as Db['prepare'];
  return () => {
    if (own) Object.defineProperty(db, 'prepare', own);
    else delete (db as { prepare?: unknown }).prepare;
  };
}

/** What `make` builds from `db` with its prepares deferred: a repository's statements, each compiled on its first use. */
export function withDeferredPrepares<T>(db: Db, make: (db: Db) => T): T {
  const done = deferPrepares(db);
  try {
    return make(db);
  } finally {
    done();
  }
}
