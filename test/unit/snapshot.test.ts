// snapshot() (test/helpers/world.ts) gives its last picture of a database again only while nothing can
// have changed: whatever happened in between, it is what reading every table gives.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import type { Db } from '../../src/store/db';
import type { Store } from '../../src/store/store';
import { type World, createPayment, makeWorld, post, snapshot } from '../helpers/world';

/** Every table read afresh, as snapshot() reads them when it cannot give its last picture. */
function read(db: Db): string {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  return JSON.stringify(tables.map((t) => [t, db.prepare(t === 'sqlite_sequence' ? 'SELECT * FROM sqlite_sequence' : `SELECT * FROM "${t}"`).all()]));
}

/** How many times a statement's rows were read while `fn` ran. */
function readsDuring<T>(db: Db, fn: () => T): { value: T; reads: number } {
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Statement;
  const all = jest.spyOn(proto, 'all');
  try {
    const value = fn();
    return { value, reads: all.mock.calls.length };
  } finally {
    all.mockRestore();
  }
}

describe('snapshot()', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('gives its last picture again, reading no table, when nothing was written since', async () => {
    await createPayment(w);
    const before = snapshot(w.store);
    const again = readsDuring(w.store.db, () => snapshot(w.store));
    expect(again.reads).toBe(0);
    expect(again.value).toBe(before);
    expect(again.value).toBe(read(w.store.db));
  });

  it('reads the tables again after a refused request, whose journal entry is a write, and finds them as they were', async () => {
    const p = await createPayment(w);
    const before = snapshot(w.store);
    expect((await post(w, `/v1/payments/${p.ID}/capture`, { Payment: { Amount: 'lots' } })).status).toBe(400);
    w.services.requests!.flush();
    const after = readsDuring(w.store.db, () => snapshot(w.store));
    expect(after.reads).toBeGreaterThan(0);
    expect(after.value).toBe(before);
  });

  it('sees a write, and a write rolled back', () => {
    const before = snapshot(w.store);
    w.store.db.prepare('UPDATE sites SET name = name || ?').run('!');
    const changed = snapshot(w.store);
    expect(changed).not.toBe(before);
    expect(changed).toBe(read(w.store.db));
    w.store.db.exec('SAVEPOINT s');
    w.store.db.prepare('UPDATE sites SET name = ?').run('gone');
    w.store.db.exec('ROLLBACK TO s');
    w.store.db.exec('RELEASE s');
    expect(snapshot(w.store)).toBe(changed);
    expect(snapshot(w.store)).toBe(read(w.store.db));
  });

  it('sees a column added with a default, which changes no row', () => {
    const before = snapshot(w.store);
    w.store.db.exec("ALTER TABLE sites ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'");
    const after = snapshot(w.store);
    expect(after).not.toBe(before);
    expect(after).toBe(read(w.store.db));
  });

  it("sees ANALYZE's statistics, which it writes without counting a change", () => {
    w.store.db.exec('ANALYZE');
    expect(snapshot(w.store)).toBe(read(w.store.db));
    w.store.db.prepare('INSERT INTO counters (name, value) VALUES (?, ?)').run('more', 1);
    expect(snapshot(w.store)).toBe(read(w.store.db));
    w.store.db.exec('ANALYZE');
    expect(snapshot(w.store)).toBe(read(w.store.db));
  });

  it('sees a VACUUM, and a temporary table read in place of a table of the same name', () => {
    snapshot(w.store);
    w.store.db.exec('VACUUM');
    expect(snapshot(w.store)).toBe(read(w.store.db));
    w.store.db.exec('CREATE TEMP TABLE sites (other TEXT)');
    try {
      expect(snapshot(w.store)).toBe(read(w.store.db));
    } finally {
      w.store.db.exec('DROP TABLE temp.sites');
    }
    expect(snapshot(w.store)).toBe(read(w.store.db));
  });
});

it("snapshot() sees another connection's commit to the same file", () => {
  const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-snapshot-'));
  const one = new Database(join(dir, 'x.db'));
  const two = new Database(join(dir, 'x.db'));
  try {
    one.exec('CREATE TABLE t (v TEXT); INSERT INTO t VALUES (1)');
    const store = { db: one } as unknown as Store;
    const before = snapshot(store);
    two.prepare('UPDATE t SET v = ?').run('2');
    const after = snapshot(store);
    expect(after).not.toBe(before);
    expect(after).toBe(read(one as unknown as Db));
  } finally {
    one.close();
    two.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
