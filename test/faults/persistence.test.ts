// Fault rules are kept in the database: they survive a restart with their hits, a notification held
// back by one is still released after a restart, and a database from before faults is brought up to
// date with its notifications whole.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { migrate } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';
import { DUE_HEADS_SQL, NotificationsRepo } from '../../src/store/notifications.repo';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START } from '../helpers/world';
import { AUTH, advance, createPayment, journal, labels, stamp } from '../lifecycle/harness';

describe('fault rules across a restart', () => {
  let dir: string;
  let rx: Receiver;
  const running: Sandbox[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-faults-'));
    rx = await startReceiver();
  });
  afterEach(async () => {
    for (const sb of running.splice(0)) await sb.stop();
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (at: number) => {
    const sb = await startSandbox({ port: 0, cardPort: 0, db: join(dir, 'sandbox.db'), clock: 'manual', startTime: START + at, quiet: true, notifyUrl: rx.url });
    running.push(sb);
    return sb;
  };

  it('are in force again after a restart, with the hits they had', async () => {
    const first = await start(0);
    const rule = first.faults.add({ Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments' }, Action: { Status: 503 }, Times: 3 });
    expect((await request(first.baseUrl).get('/v1/payments').set('Authorization', AUTH)).status).toBe(503);
    await first.stop();
    running.pop();

    const second = await start(1000);
    expect((await request(second.baseUrl).get('/_sandbox/faults')).body).toEqual({ Faults: [{ ...rule, Hits: 1 }] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(second.baseUrl).get('/v1/payments').set('Authorization', AUTH)).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('a notification held back when the sandbox stopped is sent after the restart, once its time has come', async () => {
    const first = await start(0);
    first.faults.add({ Channel: 'notifications', Match: { StatusID: 9 }, Action: { Delay: '5s' } });
    const p = await createPayment(first, { scenario: 'two-step' });
    await advance(first, 2); // held until 7 s
    expect(rx.received).toHaveLength(0);
    await first.stop();
    running.pop();

    const second = await start(10_000);
    await second.notifications.waitFor({ PaymentID: p.ID, StatusID: 9 });
    expect(labels(rx)).toEqual(['P9']);
    expect((await journal(second, p.ID)).map((n: any) => [n.State, n.Delivered, n.Fault])).toEqual([['delivered', stamp(10_000), 'delayed 5s by fault 1']]);
  });
});

describe('migration 7 of a database from before faults', () => {
  it('keeps every notification with its ID, state, queue mark and attempts; lets a notification be dropped', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS.filter((x) => x.version <= 4)) db.exec(m.sql);
    db.pragma('user_version = 4');
    db.exec(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Market');
      INSERT INTO payments (surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, status_id, created_at)
        VALUES ('api', 30201, 30201, 'o-1', 1000, 'EUR', 2, 1000);`);
    const insert = db.prepare(`INSERT INTO notifications (payment_id, site_id, status_id, body, state, next_attempt_at, created_at, behind) VALUES (3005001, 30201, ?, '{}', ?, 1000, 1000, ?)`);
    const a = Number(insert.run(9, 'delivered', 0).lastInsertRowid);
    const b = Number(insert.run(2, 'pending', 0).lastInsertRowid);
    const c = Number(insert.run(2, 'pending', 1).lastInsertRowid);
    db.prepare(`INSERT INTO notification_attempts (notification_id, at, url, http_status, error, duration_ms) VALUES (?, 1000, 'http://x', 204, NULL, 3)`).run(a);
    // A newer notification was deleted: IDs must not be handed out again.
    db.prepare(`UPDATE sqlite_sequence SET seq = 40 WHERE name = 'notifications'`).run();
    const before = db.prepare('SELECT * FROM notifications ORDER BY id').all();

    migrate(db);

    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT * FROM notifications ORDER BY id').all()).toEqual((before as object[]).map((r) => ({ ...r, fault: null, held: 0, clock_site_id: null, preapproval_id: null, payout_id: null })));
    expect(db.prepare('SELECT notification_id FROM notification_attempts').pluck().all()).toEqual([a]);
    const repo = new NotificationsRepo(db);
    expect(repo.dueHeads(1000, 10).map((n) => n.id)).toEqual([b]);
    repo.drop({ id: b, paymentId: 3005001 }, 'dropped by fault 1');
    expect([repo.get(b)!.state, repo.get(b)!.fault]).toEqual(['dropped', 'dropped by fault 1']);
    expect(repo.dueHeads(1000, 10).map((n) => n.id)).toEqual([c]); // the next one heads the queue
    expect(() => db.prepare(`UPDATE notifications SET state = 'lost' WHERE id = ?`).run(c)).toThrow(/CHECK constraint failed/);
    expect(() => db.prepare(`INSERT INTO notification_attempts (notification_id, at, url, duration_ms) VALUES (999, 1, 'u', 1)`).run()).toThrow(/FOREIGN KEY/);
    expect(repo.insert({ paymentId: 3005001, refundId: null, siteId: 30201, statusId: 4, body: '{}', state: 'pending', nextAttemptAt: 1, createdAt: 1 })).toBe(41);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${DUE_HEADS_SQL}`).all({ now: 1, limit: 5, clock: null }) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan).toMatch(/USING COVERING INDEX notifications_due/);
    expect(db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'notifications' ORDER BY name`).pluck().all()).toEqual([
      'notifications_by_payment',
      'notifications_by_payout',
      'notifications_by_preapproval',
      'notifications_by_refund',
      'notifications_by_state',
      'notifications_due',
    ]);
    expect(db.prepare(`SELECT strict FROM pragma_table_list WHERE name IN ('faults', 'notifications') ORDER BY name`).pluck().all()).toEqual([1, 1]);
  });
});
