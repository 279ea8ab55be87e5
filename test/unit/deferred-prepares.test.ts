// Statements of the repositories are compiled by SQLite on their first use, not when a store opens.
import Database from 'better-sqlite3';
import { Store } from '../../src/store/store';
import { openDatabase } from '../../src/store/db';
import { deferPrepares } from '../../src/store/deferred';

function countingPrepares<T>(fn: () => T): { result: T; prepares: number } {
  const real = Database.prototype.prepare;
  let prepares = 0;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    prepares++;
    return real.call(this, sql);
  } as typeof real;
  try {
    return { result: fn(), prepares };
  } finally {
    Database.prototype.prepare = real;
  }
}

describe('statements prepared on first use', () => {
  it('a store opens without compiling its repositories’ statements', () => {
    const { result: store, prepares } = countingPrepares(() => Store.open(':memory:'));
    try {
      // The journal's attachment and the store's own transaction statements; the repositories' hundred-odd wait.
      expect(prepares).toBeLessThan(30);
      expect(store.sites.list().length).toBe(0);
    } finally {
      store.close();
    }
  });

  it('the health counts compile only what they read', () => {
    const store = Store.open(':memory:');
    try {
      const { result, prepares } = countingPrepares(() => store.retention.stats(store.changeStamp()));
      expect(result.payments).toBe(0);
      expect(prepares).toBeLessThanOrEqual(4);
    } finally {
      store.close();
    }
  });

  it('the journal’s health reads compile only what they read', () => {
    const store = Store.open(':memory:');
    try {
      const { prepares } = countingPrepares(() => [store.requests.shares(), store.requests.fileBytes()]);
      expect(prepares).toBeLessThanOrEqual(4);
    } finally {
      store.close();
    }
  });

  it('keeps modes set before the first use, in order, and answers as the driver does', () => {
    const db = openDatabase(':memory:');
    try {
      db.exec('CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, \'x\'), (2, \'y\')');
      const done = deferPrepares(db);
      const plucked = db.prepare('SELECT b FROM t ORDER BY a').pluck();
      const raw = db.prepare('SELECT a, b FROM t WHERE a = ?').raw();
      const rawThenNot = db.prepare('SELECT a, b FROM t WHERE a = ?').raw().raw(false);
      const insert = db.prepare('INSERT INTO t VALUES (@a, @b)');
      const wrong = db.prepare('SELECT x FROM nowhere');
      done();
      expect(db.prepare).toBe(Database.prototype.prepare);
      expect(plucked.all()).toEqual(['x', 'y']);
      expect(raw.get(2)).toEqual([2, 'y']);
      expect(rawThenNot.get(1)).toEqual({ a: 1, b: 'x' });
      expect(insert.run({ a: 3, b: 'z' }).changes).toBe(1);
      expect([...plucked.iterate()]).toEqual(['x', 'y', 'z']);
      expect(raw.columns().map((c) => c.name)).toEqual(['a', 'b']);
      expect(raw.reader).toBe(true);
      expect(insert.reader).toBe(false);
      // A mistake in the SQL is found where the statement is first used.
      expect(() => wrong.get()).toThrow(/no such table: nowhere/);
    } finally {
      db.close();
    }
  });
});
