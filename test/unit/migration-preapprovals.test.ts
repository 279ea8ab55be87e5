// Migration 13: status history, scenario steps and notifications name their object by kind (a payment
// or a preapproval). A database of an older sandbox keeps every row, column and ID sequence.
import Database from 'better-sqlite3';
import { migrate } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';

describe('migration 13 (preapprovals)', () => {
  it('keeps the rows of the three tables it rebuilds, their columns and sequences, and lets a preapproval own rows', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS.filter((x) => x.version <= 10)) {
      db.exec(m.sql);
      m.up?.(db);
    }
    db.pragma('user_version = 10');
    db.exec(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Market');
      INSERT INTO payments (surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, status_id, created_at)
        VALUES ('api', 30201, 30201, 'o-1', 1000, 'EUR', 9, 1000);
      INSERT INTO status_history (payment_id, status_id, at, cause) VALUES (3005001, 1, 1000, 'created'), (3005001, 9, 2000, 'scenario');
      INSERT INTO scenario_jobs (payment_id, step_index, action, due_at, state, planned_due_at) VALUES (3005001, 0, 'authorize', 2000, 'done', 1500);
      INSERT INTO notifications (payment_id, site_id, status_id, body, state, next_attempt_at, created_at, behind, fault, held)
        VALUES (3005001, 30201, 9, '{}', 'pending', 2000, 2000, 0, 'delayed 5s by fault 1', 1);
      UPDATE sqlite_sequence SET seq = 90 WHERE name = 'notifications';`);
    const before = Object.fromEntries(['status_history', 'scenario_jobs', 'notifications'].map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()]));

    migrate(db);

    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    for (const [t, rows] of Object.entries(before)) {
      // The columns it had, and its preapproval_id (later migrations may add others).
      const columns = [...Object.keys((rows as object[])[0]!), 'preapproval_id'].join(', ');
      expect(db.prepare(`SELECT ${columns} FROM ${t} ORDER BY id`).all()).toEqual((rows as object[]).map((r) => ({ ...r, preapproval_id: null })));
    }
    expect(db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'notifications'`).pluck().get()).toBe(90);
    // A preapproval's rows name no payment; a row of no preapproval is refused by the reference.
    db.exec(`INSERT INTO preapprovals (owner_site_id, merchant_preapproval_id, method_id, status_id, created_at) VALUES (30201, 'p-1', 2, 1, 3000);
      INSERT INTO status_history (preapproval_id, status_id, at, cause) VALUES (4201, 1, 3000, 'created');`);
    expect(db.prepare('SELECT payment_id, preapproval_id FROM status_history WHERE preapproval_id IS NOT NULL').all()).toEqual([{ payment_id: null, preapproval_id: 4201 }]);
    expect(() => db.exec(`INSERT INTO notifications (preapproval_id, site_id, status_id, body, state, next_attempt_at, created_at) VALUES (999, 30201, 2, '{}', 'pending', 1, 1)`)).toThrow(/FOREIGN KEY/);
    db.close();
  });
});
