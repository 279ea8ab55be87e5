// 404s: unknown, foreign, malformed and out-of-range payment and split IDs. Body {"Message": ...}.
import request from 'supertest';
import { messageResponse } from '../../src/schemas/responses';
import {
  MARKETPLACE,
  PLAIN,
  type WirePayment,
  type World,
  authorizedPayment,
  basic,
  createPayment,
  event,
  expectSchema,
  paymentBody,
  snapshot,
} from '../helpers/world';
import { keptWorld } from '../helpers/kept-world';

const PLAIN_AUTH = basic(PLAIN.SiteID, PLAIN.APIKey);
const MARKET_AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

type Call = { name: string; send: (w: World, auth: string, id: string, splitId: string) => request.Test };

/** Every endpoint that names a payment. */
const PAYMENT_CALLS: Call[] = [
  { name: 'GET /v1/payments/{id}', send: (w, a, id) => request(w.api).get(`/v1/payments/${id}`).set('Authorization', a) },
  {
    name: 'POST /v1/payments/{id}/splits',
    send: (w, a, id) =>
      request(w.api)
        .post(`/v1/payments/${id}/splits`)
        .set('Authorization', a)
        .send({ Splits: [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 'x' }] }),
  },
  { name: 'POST /v1/payments/{id}/capture', send: (w, a, id) => request(w.api).post(`/v1/payments/${id}/capture`).set('Authorization', a) },
  {
    name: 'POST /v1/payments/{id}/capture (per split)',
    send: (w, a, id, sid) =>
      request(w.api)
        .post(`/v1/payments/${id}/capture`)
        .set('Authorization', a)
        .send({ Payment: { Splits: [{ ID: Number(sid) || 1, Amount: 1 }] } }),
  },
  {
    name: 'POST /v1/payments/{id}/splits/{splitId}/capture',
    send: (w, a, id, sid) => request(w.api).post(`/v1/payments/${id}/splits/${sid}/capture?amount=1`).set('Authorization', a),
  },
  { name: 'POST /v1/payments/{id}/cancel', send: (w, a, id) => request(w.api).post(`/v1/payments/${id}/cancel`).set('Authorization', a) },
  {
    name: 'POST /v1/payments/{id}/splits/{splitId}/refunds',
    send: (w, a, id, sid) =>
      request(w.api)
        .post(`/v1/payments/${id}/splits/${sid}/refunds`)
        .set('Authorization', a)
        .send({ Refund: { Amount: 1 } }),
  },
];

/** Every endpoint that names a split. */
const SPLIT_CALLS = PAYMENT_CALLS.filter((c) => c.name.includes('{splitId}'));

async function expect404(w: World, res: Promise<request.Response> | request.Test, message: string, before: string) {
  const r = await res;
  expect(r.status).toBe(404);
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  expectSchema(messageResponse, r.body);
  expect(r.body).toEqual({ Message: message });
  expect(snapshot(w.store)).toBe(before);
}

describe('404 for payments that do not exist or are not the caller’s', () => {
  let w: World;
  // A 404 changes nothing: a world and the payments acted on serve test after test while so; the tests
  // that write get a world of their own.
  const own = keptWorld();
  const authorized = keptWorld((w) => authorizedPayment(w));
  const open = keptWorld((w) => createPayment(w));
  const plainAuthorized = keptWorld(async (w) => {
    const created = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', PLAIN_AUTH)
      .send(paymentBody({ MerchantTransactionID: 'plain-order', Splits: undefined }));
    expect(created.status).toBe(201);
    const p = created.body.Payment as WirePayment;
    await event(w, p.ID, 'authorize');
    return p;
  });
  const twoPayments = keptWorld(async (w) => {
    const p = await authorizedPayment(w);
    const other = await createPayment(w, { MethodID: 29 });
    await event(w, other.ID, 'succeed');
    return { p, other };
  });
  afterEach(() => (w = undefined as unknown as World));

  it.each(PAYMENT_CALLS.map((c) => [c.name, c] as const))('%s: unknown payment ID → 404 {"Message"}', async (_n, call) => {
    let p: WirePayment;
    ({ w, made: p } = await authorized());
    const before = snapshot(w.store);
    await expect404(w, call.send(w, w.auth, String(p.ID + 1000), String(p.Splits[0]!.ID)), 'Payment not found.', before);
  });

  it.each(PAYMENT_CALLS.map((c) => [c.name, c] as const))(
    "%s: the plain site cannot reach the marketplace's payment (404, nothing changes)",
    async (_n, call) => {
      let p: WirePayment;
      ({ w, made: p } = await authorized());
      const before = snapshot(w.store);
      await expect404(w, call.send(w, PLAIN_AUTH, String(p.ID), String(p.Splits[0]!.ID)), 'Payment not found.', before);
      // The owner still sees it, unchanged.
      const own = await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', MARKET_AUTH);
      expect(own.status).toBe(200);
      expect(own.body.Payment).toEqual(p);
    },
  );

  it.each(PAYMENT_CALLS.map((c) => [c.name, c] as const))(
    "%s: the marketplace cannot reach the plain site's payment (404, nothing changes)",
    async (_n, call) => {
      let p: WirePayment;
      ({ w, made: p } = await plainAuthorized());
      const before = snapshot(w.store);
      await expect404(w, call.send(w, MARKET_AUTH, String(p.ID), '7001'), 'Payment not found.', before);
      const own = await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', PLAIN_AUTH);
      expect(own.status).toBe(200);
      expect(own.body.Payment.SiteID).toBe(PLAIN.SiteID);
    },
  );

  it.each(SPLIT_CALLS.map((c) => [c.name, c] as const))('%s: unknown split ID → 404 {"Message"}', async (_n, call) => {
    let p: WirePayment;
    ({ w, made: p } = await authorized());
    const before = snapshot(w.store);
    await expect404(w, call.send(w, w.auth, String(p.ID), '1'), 'Split not found.', before);
  });

  it.each(SPLIT_CALLS.map((c) => [c.name, c] as const))("%s: another payment's split ID → 404", async (_n, call) => {
    let made: { p: WirePayment; other: WirePayment };
    ({ w, made } = await twoPayments());
    const { p, other } = made;
    const before = snapshot(w.store);
    await expect404(w, call.send(w, w.auth, String(p.ID), String(other.Splits[0]!.ID)), 'Split not found.', before);
  });

  const BAD_IDS = ['abc', '1.5', '-1', '0', '1e3', '0x10', '%20', ' 1'];
  const HUGE_IDS = ['9007199254740992', '9007199254740993', '18446744073709551616', '123456789012345678901234567890'];

  it.each([...BAD_IDS, ...HUGE_IDS])('GET /v1/payments/%s → 404 {"Message"} (not numeric, or beyond 2^53)', async (id) => {
    ({ w } = await open());
    const before = snapshot(w.store);
    await expect404(w, request(w.api).get(`/v1/payments/${encodeURI(id)}`).set('Authorization', w.auth), 'Payment not found.', before);
  });

  it.each(PAYMENT_CALLS.map((c) => [c.name, c] as const))('%s with payment ID beyond 2^53 or non-numeric → 404', async (_n, call) => {
    let p: WirePayment;
    ({ w, made: p } = await authorized());
    const before = snapshot(w.store);
    for (const id of ['9007199254740993', 'abc', '-3']) {
      await expect404(w, call.send(w, w.auth, id, String(p.Splits[0]!.ID)), 'Payment not found.', before);
    }
  });

  it.each(SPLIT_CALLS.map((c) => [c.name, c] as const))('%s with split ID beyond 2^53 or non-numeric → 404', async (_n, call) => {
    let p: WirePayment;
    ({ w, made: p } = await authorized());
    const before = snapshot(w.store);
    // 2^53 + 7001 would round onto a real split ID if read as a float.
    const near = (2n ** 53n + BigInt(p.Splits[0]!.ID)).toString();
    for (const sid of [near, '9007199254740993', 'x1', '1.0', '0']) {
      await expect404(w, call.send(w, w.auth, String(p.ID), sid), 'Split not found.', before);
    }
  });

  it('answers an unknown route with 404 {"Message"} naming the URI', async () => {
    ({ w } = await own());
    const p = await createPayment(w);
    const res = await request(w.api).get(`/v1/payments/${p.ID}/disputes`).set('Authorization', w.auth);
    expect(res.status).toBe(404);
    expectSchema(messageResponse, res.body);
    expect(res.body.Message).toContain(`/v1/payments/${p.ID}/disputes`);
  });

  it('a card payment (card address) is not reachable on the API address, nor an API payment on the card address', async () => {
    ({ w } = await own());
    const card = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({
        Payment: {
          MerchantTransactionID: 'card-1',
          Amount: '500',
          Currency: 'EUR',
          Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' },
        },
      });
    expect(card.status).toBe(201);
    const api = await createPayment(w);
    const before = snapshot(w.store);
    await expect404(w, request(w.api).get(`/v1/payments/${card.body.Payment.ID}`).set('Authorization', w.auth), 'Payment not found.', before);
    await expect404(w, request(w.api).post(`/v1/payments/${card.body.Payment.ID}/cancel`).set('Authorization', w.auth), 'Payment not found.', before);
    await expect404(w, request(w.card).get(`/v1/payments/${api.ID}`).set('Authorization', w.auth), 'Payment not found.', before);
  });
});

