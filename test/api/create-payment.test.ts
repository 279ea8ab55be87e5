import request from 'supertest';
import { paymentResponse } from '../../src/schemas/responses';
import { START_STAMP, type World, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

describe('POST /v1/payments (create payment with splits)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('creates an Open payment whose splits are all Open, with every field of 2.1', async () => {
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'order-1' }));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(paymentResponse, res.body);
    const p = res.body.Payment;
    expect(p).toMatchObject({
      MerchantTransactionID: 'order-1',
      Amount: '1000',
      Currency: 'EUR',
      CapturedAmount: null,
      MethodID: 42,
      SiteID: 30202,
      Created: START_STAMP,
      TokenLifetime: 10,
      Status: { ID: 1, Info: 'Open', Reasons: null },
      Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace', Phone: null },
      BillingAddress: { Country: 'NL', City: null },
    });
    expect(Number.isInteger(p.ID)).toBe(true);
    expect(p.RedirectURL).toMatch(new RegExp(`^http://sandbox\\.test/Home\\?PaymentToken=[0-9A-F]{32}\\.${p.ID}$`));
    expect(p.Splits).toHaveLength(3);
    for (const s of p.Splits) {
      expect(s.StateDetails).toEqual({ ID: 1, Info: 'Open', Reasons: null });
      expect(s.CapturedAmount).toBe('');
      expect(s.PaymentID).toBe(p.ID);
      expect(s.Currency).toBe('EUR');
    }
    expect(p.Splits.map((s: { Amount: string }) => s.Amount)).toEqual(['600', '300', '100']);
    expect(p.Splits[2].OriginatorTransactionID).toBe('orig-3');
  });

  it('refuses a payment with splits but no MethodID with reason 1, and stores nothing', async () => {
    const before = snapshot(w.store);
    const body = paymentBody();
    delete (body.Payment as Record<string, unknown>).MethodID;
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status).toEqual({ ID: null, Info: null, Reasons: [{ Code: 1, Info: 'Payment.MethodID is missing' }] });
    expect(res.body.Payment.ID).toBeNull();
    expect(typeof res.body.Payment.InvalidRequestID).toBe('string');
    expect(snapshot(w.store)).toBe(before);
  });
});
