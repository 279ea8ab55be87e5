// The seeded marketplace, its sites, the tests' start time and a create body: what tests share that needs no world (no src/ loaded).

export const MARKETPLACE = { SiteID: 30201, APIKey: '5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=' };
export const PLAIN = { SiteID: 30300, APIKey: 'P1ainSh0p+Key/For=Sandbox' };
export const LINKED = [30202, 30203, 30204] as const;
/** 2026-01-15 10:00:00 UTC: every test starts at this sandbox time. */
export const START = Date.UTC(2026, 0, 15, 10, 0, 0);
export const START_STAMP = '20260115100000';

export function basic(siteId: number, apiKey: string): string {
  return 'Basic ' + Buffer.from(`${siteId}:${apiKey}`, 'utf8').toString('base64');
}

/** A create-payment body with three splits (600 + 300 + 100 of 1000 EUR, two-step PayPal). */
export function paymentBody(overrides: Record<string, unknown> = {}) {
  return {
    Payment: {
      MerchantTransactionID: `order-${Math.random().toString(36).slice(2, 10)}`,
      Amount: '1000',
      Currency: 'EUR',
      MethodID: 42,
      ReturnURL: 'https://shop.example/return',
      TokenLifetime: 10,
      Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace' },
      BillingAddress: { Country: 'NL' },
      Splits: [
        { SiteID: 30202, Amount: '600', MerchantTransactionID: 'split-1' },
        { SiteID: 30203, Amount: '300', MerchantTransactionID: 'split-2' },
        { SiteID: 30204, Amount: '100', MerchantTransactionID: 'split-3', OriginatorTransactionID: 'orig-3' },
      ],
      ...overrides,
    },
  };
}
