// Spec 4.2: adding splits to an existing payment, and its rejections (Splits envelope).
import request from 'supertest';
import { formatTimestamp } from '../../src/domain/time';
import { paymentResponse, splitsErrorResponse, splitsResponse } from '../../src/schemas/responses';
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
  status,
} from '../helpers/world';


const get = (w: World, id: number) => request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth);
const addSplits = (w: World, id: number, splits: object[]) => post(w, `/v1/payments/${id}/splits`, { Splits: splits });

async function expectAddRefused(w: World, id: number, splits: object[], codes: number[]) {
  const before = snapshot(w.store);
  const res = await addSplits(w, id, splits);
  expect(res.status).toBe(400);
  expectSchema(splitsErrorResponse, res.body);
  expect(res.body).toEqual({
    Splits: null,
    InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
    Reasons: codes.map((Code) => ({ Code, Info: expect.any(String) })),
  });
  expect(snapshot(w.store)).toBe(before);
  return res;
}

describe('POST /v1/payments/{id}/splits (4.2)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('adds splits to a Success payment: 201 {Splits:[...]} with exactly the new splits, each Success', async () => {
    const p = await createPayment(w, { MethodID: 29, Amount: '2000', Currency: 'USD' });
    await event(w, p.ID, 'succeed');
    w.clock.advance(90_000);
    const res = await addSplits(w, p.ID, [
      { SiteID: 30204, Amount: '400', MerchantTransactionID: 'add-1' },
      { SiteID: 30202, Amount: 600, MerchantTransactionID: 'add-2', OriginatorTransactionID: 'o-2' },
    ]);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(splitsResponse, res.body);
    const first = p.Splits[2]!.ID + 1;
    const split = (ID: number, SiteID: number, mtid: string, orig: string | null, Amount: string) => ({
      ID,
      PaymentID: p.ID,
      SiteID,
      MerchantTransactionID: mtid,
      OriginatorTransactionID: orig,
      Created: formatTimestamp(START + 90_000),
      Amount,
      Currency: 'USD',
      CapturedAmount: '',
      StateDetails: status(2, 'Success'),
    });
    expect(res.body).toEqual({
      Splits: [split(first, 30204, 'add-1', null, '400'), split(first + 1, 30202, 'add-2', 'o-2', '600')],
    });
    expect(Object.keys(res.body.Splits[0])).toEqual(Object.keys(split(0, 0, '', null, '')));
    const now = (await get(w, p.ID)).body.Payment as WirePayment;
    expect(now.Splits.slice(3)).toEqual(res.body.Splits);
    expect(now.Splits).toHaveLength(5);
  });

  it('adds splits to an Open payment (Open splits) that then follow the payment through its flow', async () => {
    const p = await createPayment(w, { Amount: '1200' });
    const res = await addSplits(w, p.ID, [{ SiteID: 30203, Amount: '200', MerchantTransactionID: 'add' }]);
    expect(res.status).toBe(201);
    expect(res.body.Splits[0].StateDetails).toEqual(status(1, 'Open'));
    await event(w, p.ID, 'authorize');
    const captured = await post(w, `/v1/payments/${p.ID}/capture`).expect(200);
    expect(captured.body.Payment.Splits.map((s: { StateDetails: { ID: number } }) => s.StateDetails.ID)).toEqual([2, 2, 2, 2]);
  });

  it('adds Authorized splits to an Authorized payment, which can then be captured per split', async () => {
    const auth = await authorizedPayment(w, { Amount: '1200' });
    const res = await addSplits(w, auth.ID, [{ SiteID: 30203, Amount: '200', MerchantTransactionID: 'add' }]);
    expect(res.status).toBe(201);
    expect(res.body.Splits[0].StateDetails).toEqual(status(9, 'Authorized'));
    const cap = await post(w, `/v1/payments/${auth.ID}/capture`, { Payment: { Splits: [{ ID: res.body.Splits[0].ID, Amount: 200 }] } });
    expect(cap.status).toBe(200);
    expect(cap.body.Payment.CapturedAmount).toBe('200');
  });

  it('adds Cancelled splits to a Cancelled payment', async () => {
    const auth = await authorizedPayment(w, { Amount: '1200' });
    await post(w, `/v1/payments/${auth.ID}/cancel`).expect(200);
    const res = await addSplits(w, auth.ID, [{ SiteID: 30203, Amount: '200', MerchantTransactionID: 'add' }]);
    expect(res.status).toBe(201);
    expect(res.body.Splits[0].StateDetails).toEqual(status(3, 'Cancelled'));
  });

  it('adds splits to a payment created without splits: its body then carries Splits', async () => {
    const p = await createPayment(w, { Splits: undefined });
    expect('Splits' in p).toBe(false);
    const res = await addSplits(w, p.ID, [{ SiteID: 30202, Amount: '1000', MerchantTransactionID: 'add' }]);
    expect(res.status).toBe(201);
    expectSchema(splitsResponse, res.body);
    const now = await get(w, p.ID);
    expectSchema(paymentResponse, now.body);
    expect(now.body.Payment.Splits).toEqual(res.body.Splits);
  });

  it('accepts splits that bring the total to exactly the payment amount', async () => {
    const p = await createPayment(w, { Amount: '1001' });
    expect((await addSplits(w, p.ID, [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 'add' }])).status).toBe(201);
  });
});

describe('add-splits rejections (Splits envelope, nothing changes)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('refuses splits that, with the existing ones, exceed the payment amount with reason 118', async () => {
    const p = await createPayment(w, { Amount: '1001' });
    const res = await expectAddRefused(w, p.ID, [{ SiteID: 30202, Amount: '2', MerchantTransactionID: 'add' }], [118]);
    expect(res.body.Reasons[0].Info).toContain('1002');
  });

  it('refuses a split SiteID that is not linked to the marketplace with reason 2, naming the split', async () => {
    const p = await createPayment(w, { Amount: '2000' });
    const res = await expectAddRefused(
      w,
      p.ID,
      [
        { SiteID: 30202, Amount: '1', MerchantTransactionID: 'ok' },
        { SiteID: 30300, Amount: '1', MerchantTransactionID: 'bad' },
      ],
      [2],
    );
    expect(res.body.Reasons[0].Info).toContain('Splits[1].SiteID');
  });

  it('refuses splits after a refund with reason 11, even when they would fit', async () => {
    const p = await createPayment(w, { MethodID: 29, Amount: '2000' });
    await event(w, p.ID, 'succeed');
    await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 1 } }).expect(201);
    await expectAddRefused(w, p.ID, [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 'add' }], [11]);
  });

  it('refuses splits on a payment without a MethodID with reason 1', async () => {
    const p = await createPayment(w, { Splits: undefined, MethodID: undefined });
    await expectAddRefused(w, p.ID, [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 'add' }], [1]);
  });

  it('refuses a body without Splits with reason 1', async () => {
    const p = await createPayment(w, { Amount: '2000' });
    const before = snapshot(w.store);
    const res = await post(w, `/v1/payments/${p.ID}/splits`, {});
    expect(res.status).toBe(400);
    expectSchema(splitsErrorResponse, res.body);
    expect(res.body.Reasons).toEqual([{ Code: 1, Info: 'Splits is missing' }]);
    expect(snapshot(w.store)).toBe(before);
  });
});
