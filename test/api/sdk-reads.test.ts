// The official SDK's other reads on the API address: a payment's refund types and exchange rates.
import request from 'supertest';
import { exchangeRateResponse, refundTypesResponse } from '../../src/schemas/preapprovals';
import { compile } from '../../src/schemas/validator';
import { MARKETPLACE, PLAIN, START_STAMP, type World, basic, makeWorld, paymentBody } from '../helpers/world';

describe('GET /v1/payments/{id}/refunds/types', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  async function paymentOf(methodId: number | null) {
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth)
      .send(paymentBody(methodId === null ? { MethodID: null, Splits: undefined } : { MethodID: methodId }));
    expect(res.status).toBe(201);
    return res.body.Payment.ID as number;
  }

  it('answers the types of the payment\'s method, as documented (iDEAL: SEPA Bank Transfer No Info)', async () => {
    const id = await paymentOf(2);
    const res = await request(w.api).get(`/v1/payments/${id}/refunds/types`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      RefundTypes: [{ Name: 'SEPABankTransferNoInfo', ID: 5, AllowsPartialRefund: true, AllowPartialRefund: true, Customer: null, BillingAddress: null, BankAddress: null, Details: null }],
    });
  });

  it('Bank Transfer: SEPA (with what it needs), SWIFT and local bank transfer; other methods: Native', async () => {
    const bank = await request(w.api).get(`/v1/payments/${await paymentOf(1)}/refunds/types/`).set('Authorization', w.auth);
    expect(compile(refundTypesResponse)(bank.body)).toBe(true);
    expect(bank.body.RefundTypes.map((t: any) => [t.ID, t.Name])).toEqual([[2, 'SEPABankTransfer'], [3, 'SWIFTBankTransfer'], [7, 'LocalBankTransfer']]);
    expect(bank.body.RefundTypes[0]).toEqual({
      Name: 'SEPABankTransfer', ID: 2, AllowsPartialRefund: true, AllowPartialRefund: true,
      Customer: { MerchantCustomerID: null, Email: null, FirstName: '^.{1,50}$', LastName: '^.{1,50}$', Gender: null, SocialSecurityNumber: null, Phone: null, Company: null },
      BillingAddress: null, BankAddress: null,
      Details: { BankCode: '^[a-zA-Z]{4}[a-zA-Z]{2}[a-zA-Z0-9]{2}[XXX0-9]{0,3}', CustomerIBAN: '^[a-zA-Z]{2}[0-9]{2}[a-zA-Z0-9]{4}[0-9]{7}([a-zA-Z0-9]?){0,16}$' },
    });
    const paypal = await request(w.api).get(`/v1/payments/${await paymentOf(42)}/refunds/types`).set('Authorization', w.auth);
    expect(paypal.body).toEqual({ RefundTypes: [{ Name: 'Native', ID: 1, AllowsPartialRefund: true, AllowPartialRefund: true, Customer: null, BillingAddress: null, BankAddress: null, Details: null }] });
    // No method chosen yet: nothing to refund with.
    const none = await request(w.api).get(`/v1/payments/${await paymentOf(null)}/refunds/types`).set('Authorization', w.auth);
    expect(none.body).toEqual({ RefundTypes: [] });
  });

  it('is no longer taken for a refund ID; unknown or foreign payments are a 404', async () => {
    const id = await paymentOf(2);
    expect((await request(w.api).get('/v1/payments/999/refunds/types').set('Authorization', w.auth)).body).toEqual({ Message: 'Payment not found.' });
    const foreign = await request(w.api).get(`/v1/payments/${id}/refunds/types`).set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey));
    expect(foreign.status).toBe(404);
    expect((await request(w.api).get(`/v1/payments/${id}/refunds/types`)).status).toBe(401);
    // A refund ID still reads the refund (404 here: there is none).
    expect((await request(w.api).get(`/v1/payments/${id}/refunds/16401`).set('Authorization', w.auth)).body).toEqual({ Message: 'Refund not found.' });
  });
});

describe('GET /v1/exchangerates/{from}/{to}/', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());
  const auth = () => basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

  it('answers ExchangeRate with From, To, DateTime and Rate from the fixture table (the SDK\'s path, trailing slash)', async () => {
    const res = await request(w.api).get('/v1/exchangerates/EUR/USD/').set('Authorization', auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ExchangeRate: { From: 'EUR', To: 'USD', DateTime: START_STAMP, Rate: 1.0856 } });
    expect(compile(exchangeRateResponse)(res.body)).toBe(true);
    // A cross rate, exact to 6 decimals (half up): 0.8532 / 1.0856 = 0.785924…
    expect((await request(w.api).get('/v1/exchangerates/usd/gbp').set('Authorization', auth())).body).toEqual({
      ExchangeRate: { From: 'USD', To: 'GBP', DateTime: START_STAMP, Rate: 0.785925 },
    });
    expect((await request(w.api).get('/v1/exchangerates/EUR/EUR').set('Authorization', auth())).body.ExchangeRate.Rate).toBe(1);
  });

  it('a currency the table lacks is a 404, one that is no code a 400, both {"Message"}; credentials needed', async () => {
    const missing = await request(w.api).get('/v1/exchangerates/EUR/XAU/').set('Authorization', auth());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ Message: 'No exchange rate from EUR to XAU.' });
    const bad = await request(w.api).get('/v1/exchangerates/EURO/USD/').set('Authorization', auth());
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ Message: 'The from currency is invalid: EURO is no ISO 4217 code' });
    expect((await request(w.api).get('/v1/exchangerates/EUR/USD/')).status).toBe(401);
  });
});
