// A marketplace's snapshot file edited to reach another marketplace: a fault rule whose Match names
// another SiteID or payment, a step or a notification on another's payment (through a preapproval of
// its own), a step on another's clock. Each is refused with 400 and nothing changes, for either.
import { mkdtempSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { MARKETPLACE_TABLES, OWNED_TABLES, ownedRows } from '../../src/store/owned';
import { AUTH } from '../lifecycle/harness';
import { START, basic } from '../helpers/world';
import { payAs } from './pay';

interface Made {
  SiteID: number;
  LinkedSiteIDs: number[];
  auth: string;
}

describe("a restored marketplace copy is checked for every reference it makes", () => {
  let sb: Sandbox;
  let dir: string;
  let db: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'copy-references-'));
    db = join(dir, 'sandbox.db');
    sb = await startSandbox({ port: 0, cardPort: 0, db, clock: 'manual', startTime: START, seed: 17, quiet: true, scenario: 'two-step' });
  });
  afterEach(async () => {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const make = async (): Promise<Made> => {
    const res = await request(sb.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 1, Clock: 'manual' });
    expect(res.status).toBe(201);
    const m = res.body.Merchant;
    return { SiteID: m.SiteID, LinkedSiteIDs: m.LinkedSiteIDs, auth: basic(m.SiteID, m.APIKey) };
  };
  const rowsOf = (m: Made) =>
    Object.fromEntries(
      [...OWNED_TABLES, ...MARKETPLACE_TABLES].map((t) => [t.table, sb.services.store.db.prepare(`SELECT * FROM ${t.table} WHERE ${ownedRows(t)} ORDER BY rowid`).all({ site: m.SiteID })]),
    );
  const call = (m: Made, method: 'get' | 'post', path: string) => request(sb.baseUrl)[method](`/_sandbox/merchants/${m.SiteID}${path}`).set('Authorization', m.auth);
  const statusOf = async (m: Made, id: number) => {
    const res = await request(sb.baseUrl).get(`/v1/payments/${id}`).set('Authorization', m.auth);
    expect(res.status).toBe(200);
    return res.body.Payment.Status.ID as number;
  };

  it('refuses each edit with 400 naming the row; neither marketplace changes, and A’s next advance leaves B’s payment alone', async () => {
    const a = await make();
    const b = await make();
    // One payment authorized (a notification of it), one with its step still to come.
    await payAs(sb.baseUrl, a.auth, a.LinkedSiteIDs[0], 1);
    await call(a, 'post', '/clock/advance').send({ Seconds: 2 }).expect(200);
    await payAs(sb.baseUrl, a.auth, a.LinkedSiteIDs[0], 2);
    const pre = await request(sb.baseUrl)
      .post('/v1/preapprovals')
      .set('Authorization', a.auth)
      .send({ Preapproval: { MerchantPreapprovalID: 'sub-1', MethodID: 2, ReturnURL: 'https://shop.example/return', Description: 'subscription', Customer: { Email: 'a@example.com' }, BillingAddress: { Country: 'NL' } } });
    expect(pre.status).toBe(201);
    const preapprovalOfA = pre.body.Preapproval.ID as number;
    await call(a, 'post', '/faults').send({ Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments/{id}' }, Action: { Status: 503 } }).expect(201);
    const paymentOfB = (await payAs(sb.baseUrl, b.auth, b.LinkedSiteIDs[0], 1)).ID;
    await call(a, 'post', '/snapshots').send({ Name: 'good' }).expect(201);

    const folder = join(`${db}.merchant-snapshots`, String(a.SiteID));
    const edited = (name: string, sql: string) => {
      copyFileSync(join(folder, 'good.db'), join(folder, `${name}.db`));
      const file = new Database(join(folder, `${name}.db`));
      try {
        file.exec(sql);
      } finally {
        file.close();
      }
    };
    const jobs = new Database(join(folder, 'good.db'), { readonly: true });
    expect(jobs.prepare('SELECT count(*) FROM scenario_jobs').pluck().get()).toBeGreaterThan(0);
    expect(jobs.prepare('SELECT count(*) FROM notifications').pluck().get()).toBeGreaterThan(0);
    jobs.close();
    // A row of the copy's own, moved onto B's payment (the copy's tables have no keys of their own).
    const moved = (table: string, id: number, set: string) =>
      `CREATE TEMP TABLE moved AS SELECT * FROM ${table} WHERE payment_id IS NOT NULL LIMIT 1; UPDATE moved SET id = ${id}, ${set};
       INSERT INTO ${table} SELECT * FROM moved; DROP TABLE moved;`;
    const stepOnB = moved('scenario_jobs', 990001, `payment_id = ${paymentOfB}, preapproval_id = ${preapprovalOfA}`);
    edited('rule-names-b', `UPDATE faults SET match_json = json_set(match_json, '$.SiteID', ${b.SiteID})`);
    edited('rule-for-everyone', `UPDATE faults SET match_json = json_remove(match_json, '$.SiteID')`);
    edited('rule-on-b-payment', `UPDATE faults SET match_json = json_set(match_json, '$.PaymentID', ${paymentOfB})`);
    edited('step-on-b', stepOnB);
    edited('step-on-b-clock', `UPDATE scenario_jobs SET clock_site_id = ${b.SiteID}`);
    edited('notification-on-b', moved('notifications', 990002, `payment_id = ${paymentOfB}`));

    const aRows = rowsOf(a);
    const bRows = rowsOf(b);
    for (const [name, why] of [
      ['rule-names-b', `has a Match.SiteID that is not one of SiteID ${a.SiteID}'s`],
      ['rule-for-everyone', `has a Match.SiteID that is not one of SiteID ${a.SiteID}'s`],
      ['rule-on-b-payment', `has a Match.PaymentID that is another marketplace's payment`],
      ['step-on-b', `scenario_jobs: row id 990001 names in payment_id a row of payments that is not in the copy`],
      ['step-on-b-clock', `names in clock_site_id a site that is not of SiteID ${a.SiteID}`],
      ['notification-on-b', `notifications: row id 990002 names in payment_id a row of payments that is not in the copy`],
    ]) {
      const res = await call(a, 'post', `/snapshots/${name}/restore`);
      expect([name, res.status]).toEqual([name, 400]);
      expect(res.body.Message).toContain(`Snapshot ${name} cannot be restored: `);
      expect([name, res.body.Message]).toEqual([name, expect.stringContaining(why)]);
      expect(rowsOf(a)).toEqual(aRows);
      expect(rowsOf(b)).toEqual(bRows);
    }
    // B is answered, and A's next advance does nothing to B's payment.
    expect(await statusOf(b, paymentOfB)).toBe(1);
    await call(a, 'post', '/clock/advance').send({ Seconds: 3600 }).expect(200);
    expect(await statusOf(b, paymentOfB)).toBe(1);
    expect(rowsOf(b)).toEqual(bRows);
    // The untouched copy still restores.
    expect((await call(a, 'post', '/snapshots/good/restore')).status).toBe(200);
  });

  it('restores a copy whose rows point at each other every way a marketplace makes them: card objects, split refunds, recurring payments', async () => {
    const site = sb.merchant.SiteID;
    const card = (method: 'get' | 'post', path: string) => request(sb.cardBaseUrl)[method](path).set('Authorization', AUTH);
    const CARD = { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' };
    const p = (await card('post', '/v1/payments').send({ Payment: { MerchantTransactionID: 'card-1', Amount: 9000, Currency: 'EUR', Capture: false, Card: CARD } }).expect(201)).body.Payment;
    await card('post', `/v1/payments/${p.ID}/capture`).expect(200);
    const captureId = (await card('get', `/v1/payments/${p.ID}/captures`)).body.Captures[0].ID;
    await card('post', `/v1/payments/${p.ID}/refunds`).send({ Refund: { MerchantTransactionID: 'card-1-r', Amount: 100, CaptureID: captureId } }).expect(201);
    await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'dispute' }).expect(200);
    await card('post', '/v1/payouts').send({ Payout: { MerchantTransactionID: 'card-1-po', Amount: 1000, Currency: 'EUR', Card: CARD } }).expect(201);
    await card('post', '/v1/card/authenticate').send({ CardAuthentication: { Card: CARD } }).expect(201);
    const split = await payAs(sb.baseUrl, AUTH, sb.merchant.LinkedSiteIDs[0], 7);
    await request(sb.baseUrl).post(`/_sandbox/payments/${split.ID}/events`).send({ Event: 'authorize' }).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${split.ID}/capture`).set('Authorization', AUTH).expect(200);
    const pre = await request(sb.baseUrl)
      .post('/v1/preapprovals')
      .set('Authorization', AUTH)
      .send({ Preapproval: { MerchantPreapprovalID: 'sub-1', MethodID: 2, ReturnURL: 'https://shop.example/return', Description: 'subscription', Customer: { Email: 'a@example.com' }, BillingAddress: { Country: 'NL' } } })
      .expect(201);
    await request(sb.baseUrl).post(`/_sandbox/preapprovals/${pre.body.Preapproval.ID}/events`).send({ Event: 'open' }).expect(200);
    await request(sb.baseUrl)
      .post('/v1/payments/recurrent')
      .set('Authorization', AUTH)
      .send({ Payment: { PreapprovalID: pre.body.Preapproval.ID, MerchantTransactionID: 'sub-1-m2', Amount: 1000, Currency: 'EUR', Customer: { Email: 'a@example.com' } } })
      .expect(201);
    await request(sb.baseUrl).post(`/_sandbox/merchants/${site}/faults`).send({ Channel: 'notifications', Match: { PaymentID: split.ID }, Action: { Drop: true } }).expect(201);
    const m = { SiteID: site, LinkedSiteIDs: sb.merchant.LinkedSiteIDs, auth: AUTH };
    const before = rowsOf(m);
    for (const t of ['captures', 'disputes', 'payouts', 'card_authentications', 'refunds', 'preapprovals', 'faults']) expect([t, before[t]!.length]).not.toEqual([t, 0]);
    await request(sb.baseUrl).post(`/_sandbox/merchants/${site}/snapshots`).send({ Name: 'everything' }).expect(201);
    await request(sb.baseUrl).post(`/_sandbox/merchants/${site}/reset`).expect(200);
    expect((await request(sb.baseUrl).post(`/_sandbox/merchants/${site}/snapshots/everything/restore`)).status).toBe(200);
    expect(rowsOf(m)).toEqual(before);
  });

  it("refuses a marketplace's fault rule on another marketplace's payment", async () => {
    const a = await make();
    const b = await make();
    const paymentOfB = (await payAs(sb.baseUrl, b.auth, b.LinkedSiteIDs[0], 1)).ID;
    const res = await call(a, 'post', '/faults').send({ Channel: 'api', Match: { PaymentID: paymentOfB }, Action: { Status: 503 } });
    expect(res.status).toBe(400);
    expect(res.body.Message).toBe(`Match.PaymentID: a marketplace's rule acts on its own payments only (${paymentOfB} is not SiteID ${a.SiteID}'s)`);
    expect((await call(a, 'get', '/faults')).body.Faults).toEqual([]);
  });
});
