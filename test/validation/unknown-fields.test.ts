// Members of a request body that the API does not read are ignored, as the real (ASP.NET) service
// ignores them, and each is noted in the request journal as a near miss; under --strict-fields they
// are refused (400, Reason 2) and nothing is stored.
import request from 'supertest';
import type { RequestEntry } from '../../src/requests/journal';
import { paymentErrorResponse, paymentResponse } from '../../src/schemas/responses';
import { type World, authorizedPayment, createPayment, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

async function journal(w: World): Promise<RequestEntry[]> {
  return (await request(w.api).get('/_sandbox/requests?PageSize=1000&SortDirection=asc')).body.Requests as RequestEntry[];
}

const cardBody = (extra: Record<string, unknown> = {}, card: Record<string, unknown> = {}) => ({
  Payment: {
    MerchantTransactionID: 'card-1',
    Amount: 2000,
    Currency: 'EUR',
    Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', ...card },
    ...extra,
  },
});

/** The create body with unknown members at every level: the root, Payment, Customer, BillingAddress, a split. */
function sprinkled() {
  const body = paymentBody({ MerchantTransactionID: 'order-extra', Foo: 1, Customer: { Email: 'a@example.com', Nickname: 'ada' }, BillingAddress: { Country: 'NL', Planet: 'Earth' } }) as {
    Payment: { Splits: Record<string, unknown>[] };
  };
  body.Payment.Splits[1]!.Note = 'x';
  return { Extra: true, ...body };
}

describe('request members the API does not read', () => {
  let w: World;
  afterEach(() => w.close());

  describe('by default', () => {
    beforeEach(() => (w = makeWorld()));

    it('creates the payment, leaves them out of the answer, and journals each as a near miss, in the order of the body', async () => {
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(sprinkled());
      expect(res.status).toBe(201);
      expectSchema(paymentResponse, res.body);
      expect(res.text).not.toMatch(/Foo|Nickname|Planet|"Note"|Extra/);
      const [entry] = await journal(w);
      expect(entry).toMatchObject({ Status: 201, PaymentID: res.body.Payment.ID });
      expect(entry!.NearMiss).toBe(
        'Extra is not a field the API reads; Payment.Customer.Nickname is not a field the API reads; Payment.BillingAddress.Planet is not a field the API reads; ' +
          'Payment.Splits[1].Note is not a field the API reads; Payment.Foo is not a field the API reads',
      );
      // The journal keeps the body as it was sent, and finds it among the near misses.
      expect(JSON.parse(entry!.Request.Body!)).toEqual(sprinkled());
      expect((await request(w.api).get('/_sandbox/requests?NearMiss=true')).body.Requests).toHaveLength(1);
    });

    it('notes them on a refused request too, whose reasons name only what is wrong', async () => {
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ Currency: 'eur', Foo: 1 }));
      expect(res.status).toBe(400);
      expectSchema(paymentErrorResponse, res.body);
      expect(res.body.Payment.Status.Reasons).toEqual([expect.objectContaining({ Code: 100 })]);
      expect((await journal(w))[0]!.NearMiss).toBe('Payment.Foo is not a field the API reads');
    });

    it('ignores them on every body of both addresses', async () => {
      const p = await authorizedPayment(w);
      const api = (path: string, body: object) => request(w.api).post(path).set('Authorization', w.auth).send(body);
      const card = (path: string, body: object) => request(w.card).post(path).set('Authorization', w.auth).send(body);
      expect((await api(`/v1/payments/${p.ID}/capture`, { Payment: { Splits: [{ ID: p.Splits[0]!.ID, Amount: 600, Reason: 'x' }] }, Note: 1 })).status).toBe(200);
      expect((await api(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 100, Why: 'x' } })).status).toBe(201);
      const open = await createPayment(w, { MerchantTransactionID: 'order-2', Splits: [{ SiteID: 30202, Amount: 100, MerchantTransactionID: 's' }] });
      expect((await api(`/v1/payments/${open.ID}/splits`, { Splits: [{ SiteID: 30203, Amount: 100, MerchantTransactionID: 't', Memo: 1 }] })).status).toBe(201);
      expect((await api('/v1/preapprovals', { Preapproval: { MerchantPreapprovalID: 'm', MethodID: 2, Plan: 'gold' } })).status).toBe(201);
      expect((await card('/v1/payments', cardBody({ Foo: 1 }, { Pin: '1234' }))).status).toBe(201);
      expect((await card('/v1/payouts', { Payout: { MerchantTransactionID: 'po', Amount: 100, Currency: 'EUR', Card: cardBody().Payment.Card, Bonus: 1 } })).status).toBe(201);
      expect((await card('/v1/card/authenticate', { CardAuthentication: { Card: { ...cardBody().Payment.Card, Colour: 'blue' } } })).status).toBe(201);
      const notes = (await journal(w)).map((e) => e.NearMiss).filter((n) => n !== null);
      expect(notes).toEqual([
        'Payment.Splits[0].Reason is not a field the API reads; Note is not a field the API reads',
        'Refund.Why is not a field the API reads',
        'Splits[0].Memo is not a field the API reads',
        'Preapproval.Plan is not a field the API reads',
        'Payment.Card.Pin is not a field the API reads; Payment.Foo is not a field the API reads',
        'Payout.Bonus is not a field the API reads',
        'CardAuthentication.Card.Colour is not a field the API reads',
      ]);
    });

    it('journals no near miss for a body with only members the API reads', async () => {
      await createPayment(w);
      expect((await journal(w))[0]!.NearMiss).toBeNull();
    });
  });

  describe('with --strict-fields', () => {
    beforeEach(() => (w = makeWorld({ strictFields: true })));

    it('refuses them with reason 2 "… is not a known field", one reason each, and stores nothing', async () => {
      const before = snapshot(w.store);
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(sprinkled());
      expect(res.status).toBe(400);
      expectSchema(paymentErrorResponse, res.body);
      expect(res.body.Payment.Status.Reasons).toEqual([
        { Code: 2, Info: 'Extra is not a known field' },
        { Code: 2, Info: 'Payment.Foo is not a known field' },
        { Code: 2, Info: 'Payment.Customer.Nickname is not a known field' },
        { Code: 2, Info: 'Payment.BillingAddress.Planet is not a known field' },
        { Code: 2, Info: 'Payment.Splits[1].Note is not a known field' },
      ]);
      expect(snapshot(w.store)).toBe(before);
      expect((await journal(w))[0]!.NearMiss).toBeNull();
    });

    it('refuses them on the card address', async () => {
      const res = await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(cardBody({ Installment: 3 }, { Pin: '1234' }));
      expect(res.status).toBe(400);
      expect(res.body.Payment.Status.Reasons).toEqual([
        { Code: 2, Info: 'Payment.Installment is not a known field' },
        { Code: 2, Info: 'Payment.Card.Pin is not a known field' },
      ]);
    });

    it('still takes every member the official SDKs send (ID, Capture, 3DSecure, Retry, GenerateCreditCardToken …)', async () => {
      const api = await request(w.api)
        .post('/v1/payments')
        .set('Authorization', w.auth)
        .send(paymentBody({ ID: 0, Capture: null, Details: null, Language: null, Guaranteed: null, Articles: null, CustomParameters: null, Customer: { ID: 0, Email: 'a@example.com' } }));
      expect(api.status).toBe(201);
      const card = await request(w.card)
        .post('/v1/payments')
        .set('Authorization', w.auth)
        .send(cardBody({ '3DSecure': null, Capture: false, Retry: null, GenerateCreditCardToken: false, PaymentTokenLifetime: null, Installments: 0 }, { RequireSecurityCode: false }));
      expect(card.status).toBe(201);
    });
  });
});
