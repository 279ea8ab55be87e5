// A create's splits, written together: the answer shows each as it is stored, in order, with its own ID.
import request from 'supertest';
import { LINKED, type World, createPayment, makeWorld } from '../helpers/world';

const splitsOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    SiteID: LINKED[i % LINKED.length],
    Amount: String(i + 1),
    MerchantTransactionID: `part-${i}`,
    ...(i % 2 === 0 ? { OriginatorTransactionID: `orig-${i}` } : {}),
  }));

describe('creating a payment with splits', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it.each([1, 3, 16, 17, 33, 100])('answers %i splits as a read shows them, with consecutive IDs in the order sent', async (count) => {
    const before = await createPayment(w);
    const created = await createPayment(w, { Amount: '10000', Splits: splitsOf(count) });
    const after = await createPayment(w);
    const read = await request(w.api).get(`/v1/payments/${created.ID}`).set('Authorization', w.auth).expect(200);
    expect(created.Splits).toEqual(read.body.Payment.Splits);
    expect(created.Splits.map((s) => s.MerchantTransactionID)).toEqual(splitsOf(count).map((s) => s.MerchantTransactionID));
    const first = before.Splits[before.Splits.length - 1]!.ID + 1;
    expect(created.Splits.map((s) => s.ID)).toEqual(Array.from({ length: count }, (_, i) => first + i));
    expect(after.Splits[0]!.ID).toBe(first + count);
    const stored = w.store.db.prepare('SELECT id, site_id, amount, originator_transaction_id FROM splits WHERE payment_id = ? ORDER BY id').all(created.ID);
    expect(stored).toEqual(
      splitsOf(count).map((s, i) => ({ id: first + i, site_id: s.SiteID, amount: i + 1, originator_transaction_id: s.OriginatorTransactionID ?? null })),
    );
  });

  it('writes none of them when the create is refused, and the next create goes on from the IDs before', async () => {
    const before = await createPayment(w);
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: before.MerchantTransactionID, Amount: '1000', Currency: 'EUR', MethodID: 42, ReturnURL: 'https://shop.example/r', Splits: splitsOf(20) } });
    expect(res.status).toBe(400);
    const after = await createPayment(w);
    expect(after.Splits[0]!.ID).toBe(before.Splits[before.Splits.length - 1]!.ID + 1);
  });
});
