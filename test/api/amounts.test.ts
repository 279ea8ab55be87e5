// Amounts that floats would get wrong: arithmetic is exact, in minor units, up to 12 digits.
import request from 'supertest';
import { paymentResponse, refundResponse } from '../../src/schemas/responses';
import { type WirePayment, type World, createPayment, event, expectSchema, makeWorld, post, snapshot } from '../helpers/world';

const get = (w: World, id: number) => request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth);

const splits = (...amounts: (string | number)[]) =>
  amounts.map((Amount, i) => ({ SiteID: [30202, 30203, 30204][i % 3], Amount, MerchantTransactionID: `s-${i}` }));

async function authorized(w: World, Amount: string | number, splitAmounts: (string | number)[]): Promise<WirePayment> {
  const p = await createPayment(w, { Amount, Splits: splits(...splitAmounts) });
  return event(w, p.ID, 'authorize');
}

const TWELVE_NINES = '999999999999';
const THIRD = '333333333333';

describe('exact amounts', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('splits a payment of 3 into 1 + 2 and captures exactly 3', async () => {
    const p = await authorized(w, '3', ['1', '2']);
    expect(p.Amount).toBe('3');
    expect(p.Splits.map((s) => s.Amount)).toEqual(['1', '2']);
    const res = await post(w, `/v1/payments/${p.ID}/capture`);
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('3');
  });

  it('refuses 1 + 3 for a payment of 3 (118), exactly at the boundary', async () => {
    const before = snapshot(w.store);
    const res = await post(w, '/v1/payments', {
      Payment: { MerchantTransactionID: 'x', Amount: 3, Currency: 'EUR', MethodID: 42, ReturnURL: 'https://a.example/', Splits: splits(1, 3) },
    });
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons.map((r: { Code: number }) => r.Code)).toEqual([118]);
    expect(snapshot(w.store)).toBe(before);
  });

  it('captures 10 + 20 per split as exactly "30" (0.10 + 0.20 in minor units)', async () => {
    const p = await authorized(w, '30', ['10', '20']);
    const res = await post(w, `/v1/payments/${p.ID}/capture`, {
      Payment: { Splits: [{ ID: p.Splits[0]!.ID, Amount: 10 }, { ID: p.Splits[1]!.ID, Amount: 20 }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('30');
    expect(res.body.Payment.Splits.map((s: { CapturedAmount: string }) => s.CapturedAmount)).toEqual(['10', '20']);
  });

  it('captures 1 + 2 per split as exactly "3", and 0.1-like parts of 1 + 1 + 1 as "3"', async () => {
    const a = await authorized(w, '10', ['1', '2']);
    const ra = await post(w, `/v1/payments/${a.ID}/capture`, {
      Payment: { Splits: [{ ID: a.Splits[0]!.ID, Amount: 1 }, { ID: a.Splits[1]!.ID, Amount: 2 }] },
    });
    expect(ra.body.Payment.CapturedAmount).toBe('3');
    const b = await authorized(w, '3', ['1', '1', '1']);
    const rb = await post(w, `/v1/payments/${b.ID}/capture`, { Payment: { Splits: b.Splits.map((s) => ({ ID: s.ID, Amount: '1' })) } });
    expect(rb.body.Payment.CapturedAmount).toBe('3');
  });

  it('splits 999999999999 into three 333333333333 parts that add up exactly', async () => {
    const res = await post(w, '/v1/payments', {
      Payment: {
        MerchantTransactionID: 'big',
        Amount: TWELVE_NINES,
        Currency: 'EUR',
        MethodID: 42,
        ReturnURL: 'https://a.example/',
        Splits: splits(THIRD, THIRD, THIRD),
      },
    });
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment.Amount).toBe(TWELVE_NINES);
    expect(res.body.Payment.Splits.map((s: { Amount: string }) => s.Amount)).toEqual([THIRD, THIRD, THIRD]);
    expect((await get(w, res.body.Payment.ID)).body).toEqual(res.body);
  });

  it('refuses a 12-digit split sum that is 1 over the payment amount (118)', async () => {
    const before = snapshot(w.store);
    const res = await post(w, '/v1/payments', {
      Payment: {
        MerchantTransactionID: 'big-over',
        Amount: TWELVE_NINES,
        Currency: 'EUR',
        MethodID: 42,
        ReturnURL: 'https://a.example/',
        Splits: splits(THIRD, THIRD, '333333333334'),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 118, Info: expect.stringContaining('1000000000000') }]);
    expect(snapshot(w.store)).toBe(before);
  });

  it('refuses a split sum over the amount when adding splits to a 12-digit payment (118)', async () => {
    const p = await authorized(w, TWELVE_NINES, [THIRD, THIRD]);
    const before = snapshot(w.store);
    const res = await post(w, `/v1/payments/${p.ID}/splits`, { Splits: splits('333333333334') });
    expect(res.status).toBe(400);
    expect(res.body.Reasons).toEqual([{ Code: 118, Info: expect.any(String) }]);
    expect(snapshot(w.store)).toBe(before);
    const ok = await post(w, `/v1/payments/${p.ID}/splits`, { Splits: splits(THIRD) });
    expect(ok.status).toBe(201);
    expect(ok.body.Splits[0].Amount).toBe(THIRD);
  });

  it('captures a 12-digit payment in full: CapturedAmount "999999999999"', async () => {
    const p = await authorized(w, TWELVE_NINES, [THIRD, THIRD, THIRD]);
    const res = await post(w, `/v1/payments/${p.ID}/capture`);
    expect(res.body.Payment.CapturedAmount).toBe(TWELVE_NINES);
  });

  it('sums 12-digit per-split captures exactly (JSON numbers above 2^32)', async () => {
    const p = await authorized(w, TWELVE_NINES, [THIRD, THIRD, THIRD]);
    const res = await post(w, `/v1/payments/${p.ID}/capture`, {
      Payment: {
        Splits: [
          { ID: p.Splits[0]!.ID, Amount: 333333333333 },
          { ID: p.Splits[1]!.ID, Amount: 333333333332 },
          { ID: p.Splits[2]!.ID, Amount: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('666666666666');
    expect(res.body.Payment.Splits.map((s: { CapturedAmount: string }) => s.CapturedAmount)).toEqual([THIRD, '333333333332', '1']);
    expect((await get(w, p.ID)).body.Payment.CapturedAmount).toBe('666666666666');
  });

  it('captures a whole 12-digit split with ?amount= and refunds it exactly, to the last unit', async () => {
    const p = await authorized(w, TWELVE_NINES, [TWELVE_NINES]);
    const cap = await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/capture?amount=${TWELVE_NINES}`);
    expect(cap.status).toBe(200);
    expect(cap.body.Payment.CapturedAmount).toBe(TWELVE_NINES);
    const r1 = await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 999999999998 } });
    expect(r1.status).toBe(201);
    expectSchema(refundResponse, r1.body);
    expect(r1.body.Refund.Amount).toBe('999999999998');
    const r2 = await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 2 } });
    expect(r2.status).toBe(400);
    expect(r2.body.Refund.Status.Reasons[0].Code).toBe(18);
    const r3 = await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: '1' } });
    expect(r3.status).toBe(201);
  });

  it('refuses a 13-digit amount (above 999999999999) with reason 118', async () => {
    const res = await post(w, '/v1/payments', {
      Payment: { MerchantTransactionID: 'huge', Amount: '1000000000000', Currency: 'EUR', ReturnURL: 'https://a.example/' },
    });
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 118, Info: expect.stringContaining('Payment.Amount') }]);
  });

  it.each(['10.0', '1e1', '10.5'])('refuses a per-split capture Amount written as %s with reason 118, capturing nothing', async (written) => {
    const p = await authorized(w, '1000', ['100']);
    const before = snapshot(w.store);
    const res = await post(w, `/v1/payments/${p.ID}/capture`)
      .set('Content-Type', 'application/json')
      .send(`{"Payment":{"Splits":[{"ID":${p.Splits[0]!.ID},"Amount":${written}}]}}`);
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 118, Info: expect.stringContaining('Payment.Splits[0].Amount') }]);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(['100.0', '1e2', '99.99'])('refuses a refund Amount written as %s with reason 118', async (written) => {
    const p = await createPayment(w, { MethodID: 29 });
    await event(w, p.ID, 'succeed');
    const before = snapshot(w.store);
    const res = await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`)
      .set('Content-Type', 'application/json')
      .send(`{"Refund":{"Amount":${written}}}`);
    expect(res.status).toBe(400);
    expect(res.body.Refund.Status.Reasons).toEqual([{ Code: 118, Info: expect.stringContaining('Refund.Amount') }]);
    expect(res.body.Refund.Amount).toBe(Number(written));
    expect(snapshot(w.store)).toBe(before);
  });
});
