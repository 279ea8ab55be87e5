// Each input schema's check (valid or not, without reasons) runs before its validator: both must judge every body alike.
import { VALIDATED } from '../../src/schemas/registry';
import { checkOf, compile, validate } from '../../src/schemas/validator';
import { paymentBody } from '../helpers/world';

const SAMPLES: unknown[] = [
  undefined,
  null,
  [],
  'text',
  {},
  paymentBody(),
  paymentBody({ Amount: 1000, Currency: 'USD', BillingAddress: { Country: 'ZW' }, ShippingAddress: { Country: 'AD' } }),
  paymentBody({ BillingAddress: { Country: 'nl' } }),
  paymentBody({ Currency: 'XXX' }),
  paymentBody({ Amount: '0' }),
  paymentBody({ Amount: 0 }),
  paymentBody({ Amount: 1.5 }),
  paymentBody({ Amount: '10.50', Currency: 'eur', Splits: [{ SiteID: 'x' }], Extra: 1 }),
  paymentBody({ Splits: [] }),
  { Payment: { Splits: [{ ID: 1, Amount: -1 }] } },
  { Refund: { Amount: 0, Description: 5 } },
  { Refund: { MerchantTransactionID: 'r-1', Amount: '600' } },
  { Splits: [{ SiteID: 30202, Amount: 1, MerchantTransactionID: '' }] },
  { Splits: [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 'a' }] },
  { Event: 'authorize' },
  { Event: 'nope' },
  { Seconds: 1 },
  { Seconds: -1 },
  { NotificationURL: 'ftp://x' },
  { NotificationURL: 'https://shop.example/n' },
  { Merchants: [{ SiteID: 1, APIKey: 'k', Name: 'n', LinkedSites: [{ SiteID: 2, Name: 'l' }] }] },
  { Merchants: [{ SiteID: 1, APIKey: 'k', Name: 'n', LinkedSites: [{ SiteID: 0 }] }] },
  { Methods: [{ ID: 1, Name: 'x', Flow: 'sideways' }] },
  { Methods: [{ ID: 1, Name: 'x', Flow: 'two-step' }] },
  { Name: 'Bad Name', Description: '', Steps: [{ Do: 'dance', After: 'soon' }] },
];

describe('schema checks', () => {
  it.each(Object.keys(VALIDATED))('%s has a check, which judges each body as its validator does', (name) => {
    const schema = VALIDATED[name]!;
    const check = checkOf(schema);
    expect(check).not.toBeNull();
    for (const sample of SAMPLES) expect([name, sample, check!(sample)]).toEqual([name, sample, compile(schema)(sample)]);
  });

  it('leave the reasons of a refused body to the validator, unchanged', () => {
    const schema = VALIDATED.createPaymentRequest!;
    const body = paymentBody({ Amount: '0', Currency: 'eur', BillingAddress: { Country: 'nl' } });
    expect(checkOf(schema)!(body)).toBe(false);
    expect(validate(schema, body).map((r) => r.Code)).toEqual([118, 100, 120]);
  });

  it('accept the valid bodies the sandbox is sent most (a payment with splits)', () => {
    expect(checkOf(VALIDATED.createPaymentRequest!)!(paymentBody())).toBe(true);
    expect(validate(VALIDATED.createPaymentRequest!, paymentBody())).toEqual([]);
  });
});
