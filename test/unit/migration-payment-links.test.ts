// Migration 10: payment links are found by their payment's ID, so the index of tokens goes; a database
// of an older sandbox keeps its payments, and their links still open.
import Database from 'better-sqlite3';
import request from 'supertest';
import { migrate } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';
import { Store } from '../../src/store/store';
import { createPayment, makeWorld } from '../helpers/world';

const tokenIndex = (db: Database.Database) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'payments_by_token'").pluck().all();

describe('migration 10 (payment links by ID)', () => {
  it('drops the index of tokens from a schema-9 database, which keeps its payments', () => {
    const db = schema9();
    expect(tokenIndex(db)).toEqual(['payments_by_token']);
    db.prepare(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Shop')`).run();
    db.prepare(
      `INSERT INTO payments (surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, token, status_id, created_at)
       VALUES ('api', 30201, 30201, 'm-1', 1000, 'EUR', '0123456789ABCDEF0123456789ABCDEF', 1, 0)`,
    ).run();

    migrate(db);

    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(tokenIndex(db)).toEqual([]);
    expect(db.prepare('SELECT token FROM payments').pluck().all()).toEqual(['0123456789ABCDEF0123456789ABCDEF']);
    db.close();
  });

  it('opens the page of a payment made while the index was there', async () => {
    // The store's statements need the newest schema: the index of tokens is put back as schema 9 had it.
    const w = makeWorld({}, Store.open(':memory:'));
    w.store.db.exec('CREATE UNIQUE INDEX payments_by_token ON payments (token) WHERE token IS NOT NULL');
    try {
      const p = await createPayment(w);
      expect(tokenIndex(w.store.db)).toEqual(['payments_by_token']);
      w.store.db.exec(MIGRATIONS.find((m) => m.version === 10)!.sql);
      expect(tokenIndex(w.store.db)).toEqual([]);
      const link = new URL(p.RedirectURL!);
      const res = await request(w.api).get(link.pathname + link.search);
      expect(res.status).toBe(200);
      expect(res.text).toContain(p.MerchantTransactionID);
    } finally {
      w.close();
    }
  });
});

/** An empty database as an older sandbox (schema 9) made it. */
function schema9(): Database.Database {
  const db = new Database(':memory:');
  for (const m of MIGRATIONS.filter((x) => x.version <= 9)) {
    db.exec(m.sql);
    m.up?.(db);
  }
  db.pragma('user_version = 9');
  db.pragma('foreign_keys = ON');
  return db;
}
