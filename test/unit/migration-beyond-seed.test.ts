// Migration 5 on a database an older sandbox left behind (schema 4, with split refunds and everything
// that points at them): refunds keep their rows, IDs and references, may now have no split, and IDs go
// on where they stood; methods get their catalogue entries from the fixtures; every site keeps every method.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_FIXTURES_DIR, completeMethodCatalogue, readFixtures } from '../../src/fixtures';
import { openDatabase } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';
import { Store } from '../../src/store/store';

/** A schema-4 database file with one marketplace, a paid payment with a split, two refunds and their history, steps and notifications. */
function schema4(file: string): void {
  const db = new Database(file);
  for (const m of MIGRATIONS.filter((x) => x.version <= 4)) db.exec(m.sql);
  db.pragma('user_version = 4');
  db.exec(`
    INSERT INTO methods (method_id, name, flow, details_template) VALUES (29, 'Trustly', 'one-step', NULL), (4242, 'Own method', 'one-step', NULL);
    INSERT INTO sites (site_id, api_key, name, marketplace_site_id) VALUES (30201, 'key', 'Market', NULL), (30202, NULL, 'Seller', 30201);
    INSERT INTO payments (surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, status_id, created_at, has_splits)
      VALUES ('api', 30201, 30202, 'm-1', 1000, 'EUR', 2, 1000, 1);
    INSERT INTO splits (payment_id, site_id, merchant_transaction_id, amount, status_id, created_at) VALUES (3005001, 30202, 's-1', 1000, 2, 1000);
    INSERT INTO refunds (payment_id, split_id, site_id, merchant_transaction_id, amount, currency, description, type_id, status_id, created_at)
      VALUES (3005001, 7001, 30202, 'r-1', 100, 'EUR', '', 1, 2, 2000), (3005001, 7001, 30202, 'r-2', 50, 'EUR', 'x', 1, 1, 3000);
    INSERT INTO status_history (payment_id, refund_id, status_id, at, cause) VALUES (3005001, 16401, 1, 2000, 'refund requested');
    INSERT INTO scenario_jobs (payment_id, refund_id, step_index, action, due_at, state) VALUES (3005001, 16402, -1, 'refund-succeed', 4000, 'pending');
    INSERT INTO notifications (payment_id, refund_id, site_id, status_id, body, state, next_attempt_at, created_at) VALUES (3005001, 16401, 30201, 2, '{}', 'delivered', 2000, 2000);
  `);
  db.close();
}

describe('migration 5', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-v5-'));
    file = join(dir, 'old.db');
    schema4(file);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every refund, its ID and what refers to it; a refund may now have no split; IDs go on', () => {
    const db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.prepare('SELECT id, split_id, merchant_transaction_id, amount, status_id FROM refunds ORDER BY id').all()).toEqual([
        { id: 16401, split_id: 7001, merchant_transaction_id: 'r-1', amount: 100, status_id: 2 },
        { id: 16402, split_id: 7001, merchant_transaction_id: 'r-2', amount: 50, status_id: 1 },
      ]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'refunds' ORDER BY name").pluck().all()).toEqual([
        // Migration 14 indexes the refunds taken from a named capture.
        'refunds_by_capture',
        'refunds_by_payment',
        'refunds_by_split',
      ]);
      const store = new Store(db);
      const id = store.refunds.insert({
        paymentId: 3005001,
        splitId: null,
        siteId: 30202,
        merchantTransactionId: 'r-3',
        originatorTransactionId: null,
        amount: 10n,
        currency: 'EUR',
        description: '',
        typeId: 1,
        statusId: 1,
        createdAt: 5000,
      });
      expect(id).toBe(16403);
      expect(store.refunds.get(id)!.splitId).toBeNull();
      expect(store.refunds.refundedOnPayment(3005001)).toBe(160n);
      // The references are enforced as before.
      expect(() => db.prepare("INSERT INTO refunds (payment_id, split_id, site_id, merchant_transaction_id, amount, currency, description, type_id, status_id, created_at) VALUES (1, NULL, 1, 'x', 1, 'EUR', '', 1, 1, 1)").run()).toThrow(/FOREIGN KEY/);
      expect(() => db.prepare('DELETE FROM refunds WHERE id = 16401').run()).toThrow(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });

  it('gives the catalogue’s methods their entries from the fixtures, leaves others alone, and assigns every method to every site', () => {
    const store = Store.open(file);
    try {
      expect(store.methods.get(29)!.catalogue).toBeNull();
      completeMethodCatalogue(store, readFixtures(DEFAULT_FIXTURES_DIR));
      expect(store.methods.get(29)!.catalogue).toMatchObject({ Countries: expect.arrayContaining(['SE', 'NL']), Currencies: expect.arrayContaining(['EUR']) });
      expect(store.methods.get(4242)!.catalogue).toBeNull();
      expect(store.sites.get(30201)!.methods).toBeNull();
    } finally {
      store.close();
    }
  });

  it('starts a new database’s refund IDs where the real test host’s are', () => {
    const store = Store.open(':memory:');
    try {
      expect(store.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'refunds'").pluck().get()).toBe(16400);
      expect(store.db.prepare("SELECT count(*) FROM sqlite_sequence WHERE name LIKE 'refunds%'").pluck().get()).toBe(1);
    } finally {
      store.close();
    }
  });
});
