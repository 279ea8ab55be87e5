// The refund types of a method before any payment (`GET /v1/refunds/types/{methodId}/{country}/{currency}`),
// as SDK-NET's GetRefundTypesAsync(methodId, country, currency) calls it: the same catalogue as a payment's.
import request from 'supertest';
import { refundTypesResponse } from '../../src/schemas/preapprovals';
import { type World, basic, createPayment, expectSchema, makeWorld, MARKETPLACE } from '../helpers/world';

const NATIVE = { Name: 'Native', ID: 1, AllowsPartialRefund: true, AllowPartialRefund: true, Customer: null, BillingAddress: null, BankAddress: null, Details: null };

describe('refund types of a method', () => {
  let w: World;
  beforeEach(() => {
    w = makeWorld();
  });
  afterEach(() => w.close());

  const get = (path: string, auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey)) => request(w.api).get(path).set('Authorization', auth);

  it('answers the SDK integration test’s call (method 49, ToditoCash, in MX, MXN) with its types', async () => {
    const res = await get('/v1/refunds/types/49/MX/MXN');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ RefundTypes: [NATIVE] });
    expectSchema(refundTypesResponse, res.body);
  });

  it('answers a catalogue method in a country and currency it takes with the types a payment of it has', async () => {
    const res = await get('/v1/refunds/types/1/NL/EUR');
    expect(res.status).toBe(200);
    expect(res.body.RefundTypes.map((t: { ID: number; Name: string }) => [t.ID, t.Name])).toEqual([
      [2, 'SEPABankTransfer'],
      [3, 'SWIFTBankTransfer'],
      [7, 'LocalBankTransfer'],
    ]);
    // The same as the payment route answers for a payment of that method.
    const payment = await createPayment(w, { MethodID: 1 });
    expect((await get(`/v1/payments/${payment.ID}/refunds/types`)).body).toEqual(res.body);
    // Codes in any case, and a trailing slash.
    expect((await get('/v1/refunds/types/1/nl/eur/')).body).toEqual(res.body);
  });

  it('answers an empty list where a catalogue method does not take the country or the currency', async () => {
    expect((await get('/v1/refunds/types/2/DE/EUR')).body).toEqual({ RefundTypes: [] });
    expect((await get('/v1/refunds/types/2/NL/USD')).body).toEqual({ RefundTypes: [] });
  });

  it('refuses a country or currency that is no ISO code, and a method that is no ID, with 400 {"Message"}', async () => {
    const country = await get('/v1/refunds/types/1/XX/EUR');
    expect(country.status).toBe(400);
    expect(country.body).toEqual({ Message: 'Country code is invalid: expected an ISO 3166-1 alpha-2 code such as NL, got "XX"' });
    const currency = await get('/v1/refunds/types/1/NL/EURO');
    expect(currency.status).toBe(400);
    expect(currency.body.Message).toMatch(/^Currency is invalid/);
    const method = await get('/v1/refunds/types/0/NL/EUR');
    expect(method.status).toBe(400);
    expect(method.body.Message).toMatch(/^MethodID is invalid/);
  });

  it('answers 401 without valid credentials', async () => {
    const res = await get('/v1/refunds/types/1/NL/EUR', basic(MARKETPLACE.SiteID, 'wrong'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ Message: 'Authorization has been denied for this request.' });
  });
});
