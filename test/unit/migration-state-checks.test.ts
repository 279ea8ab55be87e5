// Migration 22: the state constraints of scenario steps and notifications become comparisons joined
// by OR. A database of an older sandbox keeps every row, index and ID sequence, and the same states
// are allowed and refused as before.
import Database from 'better-sqlite3';
import { migrate } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';

const TABLES = ['scenario_jobs', 'notifications'] as const;
const STATES = {
  scenario_jobs: ['pending', 'done', 'skipped'],
  notifications: ['pending', 'delivered', 'failed', 'no-url', 'dropped'],
} as const;

const indexesOf = (db: Database.Database, t: string) =>
  db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? ORDER BY name`).all(t);
const seqOf = (db: Database.Database, t: string) => db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = ?`).pluck().all(t);

/** A schema-21 database with a payment, its steps and notifications (one with a delivery attempt). */
function olderDatabase(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, 21);
  expect(db.pragma('user_version', { simple: true })).toBe(21);
  db.exec(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Market');
    INSERT INTO payments (surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, status_id, created_at)
      VALUES ('api', 30201, 30201, 'o-1', 1000, 'EUR', 9, 1000);
    INSERT INTO scenario_jobs (payment_id, step_index, action, due_at, state, outcome, ran_at, planned_due_at, clock_site_id)
      VALUES (3005001, 0, 'authorize', 2000, 'done', 'authorized', 2000, 1500, 30201),
             (3005001, 1, 'capture', 3000, 'skipped', 'skipped: no', 3000, NULL, NULL),
             (3005001, 2, 'refund', 9000, 'pending', NULL, NULL, NULL, 30201);
    INSERT INTO notifications (payment_id, site_id, status_id, body, state, next_attempt_at, created_at, behind, fault, held, clock_site_id)
      VALUES (3005001, 30201, 9, '{"a":1}', 'delivered', 2000, 2000, 0, NULL, 0, 30201),
             (3005001, 30201, 4, '{"b":2}', 'pending', 5000, 3000, 0, 'delayed 5s by fault 1', 1, NULL),
             (3005001, 30201, 6, '{}', 'pending', 5000, 3000, 1, NULL, 0, NULL),
             (3005001, 30201, 7, '{}', 'no-url', 3000, 3000, 0, NULL, 0, NULL),
             (3005001, 30201, 8, '{}', 'failed', 3000, 3000, 0, NULL, 0, NULL),
             (3005001, 30201, 9, '{}', 'dropped', 3000, 3000, 0, 'dropped by fault 2', 0, NULL);
    INSERT INTO notification_attempts (notification_id, at, url, http_status, duration_ms) VALUES (1, 2000, 'http://x', 200, 3);`);
  return db;
}

describe('migration 22 (state checks)', () => {
  it('keeps the rows, indexes and ID sequences of the two tables it rebuilds, and their references', () => {
    const db = olderDatabase();
    // Newer rows were deleted: their IDs must not be handed out again.
    db.exec(`UPDATE sqlite_sequence SET seq = 40 WHERE name = 'scenario_jobs'; UPDATE sqlite_sequence SET seq = 90 WHERE name = 'notifications';`);
    const rows = Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()]));
    const indexes = Object.fromEntries(TABLES.map((t) => [t, indexesOf(db, t)]));

    migrate(db);

    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    for (const t of TABLES) {
      expect(db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()).toEqual(rows[t]);
      expect(indexesOf(db, t)).toEqual(indexes[t]);
    }
    expect(seqOf(db, 'scenario_jobs')).toEqual([40]);
    expect(seqOf(db, 'notifications')).toEqual([90]);
    expect(db.prepare(`SELECT strict FROM pragma_table_list WHERE name IN ('scenario_jobs', 'notifications')`).pluck().all()).toEqual([1, 1]);
    expect(db.prepare('SELECT notification_id FROM notification_attempts').pluck().all()).toEqual([1]);
    expect(() => db.exec(`INSERT INTO notification_attempts (notification_id, at, url, duration_ms) VALUES (999, 1, 'u', 1)`)).toThrow(/FOREIGN KEY/);
    expect(() => db.exec(`INSERT INTO scenario_jobs (payment_id, step_index, action, due_at, state) VALUES (999, 0, 'authorize', 1, 'pending')`)).toThrow(/FOREIGN KEY/);
    expect(db.prepare(`INSERT INTO scenario_jobs (payment_id, step_index, action, due_at, state) VALUES (3005001, 3, 'settle', 1, 'pending')`).run().lastInsertRowid).toBe(41);
    expect(db.prepare(`INSERT INTO notifications (payment_id, site_id, status_id, body, state, next_attempt_at, created_at) VALUES (3005001, 30201, 9, '{}', 'pending', 1, 1)`).run().lastInsertRowid).toBe(91);
    db.close();
  });

  it('keeps the sequence of a table whose rows were all deleted', () => {
    const db = olderDatabase();
    db.exec(`DELETE FROM notification_attempts; DELETE FROM notifications; DELETE FROM scenario_jobs;
      UPDATE sqlite_sequence SET seq = 70 WHERE name IN ('scenario_jobs', 'notifications');`);

    migrate(db);

    expect(seqOf(db, 'scenario_jobs')).toEqual([70]);
    expect(seqOf(db, 'notifications')).toEqual([70]);
    expect(db.prepare(`INSERT INTO scenario_jobs (payment_id, step_index, action, due_at, state) VALUES (3005001, 0, 'authorize', 1, 'pending')`).run().lastInsertRowid).toBe(71);
    db.close();
  });

  it('allows and refuses the same states as before, on insert and on update', () => {
    const older = olderDatabase();
    const newer = olderDatabase();
    migrate(newer);
    const tries = ['', 'lost', 'PENDING', 'pending ', 'done', 'skipped', 'delivered', 'failed', 'no-url', 'dropped', 'pending'];
    for (const db of [older, newer]) db.exec(`DELETE FROM notification_attempts`);
    for (const t of TABLES) {
      const outcome = (db: Database.Database) =>
        tries.map((state) => {
          const insert =
            t === 'scenario_jobs'
              ? `INSERT INTO scenario_jobs (payment_id, step_index, action, due_at, state) VALUES (3005001, 9, 'x', 1, ?)`
              : `INSERT INTO notifications (payment_id, site_id, status_id, body, state, next_attempt_at, created_at) VALUES (3005001, 30201, 9, '{}', ?, 1, 1)`;
          const attempt = (sql: string, ...args: unknown[]) => {
            try {
              db.prepare(sql).run(...args);
              return 'ok';
            } catch (e) {
              return (e as Error).message.replace(/:.*/, '');
            }
          };
          return [attempt(insert, state), attempt(`UPDATE ${t} SET state = ? WHERE id = 1`, state)];
        });
      const before = outcome(older);
      expect(outcome(newer)).toEqual(before);
      // Each allowed state is taken, every other refused, NULL too.
      expect(before.map(([insert]) => insert)).toEqual(tries.map((s) => ((STATES[t] as readonly string[]).includes(s) ? 'ok' : 'CHECK constraint failed')));
      expect(() => newer.prepare(`UPDATE ${t} SET state = NULL WHERE id = 1`).run()).toThrow(/NOT NULL/);
    }
    older.close();
    newer.close();
  });
});
