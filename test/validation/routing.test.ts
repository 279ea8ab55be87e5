// Paths with or without a trailing slash, query parameter names in any case, and empty POST bodies.
import request from 'supertest';
import {
  cardListResponse,
  listResponse,
  paymentErrorResponse,
  paymentResponse,
  refundResponse,
  splitsResponse,
} from '../../src/schemas/responses';
import { type World, authorizedPayment, createPayment, event, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

/** Sends an empty body the way official clients do: a JSON content type and Content-Length: 0. */
const emptyJson = (t: request.Test) => t.set('Content-Type', 'application/json').set('Content-Length', '0');

describe('trailing slashes', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('creates a payment on POST /v1/payments/ (the form the PHP client sends)', async () => {
    const res = await request(w.api).post('/v1/payments/').set('Authorization', w.auth).send(paymentBody());
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
  });

  it('reads a payment on GET /v1/payments/{id}/', async () => {
    const p = await createPayment(w);
    const res = await request(w.api).get(`/v1/payments/${p.ID}/`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body.Payment.ID).toBe(p.ID);
    expectSchema(paymentResponse, res.body);
  });

  it('lists on GET /v1/payments/ and GET /v1/payments/?query', async () => {
    await createPayment(w);
    await createPayment(w);
    const a = await request(w.api).get('/v1/payments/').set('Authorization', w.auth);
    expect(a.status).toBe(200);
    expectSchema(listResponse, a.body);
    expect(a.body.TotalCount).toBe(2);
    const b = await request(w.api).get('/v1/payments/?pageSize=1&pageIndex=2&sortDirection=asc').set('Authorization', w.auth);
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ Count: 1, TotalCount: 2, TotalPages: 2, PageIndex: 2, PageSize: 1 });
    expect(b.body.Payments[0].ID).toBe(a.body.Payments[0].ID);
  });

  it('cancels on POST /v1/payments/{id}/cancel/', async () => {
    const p = await authorizedPayment(w);
    const res = await request(w.api).post(`/v1/payments/${p.ID}/cancel/`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body.Payment.Status.ID).toBe(3);
  });

  it('captures on POST /v1/payments/{id}/capture/', async () => {
    const p = await authorizedPayment(w);
    const res = await request(w.api).post(`/v1/payments/${p.ID}/capture/`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body.Payment.Status.ID).toBe(2);
  });

  it('captures one split on POST /v1/payments/{id}/splits/{sid}/capture/?amount=', async () => {
    const p = await authorizedPayment(w);
    const res = await request(w.api).post(`/v1/payments/${p.ID}/splits/${p.Splits[1]!.ID}/capture/?amount=200`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body.Payment.Splits).toHaveLength(1);
    expect(res.body.Payment.Splits[0].CapturedAmount).toBe('200');
  });

  it('adds splits on POST /v1/payments/{id}/splits/ and refunds on .../refunds/', async () => {
    const created = await createPayment(w, { Amount: '2000', MethodID: 2 });
    const paid = await event(w, created.ID, 'succeed');
    const added = await request(w.api)
      .post(`/v1/payments/${paid.ID}/splits/`)
      .set('Authorization', w.auth)
      .send({ Splits: [{ SiteID: 30203, Amount: '500', MerchantTransactionID: 'late-1' }] });
    expect(added.status).toBe(201);
    expectSchema(splitsResponse, added.body);
    const refund = await request(w.api)
      .post(`/v1/payments/${paid.ID}/splits/${paid.Splits[0]!.ID}/refunds/`)
      .set('Authorization', w.auth)
      .send({ Refund: { Amount: 100, Description: 'r' } });
    expect(refund.status).toBe(201);
    expectSchema(refundResponse, refund.body);
  });

  it('serves the card address with trailing slashes too', async () => {
    const created = await request(w.card)
      .post('/v1/payments/')
      .set('Authorization', w.auth)
      .send({
        Payment: {
          MerchantTransactionID: 'c-slash',
          Amount: 100,
          Currency: 'EUR',
          Card: { HolderName: 'A B', Number: '4111111111111111', ExpirationMonth: '1', ExpirationYear: '2031' },
        },
      });
    expect(created.status).toBe(201);
    expect((await request(w.card).get(`/v1/payments/${created.body.Payment.ID}/`).set('Authorization', w.auth)).status).toBe(200);
    const list = await request(w.card).get('/v1/payments/?limit=1&offset=0').set('Authorization', w.auth);
    expect(list.status).toBe(200);
    expectSchema(cardListResponse, list.body);
  });

  it('answers 404 {Message} for a path below a payment that is no route', async () => {
    const p = await createPayment(w);
    const res = await request(w.api).get(`/v1/payments/${p.ID}/extra`).set('Authorization', w.auth);
    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(['Message']);
  });
});

describe('query parameter names in any case', () => {
  let w: World;
  beforeEach(async () => {
    w = makeWorld();
    for (let i = 0; i < 5; i++) await createPayment(w);
  });
  afterEach(() => w.close());

  it.each(['pageSize', 'pagesize', 'PAGESIZE', 'PageSize', 'pAgEsIzE'])('reads %s as pageSize', async (name) => {
    const res = await request(w.api).get(`/v1/payments?${name}=2`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Count: 2, PageSize: 2, TotalPages: 3, TotalCount: 5 });
  });

  it.each([
    ['pageIndex', 'sortDirection'],
    ['pageindex', 'sortdirection'],
    ['PAGEINDEX', 'SORTDIRECTION'],
  ])('reads %s and %s whatever their case', async (pi, sd) => {
    const all = (await request(w.api).get('/v1/payments?sortDirection=asc').set('Authorization', w.auth)).body.Payments.map((p: { ID: number }) => p.ID);
    const res = await request(w.api).get(`/v1/payments?pagesize=2&${pi}=2&${sd}=asc`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body.PageIndex).toBe(2);
    expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(all.slice(2, 4));
  });

  it('reads the split capture amount whatever the case of its name', async () => {
    const p = await authorizedPayment(w);
    const res = await request(w.api).post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/capture?AMOUNT=250`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('250');
  });

  it('reads card list limit and offset whatever their case', async () => {
    const res = await request(w.card).get('/v1/payments?LIMIT=3&Offset=6').set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ PageSize: 3, PageIndex: 3 });
  });

  it('refuses the same parameter given twice in two cases, with the list error', async () => {
    const res = await request(w.api).get('/v1/payments?pageSize=2&PAGESIZE=3').set('Authorization', w.auth);
    expect(res.status).toBe(400);
    expect(res.body.Payments).toBeNull();
    expect(res.body.Error).toMatch(/pagesize/i);
  });

  it('matches paths whatever their case, as the real IIS service does', async () => {
    const p = await createPayment(w);
    expect((await request(w.api).get(`/V1/Payments/${p.ID}`).set('Authorization', w.auth)).status).toBe(200);
    expect((await request(w.api).get('/v1/PAYMENTS?PageSize=1').set('Authorization', w.auth)).body.PageSize).toBe(1);
  });
});

describe('empty POST bodies with a JSON content type (Content-Length: 0)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('captures in full', async () => {
    const p = await authorizedPayment(w);
    const res = await emptyJson(request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth));
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({ CapturedAmount: '1000', Status: { ID: 2, Info: 'Success', Reasons: null } });
  });

  it('cancels', async () => {
    const p = await authorizedPayment(w);
    const res = await emptyJson(request(w.api).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', w.auth));
    expect(res.status).toBe(200);
    expect(res.body.Payment).toMatchObject({ Status: { ID: 3, Info: 'Cancelled' }, RedirectURL: null, TokenLifetime: null });
  });

  it('captures one split', async () => {
    const p = await authorizedPayment(w);
    const res = await emptyJson(request(w.api).post(`/v1/payments/${p.ID}/splits/${p.Splits[2]!.ID}/capture?amount=100`).set('Authorization', w.auth));
    expect(res.status).toBe(200);
    expect(res.body.Payment.Status.ID).toBe(35);
  });

  it('captures one split in whole when amount is left out', async () => {
    const p = await authorizedPayment(w);
    const res = await emptyJson(request(w.api).post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/capture`).set('Authorization', w.auth));
    expect(res.status).toBe(200);
    expect(res.body.Payment.Splits[0].CapturedAmount).toBe('600');
  });

  it('treats a body of whitespace only as no body', async () => {
    const p = await authorizedPayment(w);
    const res = await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth).set('Content-Type', 'application/json').send('  \r\n ');
    expect(res.status).toBe(200);
    expect(res.body.Payment.Status.ID).toBe(2);
  });

  it('answers a create without a body with reason 1 "Payment is missing" in the Payment envelope, and stores nothing', async () => {
    const before = snapshot(w.store);
    const res = await emptyJson(request(w.api).post('/v1/payments').set('Authorization', w.auth));
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.ID).toBeNull();
    expect(res.body.Payment.Status).toEqual({ ID: null, Info: null, Reasons: [{ Code: 1, Info: 'Payment is missing' }] });
    expect(snapshot(w.store)).toBe(before);
  });

  it('answers a create without any body or content type the same way', async () => {
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth);
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 1, Info: 'Payment is missing' }]);
  });

  it('answers a refund without a body with reason 1 "Refund is missing" in the Refund envelope', async () => {
    const created = await createPayment(w, { MethodID: 2 });
    const paid = await event(w, created.ID, 'succeed');
    const before = snapshot(w.store);
    const res = await emptyJson(request(w.api).post(`/v1/payments/${paid.ID}/splits/${paid.Splits[0]!.ID}/refunds`).set('Authorization', w.auth));
    expect(res.status).toBe(400);
    expect(res.body.Refund.Status).toEqual({ ID: null, Info: null, Reasons: [{ Code: 1, Info: 'Refund is missing' }] });
    expect(snapshot(w.store)).toBe(before);
  });

  it('answers add-splits without a body with reason 1 "Splits is missing" in the Splits envelope', async () => {
    const p = await createPayment(w, { Amount: '2000' });
    const before = snapshot(w.store);
    const res = await emptyJson(request(w.api).post(`/v1/payments/${p.ID}/splits`).set('Authorization', w.auth));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Splits: null, Reasons: [{ Code: 1, Info: 'Splits is missing' }] });
    expect(snapshot(w.store)).toBe(before);
  });

  it('answers a card create without a body with reason 1 "Payment is missing"', async () => {
    const res = await emptyJson(request(w.card).post('/v1/payments').set('Authorization', w.auth));
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 1, Info: 'Payment is missing' }]);
  });
});
