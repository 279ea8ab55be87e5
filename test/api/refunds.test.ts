// Spec 4.7: refund of a split, and the refund rejections (reason 18).
import request from 'supertest';
import { formatTimestamp } from '../../src/domain/time';
import { refundErrorResponse, refundResponse } from '../../src/schemas/responses';
import {
  START,
  type WirePayment,
  type World,
  authorizedPayment,
  createPayment,
  event,
  expectSchema,
  makeWorld,
  snapshot,
  post,
} from '../helpers/world';

const refund = (w: World, p: WirePayment, splitIndex: number, body: object) =>
  post(w, `/v1/payments/${p.ID}/splits/${p.Splits[splitIndex]!.ID}/refunds`, body);

/** A one-step payment of 1000 (splits 600/300/100) that has reached Success. */
async function paidPayment(w: World, overrides: Record<string, unknown> = {}) {
  const p = await createPayment(w, { MethodID: 29, MerchantTransactionID: 'order-77', ...overrides });
  return event(w, p.ID, 'succeed');
}

/** Sends a refund that must be refused: 400, the Refund shell echoing the request, the reason, nothing stored. */
async function expectRefundRefused(w: World, p: WirePayment, splitIndex: number, refundBody: Record<string, unknown>, code = 18) {
  const before = snapshot(w.store);
  const res = await refund(w, p, splitIndex, { Refund: refundBody });
  expect(res.status).toBe(400);
  expectSchema(refundErrorResponse, res.body);
  expect(res.body).toEqual({
    Refund: {
      ID: 0,
      InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
      Created: null,
      MerchantTransactionID: refundBody.MerchantTransactionID ?? null,
      OriginatorTransactionID: refundBody.OriginatorTransactionID ?? null,
      InitialPaymentID: p.ID,
      Amount: refundBody.Amount ?? null,
      Currency: null,
      Description: refundBody.Description ?? null,
      TypeID: 0,
      SiteID: null,
      Details: null,
      Customer: null,
      BillingAddress: null,
      BankAddress: null,
      Articles: null,
      Status: { ID: null, Info: null, Reasons: [{ Code: code, Info: expect.any(String) }] },
      SplitID: null,
    },
  });
  expect(snapshot(w.store)).toBe(before);
  return res;
}

describe('POST /v1/payments/{id}/splits/{splitId}/refunds (4.7)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('refunds part of a paid split: 201 with the exact Refund of 2.7, Status Open, TypeID 1', async () => {
    const p = await paidPayment(w);
    w.clock.advance(3_600_000);
    const res = await refund(w, p, 1, {
      Refund: { MerchantTransactionID: 'refund-1', Amount: 120, Description: 'one book returned' },
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(refundResponse, res.body);
    expect(res.body).toEqual({
      Refund: {
        ID: expect.any(Number),
        Created: formatTimestamp(START + 3_600_000),
        MerchantTransactionID: 'refund-1',
        OriginatorTransactionID: null,
        InitialPaymentID: p.ID,
        Amount: '120',
        Currency: 'EUR',
        Description: 'one book returned',
        TypeID: 1,
        SiteID: 30203,
        Details: null,
        Customer: null,
        BillingAddress: null,
        BankAddress: null,
        Articles: null,
        Status: { ID: 1, Info: 'Open', Reasons: null },
        SplitID: p.Splits[1]!.ID,
      },
    });
  });

  it('generates a MerchantTransactionID when none is sent (or null), unique per refund', async () => {
    const p = await paidPayment(w);
    const a = await refund(w, p, 0, { Refund: { Amount: 10, Description: 'a' } });
    const b = await refund(w, p, 0, { Refund: { Amount: 10, Description: 'b', MerchantTransactionID: null } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expectSchema(refundResponse, a.body);
    for (const r of [a.body.Refund, b.body.Refund]) {
      expect(typeof r.MerchantTransactionID).toBe('string');
      expect(r.MerchantTransactionID.length).toBeGreaterThan(0);
    }
    expect(a.body.Refund.MerchantTransactionID).not.toBe(b.body.Refund.MerchantTransactionID);
    expect(b.body.Refund.ID).toBe(a.body.Refund.ID + 1);
  });

  it('takes the amount as a digit string, an empty OriginatorTransactionID, and no Description', async () => {
    const p = await paidPayment(w);
    const res = await refund(w, p, 2, { Refund: { Amount: '100', OriginatorTransactionID: '' } });
    expect(res.status).toBe(201);
    expectSchema(refundResponse, res.body);
    expect(res.body.Refund).toMatchObject({ Amount: '100', OriginatorTransactionID: '', Description: '', SiteID: 30204 });
  });

  it('refunds a split of a fully captured (Success) two-step payment up to its whole amount', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/capture`).expect(200);
    expect((await refund(w, auth, 0, { Refund: { Amount: 600 } })).status).toBe(201);
  });

  it('refunds a PartiallyCaptured split up to its captured amount', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/splits/${auth.Splits[0]!.ID}/capture?amount=250`).expect(200);
    const res = await refund(w, auth, 0, { Refund: { Amount: 250 } });
    expect(res.status).toBe(201);
    expect(res.body.Refund.Amount).toBe('250');
  });

  it('refunds a split of a CaptureRequested payment once it settled to Success', async () => {
    const auth = await authorizedPayment(w, { MethodID: 1078 });
    await post(w, `/v1/payments/${auth.ID}/capture`).expect(200);
    await expectRefundRefused(w, auth, 0, { Amount: 1 });
    await event(w, auth.ID, 'settle');
    expect((await refund(w, auth, 0, { Refund: { Amount: 1 } })).status).toBe(201);
  });

  it('accepts several refunds of one split whose sum is exactly what was paid', async () => {
    const p = await paidPayment(w);
    for (const amount of [100, 200, 300]) expect((await refund(w, p, 0, { Refund: { Amount: amount } })).status).toBe(201);
    await expectRefundRefused(w, p, 0, { Amount: 1 });
  });

  it('does not change the payment or its splits', async () => {
    const p = await paidPayment(w);
    await refund(w, p, 0, { Refund: { Amount: 100 } }).expect(201);
    const got = await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth);
    expect(got.body.Payment).toEqual(p);
  });
});

describe('refund rejections (reason 18, Refund envelope)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('refuses a refund of a split of an Open payment with reason 18, echoing the request', async () => {
    const p = await createPayment(w);
    await expectRefundRefused(w, p, 0, { MerchantTransactionID: 'r-1', Amount: 100, Description: 'x', OriginatorTransactionID: 'o' });
  });

  it('refuses a refund of an uncaptured split of an Authorized payment with reason 18', async () => {
    const auth = await authorizedPayment(w);
    await expectRefundRefused(w, auth, 0, { Amount: 100, Description: 'not captured' });
  });

  it('refuses a refund of a split left Authorized by a per-split capture with reason 18', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/capture`, { Payment: { Splits: [{ ID: auth.Splits[0]!.ID, Amount: 600 }] } }).expect(200);
    await expectRefundRefused(w, auth, 1, { Amount: 1 });
    expect((await refund(w, auth, 0, { Refund: { Amount: 600 } })).status).toBe(201);
  });

  it('refuses a refund of a split of a Cancelled payment with reason 18', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/cancel`).expect(200);
    await expectRefundRefused(w, auth, 0, { Amount: 1 });
  });

  it('refuses a refund of a split of a Failed payment with reason 18', async () => {
    const p = await createPayment(w, { MethodID: 29 });
    await event(w, p.ID, 'fail');
    await expectRefundRefused(w, p, 0, { Amount: 1 });
  });

  it('refuses a refund above the paid split amount with reason 18', async () => {
    const p = await paidPayment(w);
    await expectRefundRefused(w, p, 2, { Amount: 101, Description: 'too much' });
  });

  it('refuses a refund above the captured amount of a PartiallyCaptured split with reason 18', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/splits/${auth.Splits[0]!.ID}/capture?amount=250`).expect(200);
    await expectRefundRefused(w, auth, 0, { Amount: 251 });
  });

  it('refuses a refund that would bring the sum of refunds of a split over what was paid with reason 18', async () => {
    const p = await paidPayment(w);
    expect((await refund(w, p, 1, { Refund: { Amount: 200 } })).status).toBe(201);
    expect((await refund(w, p, 1, { Refund: { Amount: 50 } })).status).toBe(201);
    const res = await expectRefundRefused(w, p, 1, { Amount: 51 });
    expect(res.body.Refund.Status.Reasons[0].Info).toContain('50');
    expect((await refund(w, p, 1, { Refund: { Amount: 50 } })).status).toBe(201);
    await expectRefundRefused(w, p, 1, { Amount: 1 });
  });

  it('counts refunds per split: refunding one split in full leaves the others refundable', async () => {
    const p = await paidPayment(w);
    expect((await refund(w, p, 2, { Refund: { Amount: 100 } })).status).toBe(201);
    await expectRefundRefused(w, p, 2, { Amount: 1 });
    expect((await refund(w, p, 0, { Refund: { Amount: 600 } })).status).toBe(201);
  });

  it('gives InvalidRequestIDs that differ between rejections', async () => {
    const p = await createPayment(w);
    const a = await refund(w, p, 0, { Refund: { Amount: 1 } });
    const b = await refund(w, p, 0, { Refund: { Amount: 1 } });
    expect(a.body.Refund.InvalidRequestID).not.toBe(b.body.Refund.InvalidRequestID);
    expect(a.body.Refund.ID).toBe(0);
  });
});
