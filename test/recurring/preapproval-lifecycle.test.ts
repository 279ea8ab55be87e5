// Preapprovals live as payments do: retention deletes old ones with their rows, a reset empties
// them (IDs go on), a snapshot brings them back with their pending steps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startReceiver } from '../helpers/receiver';
import { START } from '../helpers/world';
import type { Sandbox } from '../../src/main';
import { AUTH, type Rig, advance, boot, shutdown } from '../lifecycle/harness';

const DAY = 86_400;

const body = (mpid: string) => ({
  Preapproval: { MerchantPreapprovalID: mpid, MethodID: 2, ReturnURL: 'https://shop.example/return', Description: 'subscription', Customer: { Email: 'a@example.com' }, BillingAddress: { Country: 'NL' } },
});

async function create(sb: Sandbox, mpid: string, scenario?: string) {
  let r = request(sb.baseUrl).post('/v1/preapprovals').set('Authorization', AUTH);
  if (scenario) r = r.set('X-Sandbox-Scenario', scenario);
  const res = await r.send(body(mpid));
  expect(res.status).toBe(201);
  return res.body.Preapproval;
}

/** Rows of preapproval `id` in every table that holds its rows. */
function rowsOf(sb: Sandbox, id: number): Record<string, number> {
  const db = sb.services.store.db;
  const n = (sql: string) => db.prepare(sql).pluck().get(id) as number;
  return {
    preapprovals: n('SELECT count(*) FROM preapprovals WHERE id = ?'),
    status_history: n('SELECT count(*) FROM status_history WHERE preapproval_id = ?'),
    scenario_jobs: n('SELECT count(*) FROM scenario_jobs WHERE preapproval_id = ?'),
    notifications: n('SELECT count(*) FROM notifications WHERE preapproval_id = ?'),
    notification_attempts: n('SELECT count(*) FROM notification_attempts WHERE notification_id IN (SELECT id FROM notifications WHERE preapproval_id = ?)'),
  };
}

describe('preapprovals over time', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('retention deletes an unchanged preapproval with its rows; one with a recurring payment kept stays', async () => {
    rig = await boot({ seed: 42, retainMs: 7 * DAY * 1000 });
    const { sb } = rig;
    const old = await create(sb, 'old');
    const charged = await create(sb, 'charged');
    await advance(sb, 2);
    expect(rowsOf(sb, old.ID)).toEqual({ preapprovals: 1, status_history: 2, scenario_jobs: 1, notifications: 1, notification_attempts: 1 });
    // Charged on day 5: the payment is younger than the period when the preapprovals are not.
    await advance(sb, 5 * DAY);
    const pay = await request(sb.baseUrl).post('/v1/payments/recurrent').set('Authorization', AUTH)
      .send({ Payment: { PreapprovalID: charged.ID, MerchantTransactionID: 'm1', Amount: 100, Currency: 'EUR', Customer: { Email: 'a@example.com' } } });
    expect(pay.status).toBe(201);
    // Both last changed at 2 s (opened, notified): kept until the cutoff passes that.
    await advance(sb, 2 * DAY - 1);
    expect(rowsOf(sb, old.ID).preapprovals).toBe(1);
    await advance(sb, 2);
    expect(rowsOf(sb, old.ID)).toEqual({ preapprovals: 0, status_history: 0, scenario_jobs: 0, notifications: 0, notification_attempts: 0 });
    expect(rowsOf(sb, charged.ID).preapprovals).toBe(1);
    // Its payment goes 7 days after it was made, and the preapproval in the same run, after it.
    await advance(sb, 5 * DAY);
    expect(sb.services.store.payments.getAny(pay.body.Payment.ID)).toBeUndefined();
    expect(rowsOf(sb, charged.ID).preapprovals).toBe(0);
  });

  it('a reset empties them and IDs go on; a snapshot brings one back Pending with its step, which then runs once', async () => {
    rig = await boot({ seed: 42 });
    const { sb, rx } = rig;
    const a = await create(sb, 'a');
    expect((await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'pending' })).status).toBe(201);
    await advance(sb, 2);
    expect(rx.received.map((r) => r.body.Preapproval.Status.ID)).toEqual([2]);
    expect((await request(sb.baseUrl).post('/_sandbox/snapshots/pending/restore')).status).toBe(200);
    expect(sb.services.store.preapprovals.getAny(a.ID)!.statusId).toBe(1);
    await advance(sb, 2);
    expect(rx.received.map((r) => r.body.Preapproval.Status.ID)).toEqual([2, 2]);
    expect(sb.services.store.preapprovals.getAny(a.ID)!.statusId).toBe(2);

    expect((await request(sb.baseUrl).post('/_sandbox/reset')).status).toBe(200);
    expect((await request(sb.baseUrl).get('/v1/preapprovals').set('Authorization', AUTH)).body).toEqual({ Preapprovals: [] });
    expect(rowsOf(sb, a.ID)).toEqual({ preapprovals: 0, status_history: 0, scenario_jobs: 0, notifications: 0, notification_attempts: 0 });
    const b = await create(sb, 'a');
    expect(b.ID).toBe(a.ID + 1);
  });

  it('a step due while the sandbox was stopped runs at the next start, with its notification', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-preapproval-'));
    const rx = await startReceiver();
    try {
      const db = join(dir, 'sandbox.db');
      const first = (await boot({ db, startTime: START }, rx)).sb;
      const p = await create(first, 'resumed');
      await first.stop();
      const second = (await boot({ db, startTime: START + 10_000 }, rx)).sb;
      rig = { sb: second, rx };
      const waited = await request(second.baseUrl).get(`/_sandbox/notifications/wait?PreapprovalID=${p.ID}&StatusID=2&TimeoutMs=5000`);
      expect(waited.status).toBe(200);
      expect(rx.received.map((r) => [r.body.Preapproval.ID, r.body.Preapproval.Status.Info])).toEqual([[p.ID, 'Open']]);
      expect((await request(second.baseUrl).get(`/_sandbox/preapprovals/${p.ID}`)).body.Steps).toMatchObject([{ Action: 'open', State: 'done', Ran: '20260115100010' }]);
    } finally {
      await rig?.sb.stop();
      rig = undefined;
      await rx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
