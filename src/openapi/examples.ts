// Example request bodies of the OpenAPI document, with the fixture merchant's linked sites. A test
// checks that each one passes the schema it illustrates.
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  'POST /v1/payments api': {
    Payment: {
      MerchantTransactionID: 'order-1001',
      Amount: '1000',
      Currency: 'EUR',
      MethodID: 42,
      ReturnURL: 'https://shop.example/return',
      TokenLifetime: 10,
      Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace' },
      BillingAddress: { Country: 'NL' },
      Splits: [
        { SiteID: 30202, Amount: '600', MerchantTransactionID: 'order-1001-a' },
        { SiteID: 30203, Amount: '400', MerchantTransactionID: 'order-1001-b' },
      ],
    },
  },
  'POST /v1/payments/{id}/splits api': { Splits: [{ SiteID: 30204, Amount: '100', MerchantTransactionID: 'order-1001-c' }] },
  'POST /v1/payments/{id}/capture api': { Payment: { Splits: [{ ID: 7001, Amount: 300 }, { ID: 7002, Amount: 400 }] } },
  'POST /v1/payments/{id}/splits/{splitId}/refunds api': { Refund: { Amount: 200, Description: 'returned item' } },
  'POST /v1/payments/{id}/refunds api': { Refund: { Amount: 500, Description: 'order returned' } },
  'POST /v1/payments/{id}/capture card': { Payment: { Split: { ID: 7001, Amount: 6000 } } },
  'POST /v1/payouts card': {
    Payout: {
      MerchantTransactionID: 'payout-1',
      Amount: 1000,
      Currency: 'EUR',
      Description: 'seller payout',
      Card: { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' },
    },
  },
  'POST /v1/card/authenticate card': {
    CardAuthentication: {
      Customer: { FirstName: 'John', LastName: 'Doe', Email: 'john@example.com' },
      BillingAddress: { Country: 'BR' },
      Card: { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: '312' },
    },
  },
  'POST /_sandbox/disputes/{id}/events control': { Event: 'lose' },
  'POST /v1/payments/{id}/refunds card': { Refund: { MerchantTransactionID: 'card-1-refund-1', Amount: 2000, Description: 'order returned' } },
  'POST /v1/payments/{id}/splits/{splitId}/refunds card': { Refund: { MerchantTransactionID: 'card-1-refund-2', Amount: 600 } },
  'POST /v1/payments card': {
    Payment: {
      MerchantTransactionID: 'card-1',
      Amount: 2000,
      Currency: 'EUR',
      Capture: true,
      Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '123' },
    },
  },
  'POST /_sandbox/merchants control': { Name: 'Test marketplace', LinkedSites: 2, NotificationURL: 'http://127.0.0.1:9999/hook', Clock: 'manual' },
  'PATCH /_sandbox/merchants/{siteId} control': { NotificationURL: 'http://127.0.0.1:9999/hook', DefaultScenario: 'two-step' },
  'POST /_sandbox/payments/{id}/events control': { Event: 'authorize' },
  'POST /_sandbox/refunds/{id}/events control': { Event: 'succeed' },
  'POST /_sandbox/preapprovals/{id}/events control': { Event: 'open' },
  'POST /v1/preapprovals api': {
    Preapproval: {
      MerchantPreapprovalID: 'subscription-1',
      Description: '1 year subscription',
      ReturnURL: 'https://shop.example/return',
      MethodID: 2,
      Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'payer@example.com' },
      BillingAddress: { Country: 'NL' },
    },
  },
  'PATCH /v1/preapprovals/{id} api': {
    Preapproval: { Description: '1 year subscription, renewed', ReturnURL: 'https://shop.example/preapproval-return', Customer: { Email: 'jdoe@example.com' } },
  },
  'POST /v1/merchantsites api': {
    MerchantSite: {
      URL: 'https://seller.example',
      Active: true,
      NotificationURL: 'https://seller.example/notifications',
      Alias: 'Seller shop',
      Details: { Name: 'Seller B.V.', Country: 'NL', City: 'Amsterdam', Email: 'finance@seller.example', MCC: '5945', MainBusiness: 'toys' },
    },
  },
  'PATCH /v1/merchantsites/{siteId} api': { MerchantSite: { NotificationURL: 'https://seller.example/notifications-v2', Details: { City: 'Utrecht' } } },
  'POST /v1/payments/recurrent api': {
    Payment: { PreapprovalID: 4201, MerchantTransactionID: 'subscription-1-month-2', Amount: 1000, Currency: 'EUR', Customer: { Email: 'payer@example.com' } },
  },
  'POST /_sandbox/clock/advance control': { Seconds: 2 },
  'POST /_sandbox/faults control': { Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments/{id}/capture', SiteID: 30201 }, Action: { Status: 503 }, Times: 1 },
  'POST /_sandbox/snapshots control': { Name: 'before-refund' },
  'POST /_sandbox/merchants/{siteId}/clock/advance control': { Seconds: 2 },
  'POST /_sandbox/merchants/{siteId}/snapshots control': { Name: 'baseline' },
  'POST /_sandbox/merchants/{siteId}/faults control': { Channel: 'notifications', Action: { Drop: true }, Times: 1 },
  'POST /_sandbox/merchants/{siteId}/payments/{id}/events control': { Event: 'authorize' },
  'POST /_sandbox/merchants/{siteId}/refunds/{id}/events control': { Event: 'succeed' },
  'POST /_sandbox/merchants/{siteId}/disputes/{id}/events control': { Event: 'win' },
  'POST /_sandbox/replay control': {
    Name: 'story-3005042',
    Description: 'What happened to payment 3005042 (order-1001): Open → Authorized → PartiallyCaptured; refund 1 Success.',
    CaptureRequested: false,
    Steps: [
      { On: 'created', After: '2000ms', Do: 'authorize' },
      { On: 'created', After: '5000ms', Do: 'capture-split', Split: 0, Amount: '500' },
      { On: 'created', After: '9000ms', Do: 'refund', Split: 0, Amount: '200', Description: 'returned item' },
      { On: 'created', After: '10000ms', Do: 'refund-succeed', Refund: 0 },
    ],
    Refunds: { Outcome: 'none' },
    Request: {
      Payment: {
        MerchantTransactionID: 'order-1001',
        Amount: '1000',
        Currency: 'EUR',
        MethodID: 42,
        ReturnURL: 'https://shop.example/return',
        Splits: [
          { SiteID: 30202, Amount: '600', MerchantTransactionID: 'order-1001-a' },
          { SiteID: 30203, Amount: '400', MerchantTransactionID: 'order-1001-b' },
        ],
      },
    },
    Story: { PaymentID: 3005042, SiteID: 30201 },
  },
};
// A marketplace replays the same story as its own payment.
REQUEST_EXAMPLES['POST /_sandbox/merchants/{siteId}/replay control'] = REQUEST_EXAMPLES['POST /_sandbox/replay control'];
