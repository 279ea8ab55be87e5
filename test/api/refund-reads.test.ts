// The API address beyond the seed: refunds read back (the list and one, in their current status),
// GET /status, and the refund of a whole payment (payments without splits only; reason 11 otherwise).
import request from 'supertest';
import { formatTimestamp } from '../../src/domain/time';
import { messageResponse, paymentResponse, refundErrorResponse, refundResponse, refundsResponse } from '../../src/schemas/responses';
import { PLAIN, START, type World, authorizedPayment, basic, createPayment, event, expectSchema, makeWorld, post, snapshot } from '../helpers/world';

const plainAuth = basic(PLAIN.SiteID, PLAIN.APIKey);

describe('refunds read back, and /status', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const get = (path: string, auth = w.auth) => request(w.api).get(path).set('Authorization', auth);

  it('GET /v1/payments/{id}/refunds: {"Refunds": []} before any refund, then each refund in its current status, oldest first', async () => {
    const p = await event(w, (await createPayment(w, { MethodID: 29 })).ID, 'succeed');
    const empty = await get(`/v1/payments/${p.ID}/refunds`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ Refunds: [] });
    const r1 = (await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 100, MerchantTransactionID: 'r-1' } })).body.Refund;
    w.clock.advance(1000);
    const r2 = (await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[1]!.ID}/refunds`, { Refund: { Amount: 50 } })).body.Refund;
    await request(w.api).post(`/_sandbox/refunds/${r1.ID}/events`).send({ Event: 'succeed' }).expect(200);
    await request(w.api).post(`/_sandbox/refunds/${r2.ID}/events`).send({ Event: 'fail' }).expect(200);
    const res = await get(`/v1/payments/${p.ID}/refunds/`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(refundsResponse, res.body);
    expect(res.body).toEqual({
      Refunds: [
        { ...r1, Status: { ID: 2, Info: 'Success', Reasons: null } },
        { ...r2, Status: { ID: 4, Info: 'Failed', Reasons: null } },
      ],
    });
    expect(r2).toMatchObject({ Created: formatTimestamp(START + 1000), SplitID: p.Splits[1]!.ID, MerchantTransactionID: `${p.MerchantTransactionID}-R${r2.ID}` });
  });

  it('GET /v1/payments/{id}/refunds/{refundId}: the refund with its current status', async () => {
    const p = await event(w, (await createPayment(w, { MethodID: 29 })).ID, 'succeed');
    const r = (await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 100, Description: 'one item' } })).body.Refund;
    const open = await get(`/v1/payments/${p.ID}/refunds/${r.ID}`);
    expect(open.status).toBe(200);
    expectSchema(refundResponse, open.body);
    expect(open.body).toEqual({ Refund: r });
    await request(w.api).post(`/_sandbox/refunds/${r.ID}/events`).send({ Event: 'succeed' }).expect(200);
    expect((await get(`/v1/payments/${p.ID}/refunds/${r.ID}/`)).body).toEqual({ Refund: { ...r, Status: { ID: 2, Info: 'Success', Reasons: null } } });
  });

  it('answers 404 {"Message"} for an unknown or foreign payment or refund, and reads change nothing', async () => {
    const p = await event(w, (await createPayment(w, { MethodID: 29 })).ID, 'succeed');
    const other = await createPayment(w);
    const r = (await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 100 } })).body.Refund;
    const before = snapshot(w.store);
    const cases: [string, string, string][] = [
      [`/v1/payments/${p.ID}/refunds/${r.ID + 1}`, w.auth, 'Refund not found.'],
      [`/v1/payments/${other.ID}/refunds/${r.ID}`, w.auth, 'Refund not found.'],
      [`/v1/payments/${p.ID}/refunds/abc`, w.auth, 'Refund not found.'],
      ['/v1/payments/987654321/refunds', w.auth, 'Payment not found.'],
      ['/v1/payments/987654321/refunds/1', w.auth, 'Payment not found.'],
      ['/v1/payments/987654321/status', w.auth, 'Payment not found.'],
      [`/v1/payments/${p.ID}/refunds`, plainAuth, 'Payment not found.'],
      [`/v1/payments/${p.ID}/refunds/${r.ID}`, plainAuth, 'Payment not found.'],
      [`/v1/payments/${p.ID}/status`, plainAuth, 'Payment not found.'],
    ];
    for (const [path, auth, message] of cases) {
      const res = await get(path, auth);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { Message: message } });
      expectSchema(messageResponse, res.body);
    }
    expect((await request(w.api).get(`/v1/payments/${p.ID}/refunds`)).status).toBe(401);
    expect(snapshot(w.store)).toBe(before);
  });

  it('GET /v1/payments/{id}/status: {"Payment"} exactly as GET shows it, with its splits, in its current status', async () => {
    const p = await authorizedPayment(w);
    const res = await get(`/v1/payments/${p.ID}/status`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body).toEqual((await get(`/v1/payments/${p.ID}`)).body);
    expect(res.body.Payment.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: null });
    await post(w, `/v1/payments/${p.ID}/capture`).expect(200);
    expect((await get(`/v1/payments/${p.ID}/status/`)).body.Payment.Status).toEqual({ ID: 2, Info: 'Success', Reasons: null });
  });
});

describe('POST /v1/payments/{id}/refunds: a refund of the whole payment', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const plainPayment = async (overrides: Record<string, unknown> = {}) => {
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', plainAuth)
      .send({ Payment: { MerchantTransactionID: 'plain-1', Amount: '1000', Currency: 'EUR', MethodID: 2, ReturnURL: 'https://shop.example/r', ...overrides } });
    expect(res.status).toBe(201);
    return res.body.Payment as { ID: number; MerchantTransactionID: string; SiteID: number };
  };
  const refundWhole = (id: number, body: object, auth = plainAuth) => request(w.api).post(`/v1/payments/${id}/refunds`).set('Authorization', auth).send(body);

  /** A refused whole refund: 400 in the Refund envelope with one reason, nothing stored. */
  async function refused(id: number, body: Record<string, any>, code: number, auth = plainAuth) {
    const before = snapshot(w.store);
    const res = await refundWhole(id, body, auth);
    expect(res.status).toBe(400);
    expectSchema(refundErrorResponse, res.body);
    expect(res.body.Refund).toMatchObject({ ID: 0, InitialPaymentID: id, TypeID: 0, Amount: body.Refund?.Amount ?? null, SplitID: null, Status: { ID: null, Info: null } });
    expect(res.body.Refund.Status.Reasons).toHaveLength(1);
    expect(res.body.Refund.Status.Reasons[0].Code).toBe(code);
    expect(snapshot(w.store)).toBe(before);
    return res.body.Refund.Status.Reasons[0].Info as string;
  }

  it('refunds a paid payment without splits: 201 Open, SplitID 0, the payment’s site; stored without a split', async () => {
    const p = await plainPayment();
    await event(w, p.ID, 'succeed');
    w.clock.advance(60_000);
    const res = await refundWhole(p.ID, { Refund: { Amount: 400, Description: 'half the order' } });
    expect(res.status).toBe(201);
    expectSchema(refundResponse, res.body);
    expect(res.body).toEqual({
      Refund: {
        ID: expect.any(Number),
        Created: formatTimestamp(START + 60_000),
        MerchantTransactionID: `plain-1-R${res.body.Refund.ID}`,
        OriginatorTransactionID: null,
        InitialPaymentID: p.ID,
        Amount: '400',
        Currency: 'EUR',
        Description: 'half the order',
        TypeID: 1,
        SiteID: PLAIN.SiteID,
        Details: null,
        Customer: null,
        BillingAddress: null,
        BankAddress: null,
        Articles: null,
        Status: { ID: 1, Info: 'Open', Reasons: null },
        SplitID: 0,
      },
    });
    const row = w.store.db.prepare('SELECT split_id, amount, status_id FROM refunds WHERE id = ?').get(res.body.Refund.ID);
    expect(row).toEqual({ split_id: null, amount: 400, status_id: 1 });
    expect((await request(w.api).get(`/v1/payments/${p.ID}/refunds`).set('Authorization', plainAuth)).body).toEqual({ Refunds: [res.body.Refund] });
  });

  it('bounds refunds by what was paid, less refunds made (failed ones give nothing back)', async () => {
    const p = await plainPayment();
    await event(w, p.ID, 'succeed');
    const first = (await refundWhole(p.ID, { Refund: { Amount: 700 } })).body.Refund;
    expect(await refused(p.ID, { Refund: { Amount: 301 } }, 18)).toBe(`Refund is invalid: Refund.Amount 301 is more than the 300 left to refund on payment ${p.ID}`);
    await request(w.api).post(`/_sandbox/refunds/${first.ID}/events`).send({ Event: 'fail' }).expect(200);
    expect((await refundWhole(p.ID, { Refund: { Amount: 1000 } })).status).toBe(201);
    expect(await refused(p.ID, { Refund: { Amount: 1 } }, 18)).toBe(`Refund is invalid: payment ${p.ID} has nothing captured or paid left to refund`);
  });

  it('refuses a refund of a payment that took nothing yet with 18, and a malformed one with the field’s reason', async () => {
    const p = await plainPayment();
    await refused(p.ID, { Refund: { Amount: 100 } }, 18);
    await event(w, p.ID, 'succeed');
    expect(await refused(p.ID, { Refund: { Amount: '10.50' } }, 118)).toMatch(/^Refund\.Amount is invalid/);
    expect(await refused(p.ID, { Refund: {} }, 1)).toBe('Refund.Amount is missing');
  });

  it('refunds what a capture of a two-step payment without splits took', async () => {
    const p = await plainPayment({ MethodID: 42, MerchantTransactionID: 'plain-2' });
    await event(w, p.ID, 'authorize');
    await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', plainAuth).expect(200);
    expect((await refundWhole(p.ID, { Refund: { Amount: 1000 } })).status).toBe(201);
  });

  it('refuses a payment with splits with reason 11 (refunds are per split), in the Refund envelope, changing nothing', async () => {
    const p = await event(w, (await createPayment(w, { MethodID: 29 })).ID, 'succeed');
    const info = await refused(p.ID, { Refund: { Amount: 100 } }, 11, w.auth);
    expect(info).toBe('Action is invalid: a payment with splits is refunded per split (POST /v1/payments/{id}/splits/{splitId}/refunds)');
  });

  it('after a whole refund, splits can no longer be added (reason 11)', async () => {
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'm-1', Amount: '1000', Currency: 'EUR', MethodID: 2, ReturnURL: 'https://shop.example/r' } });
    await event(w, res.body.Payment.ID, 'succeed');
    expect((await refundWhole(res.body.Payment.ID, { Refund: { Amount: 100 } }, w.auth)).status).toBe(201);
    const add = await post(w, `/v1/payments/${res.body.Payment.ID}/splits`, { Splits: [{ SiteID: 30202, Amount: 100, MerchantTransactionID: 's' }] });
    expect(add.status).toBe(400);
    expect(add.body.Reasons[0].Code).toBe(11);
  });
});
