// The outbox marks the notifications queued behind an older pending one of their payment, so that
// the next one to send is found among the heads alone (a soak slowed down by the minute while those
// queries read past thousands of queued rows).
import Database from 'better-sqlite3';
import { type Db, migrate, openDatabase } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';
import { DUE_HEADS_SQL, EARLIEST_DUE_SQL, NotificationsRepo } from '../../src/store/notifications.repo';

const row = (paymentId: number, at = 1000) => ({
  paymentId,
  refundId: null,
  siteId: 1,
  statusId: 2,
  body: '{}',
  state: 'pending' as const,
  nextAttemptAt: at,
  createdAt: at,
});

function open(): { db: Db; repo: NotificationsRepo } {
  const db = openDatabase(':memory:');
  db.pragma('foreign_keys = OFF'); // rows without their payments and sites
  return { db, repo: new NotificationsRepo(db) };
}

const behind = (db: Db) =>
  Object.fromEntries((db.prepare(`SELECT id, behind FROM notifications WHERE state = 'pending' ORDER BY id`).all() as { id: number; behind: number }[]).map((r) => [r.id, r.behind]));

describe('notification heads', () => {
  test('only the oldest pending notification of a payment heads it; the others wait behind it', () => {
    const { db, repo } = open();
    const a1 = repo.insert(row(1));
    const a2 = repo.insert(row(1));
    const b1 = repo.insert(row(2));
    const a3 = repo.insert(row(1));
    expect(behind(db)).toEqual({ [a1]: 0, [a2]: 1, [b1]: 0, [a3]: 1 });
    expect(repo.dueHeads(1000, 10).map((n) => n.id)).toEqual([a1, b1]);
  });

  test('a head retried later holds back its queue: the earliest due time is that of a head', () => {
    const { repo } = open();
    const a1 = repo.insert(row(1, 1000));
    repo.insert(row(1, 1000));
    const b1 = repo.insert(row(2, 1500));
    repo.markFailedAttempt({ id: a1, paymentId: 1 }, 5000, false);
    expect(repo.earliestDue()).toBe(1500);
    expect(repo.dueHeads(2000, 10).map((n) => n.id)).toEqual([b1]);
    repo.markDelivered({ id: b1, paymentId: 2 }, 2000);
    expect(repo.earliestDue()).toBe(5000);
    expect(repo.dueHeads(4999, 10)).toEqual([]);
  });

  test('when the head is delivered or given up, the next one of its payment heads the queue', () => {
    const { db, repo } = open();
    const a1 = repo.insert(row(1));
    const a2 = repo.insert(row(1));
    const a3 = repo.insert(row(1));
    repo.markDelivered({ id: a1, paymentId: 1 }, 1001);
    expect(behind(db)).toEqual({ [a2]: 0, [a3]: 1 });
    expect(repo.dueHeads(1001, 10).map((n) => n.id)).toEqual([a2]);
    repo.markFailedAttempt({ id: a2, paymentId: 1 }, 9000, true);
    expect(repo.get(a2)!.state).toBe('failed');
    expect(behind(db)).toEqual({ [a3]: 0 });
    expect(repo.dueHeads(1001, 10).map((n) => n.id)).toEqual([a3]);
  });

  test('a redelivered older notification goes first again; the one that headed waits behind it', () => {
    const { db, repo } = open();
    const a1 = repo.insert(row(1));
    const a2 = repo.insert(row(1));
    repo.markFailedAttempt({ id: a1, paymentId: 1 }, 2000, true);
    expect(behind(db)).toEqual({ [a2]: 0 });
    repo.redeliver({ id: a1, paymentId: 1 }, 3000);
    expect(behind(db)).toEqual({ [a1]: 0, [a2]: 1 });
    expect(repo.dueHeads(3000, 10).map((n) => n.id)).toEqual([a1]);
  });

  test('a notification that is not pending (no URL) holds nothing back', () => {
    const { db, repo } = open();
    repo.insert({ ...row(1), state: 'no-url' });
    const a2 = repo.insert(row(1));
    expect(behind(db)).toEqual({ [a2]: 0 });
  });

  test('the due queries read the heads index only, and the journal is read by state through an index', () => {
    const { db } = open();
    const plan = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    for (const due of [plan(DUE_HEADS_SQL, { now: 1, limit: 5, clock: null }), plan(EARLIEST_DUE_SQL, null)]) {
      expect(due).toMatch(/USING COVERING INDEX notifications_due/);
      expect(due).not.toMatch(/SUBQUERY|TEMP B-TREE/);
    }
    expect(plan(`SELECT * FROM notifications WHERE state = ? ORDER BY id LIMIT 500`, 'failed')).toMatch(/USING INDEX notifications_by_state/);
  });

  test('a database from before the mark gets it on migration', () => {
    // Schema 3 as an older sandbox left it (the later migrations not applied), with a queue behind a failing head.
    const db = new Database(':memory:');
    db.pragma('foreign_keys = OFF');
    for (const m of MIGRATIONS.filter((x) => x.version <= 3)) db.exec(m.sql);
    db.pragma('user_version = 3');
    db.pragma('foreign_keys = OFF');
    const insert = db.prepare(`INSERT INTO notifications (payment_id, site_id, status_id, body, state, next_attempt_at, created_at) VALUES (?, 1, 2, '{}', ?, 1000, 1000)`);
    insert.run(1, 'delivered');
    const a2 = Number(insert.run(1, 'pending').lastInsertRowid);
    const a3 = Number(insert.run(1, 'pending').lastInsertRowid);
    const b1 = Number(insert.run(2, 'pending').lastInsertRowid);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(behind(db)).toEqual({ [a2]: 0, [a3]: 1, [b1]: 0 });
    expect(new NotificationsRepo(db).dueHeads(1000, 10).map((n) => n.id)).toEqual([a2, b1]);
  });
});
