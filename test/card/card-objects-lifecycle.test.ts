// The card address's new objects keep the sandbox's habits: reset empties them, a snapshot brings them
// back, retention deletes them when old, and fault rules act on their routes.
import request from 'supertest';
import type { Sandbox } from '../../src/main';
import { AUTH, type Rig, advance, boot, shutdown } from '../lifecycle/harness';

const DAY = 86_400;
const CARD = { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' };
const TABLES = ['captures', 'disputes', 'payouts', 'card_authentications'] as const;

/** Row counts of the new tables, and the dispute rows of the history. */
function counts(sb: Sandbox): Record<string, number> {
  const db = sb.services.store.db;
  const n = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    ...Object.fromEntries(TABLES.map((t) => [t, n(`SELECT count(*) FROM ${t}`)])),
    dispute_history: n('SELECT count(*) FROM status_history WHERE dispute_id IS NOT NULL'),
    refunds_from_captures: n('SELECT count(*) FROM refunds WHERE capture_id IS NOT NULL'),
    payout_notifications: n('SELECT count(*) FROM notifications WHERE payout_id IS NOT NULL'),
  };
}

/** One of each: a captured card payment refunded from its capture and disputed, a payout, a card authentication. */
async function oneOfEach(sb: Sandbox, tag: string): Promise<{ paymentId: number; payoutId: number; token: string }> {
  const card = (method: 'get' | 'post', path: string) => request(sb.cardBaseUrl)[method](path).set('Authorization', AUTH);
  const p = (await card('post', '/v1/payments').send({ Payment: { MerchantTransactionID: `life-${tag}`, Amount: 9000, Currency: 'EUR', Capture: false, Card: CARD } }).expect(201)).body.Payment;
  await card('post', `/v1/payments/${p.ID}/capture`).expect(200);
  const captureId = (await card('get', `/v1/payments/${p.ID}/captures`)).body.Captures[0].ID;
  await card('post', `/v1/payments/${p.ID}/refunds`).send({ Refund: { MerchantTransactionID: `life-${tag}-r`, Amount: 100, CaptureID: captureId } }).expect(201);
  await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'dispute' }).expect(200);
  const payout = (await card('post', '/v1/payouts').send({ Payout: { MerchantTransactionID: `life-${tag}-po`, Amount: 1000, Currency: 'EUR', Card: CARD } }).expect(201)).body.Payout;
  const auth = (await card('post', '/v1/card/authenticate').send({ CardAuthentication: { Card: CARD } }).expect(201)).body.CardAuthentication;
  return { paymentId: p.ID, payoutId: payout.ID, token: auth.CreditCardToken.Value };
}

const ONE = { captures: 1, disputes: 1, payouts: 1, card_authentications: 1, dispute_history: 1, refunds_from_captures: 1, payout_notifications: 1 };
const NONE = { captures: 0, disputes: 0, payouts: 0, card_authentications: 0, dispute_history: 0, refunds_from_captures: 0, payout_notifications: 0 };

describe('captures, disputes, payouts and card authentications in the sandbox’s lifecycle', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('a reset empties them; a snapshot restore brings them back as they were', async () => {
    rig = await boot();
    const { sb } = rig;
    const made = await oneOfEach(sb, 'a');
    expect(counts(sb)).toEqual(ONE);
    await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'with-card-objects' }).expect(201);
    await request(sb.baseUrl).post('/_sandbox/reset').expect(200);
    expect(counts(sb)).toEqual(NONE);
    await request(sb.baseUrl).post('/_sandbox/snapshots/with-card-objects/restore').expect(200);
    expect(counts(sb)).toEqual(ONE);
    const read = await request(sb.cardBaseUrl).get(`/v1/payouts/${made.payoutId}`).set('Authorization', AUTH);
    expect(read.status).toBe(200);
    expect((await request(sb.cardBaseUrl).get(`/v1/card/token/${made.token}`).set('Authorization', AUTH)).status).toBe(200);
  });

  it('retention deletes an old card payment with its captures and disputes, and old payouts and card authentications; younger ones stay', async () => {
    rig = await boot({ retainMs: 7 * DAY * 1000 });
    const { sb } = rig;
    await oneOfEach(sb, 'old');
    await advance(sb, 3 * DAY);
    const young = await oneOfEach(sb, 'young');
    expect(counts(sb)).toEqual({ captures: 2, disputes: 2, payouts: 2, card_authentications: 2, dispute_history: 2, refunds_from_captures: 2, payout_notifications: 2 });
    await advance(sb, 4 * DAY + 10);
    expect(counts(sb)).toEqual(ONE);
    expect((await request(sb.cardBaseUrl).get(`/v1/payouts/${young.payoutId}`).set('Authorization', AUTH)).status).toBe(200);
    expect((await request(sb.cardBaseUrl).get(`/v1/payments/${young.paymentId}/captures`).set('Authorization', AUTH)).body.Captures).toHaveLength(1);
  });

  it('fault rules act on the new routes: a 503 on POST /v1/payouts makes no payout; GET /v1/card/token/{token} answers 502; a Path that is no route is refused', async () => {
    rig = await boot();
    const { sb } = rig;
    await request(sb.baseUrl).post('/_sandbox/faults').send({ Channel: 'api', Match: { Method: 'POST', Path: '/v1/payouts' }, Action: { Status: 503 }, Times: 1 }).expect(201);
    const res = await request(sb.cardBaseUrl).post('/v1/payouts').set('Authorization', AUTH).send({ Payout: { MerchantTransactionID: 'f-1', Amount: 1000, Currency: 'EUR', Card: CARD } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ Message: 'An error has occurred.' });
    expect(counts(sb).payouts).toBe(0);
    const again = await request(sb.cardBaseUrl).post('/v1/payouts').set('Authorization', AUTH).send({ Payout: { MerchantTransactionID: 'f-1', Amount: 1000, Currency: 'EUR', Card: CARD } });
    expect(again.status).toBe(201);

    const rule = await request(sb.baseUrl).post('/_sandbox/faults').send({ Channel: 'api', Match: { Path: '/v1/card/token/{token}' }, Action: { Status: 502 } });
    expect(rule.status).toBe(201);
    const token = '0123456789ABCDEF0123456789ABCDEF';
    expect((await request(sb.cardBaseUrl).get(`/v1/card/token/${token}`).set('Authorization', AUTH)).status).toBe(502);
    const refused = await request(sb.baseUrl).post('/_sandbox/faults').send({ Channel: 'api', Match: { Path: '/v1/payouts/{id}/nope' }, Action: { Status: 503 } });
    expect(refused.status).toBe(400);
  });
});
