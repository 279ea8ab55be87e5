// Retention (`--retain`): payments whose last change is older than the period, in sandbox time, go
// with everything that hangs off them; younger ones, and those with a change still to come, stay.
// Manual clock throughout: advancing it runs the job, as it does in a started sandbox.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Sandbox } from '../../src/main';
import { healthResponse } from '../../src/schemas/responses';
import { PRUNED_TABLES } from '../../src/store/retention.repo';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { expectSchema } from '../helpers/world';
import { AUTH, type Rig, advance, boot, createPayment, journal, shutdown } from '../lifecycle/harness';

const DAY = 86_400;
const RETAIN_MS = 7 * DAY * 1000;

/** Every row, in every table that hangs off payments, that belongs to payment `id`. */
function rowsOf(sb: Sandbox, id: number): Record<string, number> {
  const db = sb.services.store.db;
  const n = (sql: string) => (db.prepare(sql).pluck().get(id) as number);
  return {
    payments: n('SELECT count(*) FROM payments WHERE id = ?'),
    splits: n('SELECT count(*) FROM splits WHERE payment_id = ?'),
    refunds: n('SELECT count(*) FROM refunds WHERE payment_id = ?'),
    status_history: n('SELECT count(*) FROM status_history WHERE payment_id = ?'),
    scenario_jobs: n('SELECT count(*) FROM scenario_jobs WHERE payment_id = ?'),
    notifications: n('SELECT count(*) FROM notifications WHERE payment_id = ?'),
    notification_attempts: n(
      'SELECT count(*) FROM notification_attempts WHERE notification_id IN (SELECT id FROM notifications WHERE payment_id = ?)',
    ),
  };
}

const none = { payments: 0, splits: 0, refunds: 0, status_history: 0, scenario_jobs: 0, notifications: 0, notification_attempts: 0 };

/** A two-step payment taken through authorize (scenario), capture and a refund of its first split. */
async function capturedAndRefunded(sb: Sandbox): Promise<number> {
  const p = await createPayment(sb, { scenario: 'two-step' });
  await advance(sb, 2);
  expect((await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH)).status).toBe(200);
  const refund = await request(sb.baseUrl)
    .post(`/v1/payments/${p.ID}/splits/${p.Splits[0].ID}/refunds`)
    .set('Authorization', AUTH)
    .send({ Refund: { Amount: 100 } });
  expect(refund.status).toBe(201);
  await advance(sb, 1); // the refund succeeds
  return p.ID;
}

describe('retention (--retain)', () => {
  let rig: Rig | undefined;
  let tmp: string | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    tmp = undefined;
  });

  it('deletes a payment unchanged for longer than the period, with its splits, refunds, history, steps, notifications and attempts', async () => {
    rig = await boot({ retainMs: RETAIN_MS });
    const { sb, rx } = rig;
    const old = await capturedAndRefunded(sb);
    const rowsBefore = rowsOf(sb, old);
    // Something in every table, so that "nothing left" below means something.
    for (const [table, n] of Object.entries(rowsBefore)) expect([table, n > 0]).toEqual([table, true]);
    expect(rx.received.map((r) => (r.body.Payment ? `P${r.body.Payment.Status.ID}` : `R${r.body.Refund.Status.ID}`))).toEqual(['P9', 'P2', 'R2']);

    await advance(sb, 3 * DAY);
    const young = await capturedAndRefunded(sb);
    // Seven days and a second after the old payment's last change (its refund's success), 3 s after creation.
    await advance(sb, 4 * DAY - 3 + 1);

    expect((await request(sb.baseUrl).get(`/v1/payments/${old}`).set('Authorization', AUTH)).status).toBe(404);
    expect((await request(sb.baseUrl).get(`/_sandbox/payments/${old}`)).status).toBe(404);
    expect(await journal(sb, old)).toEqual([]);
    expect(rowsOf(sb, old)).toEqual(none);
    // The younger one is whole.
    expect((await request(sb.baseUrl).get(`/v1/payments/${young}`).set('Authorization', AUTH)).status).toBe(200);
    expect(rowsOf(sb, young)).toEqual(rowsBefore);
    const list = await request(sb.baseUrl).get('/v1/payments').set('Authorization', AUTH);
    expect(list.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([young]);
    expect(list.body.TotalCount).toBe(1);
  });

  it('counts any change as a change: a refund six days after creation keeps the payment seven days more', async () => {
    rig = await boot({ retainMs: RETAIN_MS });
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'two-step' });
    await advance(sb, 2);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH).expect(200);
    await advance(sb, 6 * DAY);
    await request(sb.baseUrl)
      .post(`/v1/payments/${p.ID}/splits/${p.Splits[0].ID}/refunds`)
      .set('Authorization', AUTH)
      .send({ Refund: { Amount: 100 } })
      .expect(201);
    await advance(sb, 2 * DAY); // 8 days after creation, 2 after the refund
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH)).status).toBe(200);
    await advance(sb, 5 * DAY + 2); // 7 days and a second after the refund's success (1 s after it was made)
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH)).status).toBe(404);
  });

  it('keeps a payment with a change still to come: a scenario step due later than the period', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-retain-'));
    writeFileSync(join(tmp, 'slow-bank.json'), JSON.stringify({ Name: 'slow-bank', Description: 'Open, Success 10 days later.', Steps: [{ After: '240h', Do: 'succeed' }] }));
    rig = await boot({ retainMs: RETAIN_MS, scenarioDirs: [tmp] });
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'slow-bank', overrides: { TokenLifetime: null } });
    await advance(sb, 9 * DAY); // unchanged for 9 days, but its step is pending
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH)).status).toBe(200);
    await advance(sb, 1 * DAY); // the step runs: Success on day 10
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH)).body.Payment.Status.ID).toBe(2);
    await advance(sb, 7 * DAY - 1);
    expect(rowsOf(sb, p.ID).payments).toBe(1);
    await advance(sb, 2);
    expect(rowsOf(sb, p.ID)).toEqual(none);
  });

  it('keeps a payment whose notification is still being retried, and deletes it once given up and old', async () => {
    rig = await boot({ retainMs: 60_000, retry: { baseMs: 30_000, capMs: 30_000, maxAttempts: 5 } });
    const { sb, rx } = rig;
    rx.fallback = 500;
    const p = await createPayment(sb, { scenario: 'two-step' });
    await advance(sb, 2); // authorized; its notification fails, again every 30 s
    await advance(sb, 100); // 3 more attempts: still pending, the last attempt 8 s ago
    expect((await journal(sb, p.ID))[0]).toMatchObject({ State: 'pending' });
    expect(rowsOf(sb, p.ID).payments).toBe(1);
    await advance(sb, 30); // the fifth attempt fails: given up
    expect((await journal(sb, p.ID))[0]).toMatchObject({ State: 'failed' });
    expect(rowsOf(sb, p.ID).payments).toBe(1); // given up 0 s ago
    await advance(sb, 61);
    expect(rowsOf(sb, p.ID)).toEqual(none);
    expect(rx.received).toHaveLength(5); // every attempt reached the receiver, which answered 500
  });

  it('prunes at start: a sandbox started later on the same file drops what aged meanwhile', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-retain-'));
    const db = join(tmp, 'sandbox.db');
    rig = await boot({ db });
    const p = await createPayment(rig.sb, { overrides: { TokenLifetime: null } });
    await advance(rig.sb, 3); // its scenario's steps done: nothing left to come
    await shutdown(rig);
    rig = await boot({ db, retainMs: RETAIN_MS, startTime: rig.sb.clock.now() + 8 * DAY * 1000 });
    await rig.sb.scheduler.jobsSettled();
    expect(rowsOf(rig.sb, p.ID)).toEqual(none);
  });

  it('GET /_sandbox/health adds the number of payments and the database size to its keys', async () => {
    rig = await boot({ retainMs: RETAIN_MS });
    const { sb } = rig;
    const before = await request(sb.baseUrl).get('/_sandbox/health');
    expect(before.status).toBe(200);
    expectSchema(healthResponse, before.body);
    expect(before.body).toMatchObject({ Status: 'ok', BaseURL: sb.baseUrl, CardBaseURL: sb.cardBaseUrl, Payments: 0 });
    const db = sb.services.store.db;
    expect(before.body.DatabaseBytes).toBe((db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number));

    for (let i = 0; i < 3; i++) await createPayment(sb, { overrides: { TokenLifetime: null } });
    const card = await request(sb.cardBaseUrl)
      .post('/v1/payments')
      .set('Authorization', AUTH)
      .send({ Payment: { MerchantTransactionID: 'card-1', Amount: 2000, Currency: 'EUR', Card: { HolderName: 'A', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '123' } } });
    expect(card.status).toBe(201);
    expect((await request(sb.baseUrl).get('/_sandbox/health')).body.Payments).toBe(4);

    await advance(sb, 8 * DAY);
    const after = (await request(sb.baseUrl).get('/_sandbox/health')).body;
    expect(after.Payments).toBe(0);
    expect(after.DatabaseBytes).toBeGreaterThan(0);
  });

  it('without --retain, nothing is deleted however old', async () => {
    rig = await boot();
    const p = await createPayment(rig.sb, { overrides: { TokenLifetime: null } });
    await advance(rig.sb, 300 * DAY);
    expect(rowsOf(rig.sb, p.ID).payments).toBe(1);
  });
});

describe('retention keeps up with the schema', () => {
  let rx: Receiver;
  beforeEach(async () => (rx = await startReceiver()));
  afterEach(() => rx.close());

  it('deletes from every table whose rows hang off payments, children first', async () => {
    const { sb } = await boot({}, rx);
    try {
      const db = sb.services.store.db;
      // Every foreign key of the schema, as (child, parent).
      const edges = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).flatMap((t) =>
        (db.prepare('SELECT "table" AS parent FROM pragma_foreign_key_list(?)').all(t) as { parent: string }[]).map((fk) => [t, fk.parent] as const),
      );
      const hanging = new Set(['payments']);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [child, parent] of edges) if (hanging.has(parent) && !hanging.has(child)) grew = Boolean(hanging.add(child));
      }
      expect([...PRUNED_TABLES].sort()).toEqual([...hanging].sort());
      // A table's rows go before the rows they point at.
      for (const [child, parent] of edges) {
        if (hanging.has(parent)) expect([child, PRUNED_TABLES.indexOf(child as never) < PRUNED_TABLES.indexOf(parent as never)]).toEqual([child, true]);
      }
    } finally {
      await sb.stop();
    }
  });
});
