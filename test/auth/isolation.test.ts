// Per-site isolation: a site sees only its own payments; another site's payment is a 404 (no leak).
import request from 'supertest';
import type { Express } from 'express';
import { messageResponse } from '../../src/schemas/responses';
import {
  MARKETPLACE,
  PLAIN,
  type World,
  authorizedPayment,
  basic,
  expectSchema,
  makeWorld,
  paymentBody,
  snapshot,
  event,
} from '../helpers/world';

const MARKET_AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const PLAIN_AUTH = basic(PLAIN.SiteID, PLAIN.APIKey);

/** Every API route that names a payment, as `auth` would call it on payment `id` (split `sid`). */
function paymentRoutes(app: Express, id: number, sid: number): [string, () => request.Test][] {
  return [
    ['GET /v1/payments/{id}', () => request(app).get(`/v1/payments/${id}`)],
    ['GET /v1/payments/{id}/', () => request(app).get(`/v1/payments/${id}/`)],
    ['POST capture (no body)', () => request(app).post(`/v1/payments/${id}/capture`)],
    ['POST capture (per split)', () => request(app).post(`/v1/payments/${id}/capture`).send({ Payment: { Splits: [{ ID: sid, Amount: 1 }] } })],
    ['POST cancel', () => request(app).post(`/v1/payments/${id}/cancel`)],
    ['POST split capture', () => request(app).post(`/v1/payments/${id}/splits/${sid}/capture?amount=1`)],
    ['POST refund', () => request(app).post(`/v1/payments/${id}/splits/${sid}/refunds`).send({ Refund: { Amount: 1 } })],
    ['POST add splits', () => request(app).post(`/v1/payments/${id}/splits`).send({ Splits: [{ SiteID: 30202, Amount: 1, MerchantTransactionID: 'x' }] })],
  ];
}

async function expectSameAsUnknown(w: World, auth: string, foreignId: number, sid: number): Promise<void> {
  const unknownId = 987654321;
  const foreign = paymentRoutes(w.api, foreignId, sid);
  const unknown = paymentRoutes(w.api, unknownId, sid);
  for (let i = 0; i < foreign.length; i++) {
    const [name, call] = foreign[i]!;
    const res = await call().set('Authorization', auth);
    const ref = await unknown[i]![1]().set('Authorization', auth);
    expect([name, res.status]).toEqual([name, 404]);
    expectSchema(messageResponse, res.body);
    // The same answer as for an ID that does not exist: nothing tells that the payment is there.
    expect(res.body).toEqual(ref.body);
    expect(JSON.stringify(res.body)).not.toContain(String(foreignId));
  }
}

describe('per-site isolation on the API address', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('hides a plain site\'s payment from the marketplace on every route, and changes nothing', async () => {
    const created = await request(w.api).post('/v1/payments').set('Authorization', PLAIN_AUTH).send(paymentBody({ Splits: undefined }));
    expect(created.status).toBe(201);
    const plainPayment = await event(w, created.body.Payment.ID, 'authorize');
    const before = snapshot(w.store);
    await expectSameAsUnknown(w, MARKET_AUTH, plainPayment.ID, 7001);
    expect(snapshot(w.store)).toBe(before);
    // The owner still sees it, untouched.
    const own = await request(w.api).get(`/v1/payments/${plainPayment.ID}`).set('Authorization', PLAIN_AUTH);
    expect(own.status).toBe(200);
    expect(own.body.Payment.Status.ID).toBe(9);
  });

  it('hides the marketplace\'s payment and its splits from a plain site on every route, and changes nothing', async () => {
    const p = await authorizedPayment(w);
    const before = snapshot(w.store);
    await expectSameAsUnknown(w, PLAIN_AUTH, p.ID, p.Splits[0]!.ID);
    expect(snapshot(w.store)).toBe(before);
    const own = await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', MARKET_AUTH);
    expect(own.body.Payment.Status.ID).toBe(9);
    expect(own.body.Payment.Splits.map((s: { StateDetails: { ID: number } }) => s.StateDetails.ID)).toEqual([9, 9, 9]);
  });

  it('hides a paid marketplace payment from a refund by another site', async () => {
    const created = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', MARKET_AUTH)
      .send(paymentBody({ MethodID: 2 }));
    const paid = await event(w, created.body.Payment.ID, 'succeed');
    const before = snapshot(w.store);
    const res = await request(w.api)
      .post(`/v1/payments/${paid.ID}/splits/${paid.Splits[0]!.ID}/refunds`)
      .set('Authorization', PLAIN_AUTH)
      .send({ Refund: { Amount: 100 } });
    expect(res.status).toBe(404);
    expect(snapshot(w.store)).toBe(before);
  });

  it('lists only the calling site\'s payments', async () => {
    const mine = [];
    for (let i = 0; i < 3; i++) {
      mine.push((await request(w.api).post('/v1/payments').set('Authorization', MARKET_AUTH).send(paymentBody())).body.Payment.ID);
    }
    const theirs = [];
    for (let i = 0; i < 2; i++) {
      theirs.push((await request(w.api).post('/v1/payments').set('Authorization', PLAIN_AUTH).send(paymentBody({ Splits: undefined }))).body.Payment.ID);
    }
    const market = await request(w.api).get('/v1/payments').set('Authorization', MARKET_AUTH);
    expect(market.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([...mine].reverse());
    expect(market.body.TotalCount).toBe(3);
    const plain = await request(w.api).get('/v1/payments/').set('Authorization', PLAIN_AUTH);
    expect(plain.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([...theirs].reverse());
    expect(plain.body.TotalCount).toBe(2);
    // A filter naming the other site's payment finds nothing.
    const other = await request(w.api).get(`/v1/payments?merchantTransactionID=${encodeURIComponent(
      (await request(w.api).get(`/v1/payments/${theirs[0]}`).set('Authorization', PLAIN_AUTH)).body.Payment.MerchantTransactionID,
    )}`).set('Authorization', MARKET_AUTH);
    expect(other.body.TotalCount).toBe(0);
  });

  it('keeps MerchantTransactionIDs per site: two sites may use the same one', async () => {
    const a = await request(w.api).post('/v1/payments').set('Authorization', MARKET_AUTH).send(paymentBody({ MerchantTransactionID: 'same-ref' }));
    const b = await request(w.api).post('/v1/payments').set('Authorization', PLAIN_AUTH).send(paymentBody({ MerchantTransactionID: 'same-ref', Splits: undefined }));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const l = await request(w.api).get('/v1/payments?merchantTransactionID=same-ref').set('Authorization', PLAIN_AUTH);
    expect(l.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([b.body.Payment.ID]);
  });

  it('does not let a plain site put splits on sites linked to the marketplace', async () => {
    const before = snapshot(w.store);
    const res = await request(w.api).post('/v1/payments').set('Authorization', PLAIN_AUTH).send(paymentBody());
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([
      { Code: 2, Info: expect.stringMatching(/^Payment\.Splits\[0\]\.SiteID is invalid/) },
      { Code: 2, Info: expect.stringMatching(/^Payment\.Splits\[1\]\.SiteID is invalid/) },
      { Code: 2, Info: expect.stringMatching(/^Payment\.Splits\[2\]\.SiteID is invalid/) },
    ]);
    expect(snapshot(w.store)).toBe(before);
  });
});

describe('per-site isolation on the card address', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const cardBody = (mtid: string) => ({
    Payment: {
      MerchantTransactionID: mtid,
      Amount: 2000,
      Currency: 'EUR',
      Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '312' },
    },
  });

  it('hides one site\'s card payment from another site, on get and list', async () => {
    const plainCard = await request(w.card).post('/v1/payments').set('Authorization', PLAIN_AUTH).send(cardBody('c-1'));
    expect(plainCard.status).toBe(201);
    const marketCard = await request(w.card).post('/v1/payments').set('Authorization', MARKET_AUTH).send(cardBody('c-1'));
    expect(marketCard.status).toBe(201);
    const unknown = await request(w.card).get('/v1/payments/987654321').set('Authorization', MARKET_AUTH);

    const foreign = await request(w.card).get(`/v1/payments/${plainCard.body.Payment.ID}`).set('Authorization', MARKET_AUTH);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expectSchema(messageResponse, foreign.body);
    const foreign2 = await request(w.card).get(`/v1/payments/${marketCard.body.Payment.ID}/`).set('Authorization', PLAIN_AUTH);
    expect(foreign2.status).toBe(404);

    const marketList = await request(w.card).get('/v1/payments').set('Authorization', MARKET_AUTH);
    expect(marketList.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([marketCard.body.Payment.ID]);
    const plainList = await request(w.card).get('/v1/payments?limit=10&offset=0').set('Authorization', PLAIN_AUTH);
    expect(plainList.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([plainCard.body.Payment.ID]);
  });

  it('keeps the two addresses apart: a card payment is a 404 on the API address and an API payment on the card address', async () => {
    const card = await request(w.card).post('/v1/payments').set('Authorization', MARKET_AUTH).send(cardBody('c-2'));
    const api = await request(w.api).post('/v1/payments').set('Authorization', MARKET_AUTH).send(paymentBody());
    expect((await request(w.api).get(`/v1/payments/${card.body.Payment.ID}`).set('Authorization', MARKET_AUTH)).status).toBe(404);
    expect((await request(w.api).post(`/v1/payments/${card.body.Payment.ID}/cancel`).set('Authorization', MARKET_AUTH)).status).toBe(404);
    expect((await request(w.api).post(`/v1/payments/${card.body.Payment.ID}/capture`).set('Authorization', MARKET_AUTH)).status).toBe(404);
    expect((await request(w.card).get(`/v1/payments/${api.body.Payment.ID}`).set('Authorization', MARKET_AUTH)).status).toBe(404);
  });
});
