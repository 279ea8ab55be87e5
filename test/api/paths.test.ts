// Path matching of the real service: a trailing slash and the case of path segments do not matter.
import request from 'supertest';
import { paymentResponse, refundResponse, splitsResponse } from '../../src/schemas/responses';
import { type World, authorizedPayment, createPayment, event, expectSchema, makeWorld, paymentBody } from '../helpers/world';

describe('paths with a trailing slash or in another case', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const post = (path: string) => request(w.api).post(path).set('Authorization', w.auth);

  it('creates with POST /v1/payments/ and reads with GET /v1/payments/{id}/', async () => {
    const res = await post('/v1/payments/').send(paymentBody({ MerchantTransactionID: 'slash' }));
    expect(res.status).toBe(201);
    const got = await request(w.api).get(`/v1/payments/${res.body.Payment.ID}/`).set('Authorization', w.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('captures a split, refunds it and adds splits through trailing-slash paths', async () => {
    const auth = await authorizedPayment(w, { Amount: '2000' });
    const sid = auth.Splits[0]!.ID;
    const cap = await post(`/v1/payments/${auth.ID}/splits/${sid}/capture/?amount=600`);
    expect(cap.status).toBe(200);
    expectSchema(paymentResponse, cap.body);
    const ref = await post(`/v1/payments/${auth.ID}/splits/${sid}/refunds/`).send({ Refund: { Amount: 600 } });
    expect(ref.status).toBe(201);
    expectSchema(refundResponse, ref.body);
    const other = await createPayment(w, { Amount: '2000', MethodID: 29 });
    await event(w, other.ID, 'succeed');
    const add = await post(`/v1/payments/${other.ID}/splits/`).send({ Splits: [{ SiteID: 30202, Amount: '5', MerchantTransactionID: 'a' }] });
    expect(add.status).toBe(201);
    expectSchema(splitsResponse, add.body);
  });

  it('captures and cancels through paths in another case', async () => {
    const a = await authorizedPayment(w);
    expect((await post(`/V1/Payments/${a.ID}/Capture`)).status).toBe(200);
    const b = await authorizedPayment(w);
    expect((await post(`/v1/PAYMENTS/${b.ID}/cancel/`)).status).toBe(200);
  });
});
