// Every kind of notification the official .NET SDK's NotificationProcessor handles arrives at a real
// receiver in a form its classes take: {"Payment"} (card, MethodID 6, and APM), {"Refund"},
// {"Preapproval"}, {"Payout"} and {"Dispute"}. The kind is the first key; each value is checked against
// the .NET type of the property that receives it, as Json.NET converts JSON (a null into a non-nullable
// number, a number out of range or an object into a string fails the whole notification).
import request from 'supertest';
import { AUTH, type Rig, advance, boot, createPayment, shutdown } from './harness';

/** A .NET property type, as the SDK's classes declare it; `?` after a key: the property may be absent. */
type Net =
  | 'string'
  | 'int'
  | 'int?'
  | 'long?'
  | 'short?'
  | 'byte'
  | 'byte?'
  | 'bool?'
  | 'object'
  | 'dictionary'
  | { list: Net }
  | { [key: string]: Net };

const RANGES: Record<string, [number, number]> = { int: [-(2 ** 31), 2 ** 31 - 1], long: [-(2 ** 53), 2 ** 53], short: [-32768, 32767], byte: [0, 255] };

/** The problems Json.NET would have putting `value` into a property of type `t` at `path`. */
function problems(t: Net, value: unknown, path: string): string[] {
  if (typeof t === 'string') {
    const nullable = t.endsWith('?');
    const base = t.replace('?', '');
    if (value === null) return nullable || base === 'string' || base === 'object' || base === 'dictionary' ? [] : [`${path}: null into a non-nullable ${t}`];
    if (base === 'string') return typeof value === 'object' ? [`${path}: an ${Array.isArray(value) ? 'array' : 'object'} into a string`] : [];
    if (base === 'bool') return typeof value === 'boolean' ? [] : [`${path}: ${JSON.stringify(value)} into a ${t}`];
    if (base === 'object') return typeof value === 'object' && !Array.isArray(value) ? [] : [`${path}: ${JSON.stringify(value)} into an object`];
    if (base === 'dictionary') {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: ${JSON.stringify(value)} into a dictionary`];
      return Object.entries(value as object).flatMap(([k, v]) => problems('string', v, `${path}.${k}`));
    }
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : NaN;
    const [lo, hi] = RANGES[base]!;
    return Number.isInteger(n) && n >= lo && n <= hi ? [] : [`${path}: ${JSON.stringify(value)} into a ${t}`];
  }
  if (value === null) return [];
  if ('list' in t && Object.keys(t).length === 1 && typeof t.list !== 'undefined') {
    if (!Array.isArray(value)) return [`${path}: ${JSON.stringify(value)} into a list`];
    return value.flatMap((v, i) => problems(t.list as Net, v, `${path}[${i}]`));
  }
  if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: ${JSON.stringify(value)} into an object`];
  const o = value as Record<string, unknown>;
  return Object.entries(t).flatMap(([key, type]) => {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    if (!(name in o)) return optional ? [] : [`${path}.${name}: missing`];
    return problems(type as Net, o[name], `${path}.${name}`);
  });
}

// The SDK's entities, by the .NET type of each property the notification fills.
const customer: Net = {
  ID: 'int', MerchantCustomerID: 'string', Email: 'string', FirstName: 'string', LastName: 'string', Gender: 'string',
  SocialSecurityNumber: 'string', Phone: 'string', Company: 'string', DateOfBirth: 'string',
};
// A split payment's addresses carry no ID (spec 2.1), a payment's without splits do; a member absent leaves the property at its default.
const address: Net = {
  'ID?': 'int', City: 'string', ZipCode: 'string', State: 'string', Street: 'string', StreetNumber: 'string', HouseNumber: 'string',
  HouseExtension: 'string', Country: 'string',
};
const paymentStatus: Net = { ID: 'byte?', Info: 'string', Reasons: { list: { Code: 'string', Info: 'string' } } };
const cardStatus: Net = { ID: 'byte?', Info: 'string', Reasons: { list: { Code: 'int?', Info: 'string' } } };
const CARD_PAYMENT: Net = {
  ID: 'long?', ClientIP: 'string', SkinID: 'int?', Created: 'string', MerchantTransactionID: 'string', OriginatorTransactionID: 'string',
  Amount: 'long?', Currency: 'string', CapturedAmount: 'long?', ReturnURL: 'string', Description: 'string', StatementDescriptor: 'string',
  'MethodOptionID': 'int?', SiteID: 'int?', NotificationDateTime: 'string', Customer: customer, BillingAddress: address,
  ShippingAddress: address, Articles: { list: 'object' }, 'Details?': 'object', 'ReferenceDetails?': 'string', 'CustomParameters?': 'string',
  Card: { HolderName: 'string', Number: 'string', ExpirationMonth: 'string', ExpirationYear: 'string' },
  CreditCardToken: { Value: 'string', 'SecurityCode?': 'string' }, Status: cardStatus, MethodTransactionID: 'string',
  PaymentTokenLifetime: 'int?', Capture: 'bool?', Retry: 'bool?', RedirectURL: 'string', '3DSecure': 'bool?',
  Fraud: { Status: 'string', 'CheckMode?': 'string', Score: 'int', Reason: 'string' },
};
const APM_PAYMENT: Net = {
  ID: 'int?', SkinID: 'int?', ClientIP: 'string', Created: 'string', MerchantTransactionID: 'string', OriginatorTransactionID: 'string',
  Amount: 'long?', Currency: 'string', CapturedAmount: 'long?', ReturnURL: 'string', Description: 'string', MethodID: 'short?',
  MethodOptionID: 'short?', 'IncludeMethodIDs?': { list: 'int' }, 'ExcludeMethodIDs?': { list: 'int' }, 'PrioritizeMethodIDs?': { list: 'int' },
  SiteID: 'int?', NotificationDateTime: 'string', Customer: customer, BillingAddress: address, ShippingAddress: address,
  Articles: { list: 'object' }, Details: 'object', 'ReferenceDetails?': 'object', 'CustomParameters?': 'dictionary', 'PreapprovalID?': 'int?',
  Status: paymentStatus, MethodTransactionID: 'string', TokenLifetime: 'int?', 'Capture?': 'bool?', 'RedirectInIframe?': 'bool?',
  'RedirectMerchantInIframe?': 'bool?', 'PreapprovalDetails?': 'object', RedirectURL: 'string',
};
const REFUND: Net = {
  ID: 'int', Created: 'string', MerchantTransactionID: 'string', OriginatorTransactionID: 'string', InitialPaymentID: 'int', Amount: 'long?',
  Currency: 'string', Description: 'string', TypeID: 'int', SiteID: 'int?', Details: 'object', Customer: customer, BillingAddress: address,
  BankAddress: address, Articles: { list: 'object' }, Status: paymentStatus,
};
const PREAPPROVAL: Net = {
  ID: 'int?', Created: 'string', MethodID: 'short?', SiteID: 'int?', MerchantPreapprovalID: 'string', 'RecurringPeriod?': 'int?',
  PreapprovedMaximumAmount: 'string', Currency: 'string', ReturnURL: 'string', Description: 'string', Customer: customer, BillingAddress: address,
  Status: { ID: 'byte', Info: 'string', Reasons: { list: { Code: 'string', Info: 'string' } } }, RedirectURL: 'string', MethodOptionID: 'int',
  'PreapprovedFrequency?': 'string',
};
const PAYOUT: Net = {
  ID: 'long?', SiteID: 'int?', Created: 'string', MerchantTransactionID: 'string', Amount: 'long?', Currency: 'string', Description: 'string',
  StatementDescriptor: 'string', 'Customer?': customer, 'BillingAddress?': address, Status: cardStatus, 'MethodTransactionID?': 'string',
};
const DISPUTE: Net = {
  ID: 'int?', SiteID: 'int?', Created: 'string', PaymentID: 'int', MethodID: 'short?', Amount: 'long?', Currency: 'string', Status: paymentStatus,
};

/** Which class the processor picks for a body (its first key; a Payment by its MethodID), and what that class finds wrong in it. */
function asTheSdkReadsIt(body: Record<string, any>): { kind: string; problems: string[] } {
  const keys = Object.keys(body);
  if (keys.length !== 1) return { kind: 'unknown', problems: [`one top-level key expected, got ${keys.join(', ')}`] };
  const kind = keys[0]!;
  const type: Record<string, Net> = { Refund: REFUND, Preapproval: PREAPPROVAL, Payout: PAYOUT, Dispute: DISPUTE };
  if (kind === 'Payment') {
    const card = Number(body.Payment.MethodID) === 6;
    return { kind: card ? 'Payment (card)' : 'Payment (APM)', problems: problems(card ? CARD_PAYMENT : APM_PAYMENT, body.Payment, 'Payment') };
  }
  if (!(kind in type)) return { kind: 'unknown', problems: [`no class for ${kind}`] };
  return { kind, problems: problems(type[kind]!, body[kind], kind) };
}

describe('the notifications the .NET SDK’s NotificationProcessor handles, at a real receiver', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  const CARD = { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' };

  it('sends every kind, each in a form its class takes: Payment (APM and card), Refund, Preapproval, Payout, Dispute', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const api = (path: string) => request(sb.baseUrl).post(path).set('Authorization', AUTH);
    const card = (path: string) => request(sb.cardBaseUrl).post(path).set('Authorization', AUTH);

    // An APM marketplace payment, authorized, captured, one split refunded.
    const apm = await createPayment(sb);
    await request(sb.baseUrl).post(`/_sandbox/payments/${apm.ID}/events`).send({ Event: 'authorize' }).expect(200);
    await api(`/v1/payments/${apm.ID}/capture`).expect(200);
    await api(`/v1/payments/${apm.ID}/splits/${apm.Splits[0].ID}/refunds`).send({ Refund: { Amount: '100' } }).expect(201);
    // A card payment captured as it asked, then disputed; a preapproval; two card payouts, one failing.
    const paid = (await card('/v1/payments').send({ Payment: { MerchantTransactionID: 'kinds-card', Amount: 9000, Currency: 'EUR', Capture: true, Card: CARD, Customer: { Email: 'payer@example.com' }, BillingAddress: { Country: 'RO' } } }).expect(201)).body.Payment;
    await api('/v1/preapprovals')
      .send({ Preapproval: { MerchantPreapprovalID: 'kinds-sub', MethodID: 2, ReturnURL: 'https://shop.example/return', Description: 'subscription', Customer: { Email: 'a@example.com' }, BillingAddress: { Country: 'NL' } } })
      .expect(201);
    await advance(sb, 5);
    await request(sb.baseUrl).post(`/_sandbox/payments/${paid.ID}/events`).send({ Event: 'dispute' }).expect(200);
    const payout = (await card('/v1/payouts').send({ Payout: { MerchantTransactionID: 'kinds-payout', Amount: 1000, Currency: 'EUR', Description: 'payment product', Card: CARD } }).expect(201)).body.Payout;
    const failed = (await card('/v1/payouts').send({ Payout: { MerchantTransactionID: 'kinds-payout-2', Amount: 1000, Currency: 'EUR', Card: { ...CARD, ExpirationYear: '2018' } } }).expect(400)).body.Payout;
    await advance(sb, 5);

    const read = rx.received.map((r) => asTheSdkReadsIt(r.body));
    expect(read.flatMap((r) => r.problems)).toEqual([]);
    expect(new Set(read.map((r) => r.kind))).toEqual(new Set(['Payment (APM)', 'Payment (card)', 'Refund', 'Preapproval', 'Payout', 'Dispute']));
    expect(rx.received.every((r) => r.headers.authorization === AUTH)).toBe(true);

    // The card payout notifications, key for key as the SDK's own example of one.
    const payouts = rx.received.filter((r) => 'Payout' in r.body).map((r) => r.body);
    expect(payouts).toEqual([
      {
        Payout: {
          ID: payout.ID,
          SiteID: 30201,
          Created: '20260115100005',
          MerchantTransactionID: 'kinds-payout',
          Amount: 1000,
          Currency: 'EUR',
          Description: 'payment product',
          StatementDescriptor: null,
          Status: { ID: 2, Info: 'Success', Reasons: [] },
        },
      },
      {
        Payout: {
          ID: failed.ID,
          SiteID: 30201,
          Created: '20260115100005',
          MerchantTransactionID: 'kinds-payout-2',
          Amount: 1000,
          Currency: 'EUR',
          Description: null,
          StatementDescriptor: null,
          Status: failed.Status,
        },
      },
    ]);
    expect(failed.Status.ID).toBe(4);
    // The dispute, as the SDK's example of one: PaymentID a number (its class holds it in an int).
    const dispute = rx.received.find((r) => 'Dispute' in r.body)!.body;
    expect(dispute).toEqual({
      Dispute: { ID: expect.any(Number), SiteID: 30201, Created: '20260115100005', PaymentID: paid.ID, MethodID: 6, Amount: '9000', Currency: 'EUR', Status: { ID: 1, Info: 'Open', Reasons: null } },
    });
    // A card payment's notification carries MethodID 6, which routes it to the card class.
    expect(rx.received.filter((r) => r.body.Payment?.MethodID === 6).map((r) => r.body.Payment.Status.ID)).toEqual([11]);

    // The payout's notifications are in the journal, named by PayoutID.
    const journal = (await request(sb.baseUrl).get(`/_sandbox/notifications?PayoutID=${payout.ID}`)).body.Notifications;
    expect(journal.map((n: any) => [n.PaymentID, n.PayoutID, n.StatusID, n.StatusInfo, n.State])).toEqual([[null, payout.ID, 2, 'Success', 'delivered']]);
  });

  it('sends each payout in a queue of its own: one whose receiver fails does not hold back the next', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const card = (path: string) => request(sb.cardBaseUrl).post(path).set('Authorization', AUTH);
    rx.answers = [500];
    const first = (await card('/v1/payouts').send({ Payout: { MerchantTransactionID: 'q-1', Amount: 1000, Currency: 'EUR', Card: CARD } }).expect(201)).body.Payout;
    await advance(sb, 0);
    const second = (await card('/v1/payouts').send({ Payout: { MerchantTransactionID: 'q-2', Amount: 2000, Currency: 'EUR', Card: CARD } }).expect(201)).body.Payout;
    await advance(sb, 0);
    // The first was answered 500 and waits for its retry; the second went all the same.
    expect(rx.received.map((r) => r.body.Payout.ID)).toEqual([first.ID, second.ID]);
    await advance(sb, 1);
    expect(rx.received.map((r) => r.body.Payout.ID)).toEqual([first.ID, second.ID, first.ID]);
  });

  it('the type check finds what the SDK would refuse (a null into an int, an object into a string, a second top-level key)', () => {
    expect(asTheSdkReadsIt({ Dispute: { ID: 1, SiteID: 1, Created: 'x', PaymentID: null, MethodID: 6, Amount: '1', Currency: 'EUR', Status: null } }).problems).toEqual([
      'Dispute.PaymentID: null into a non-nullable int',
    ]);
    expect(asTheSdkReadsIt({ Payout: { ID: 1, SiteID: 1, Created: 'x', MerchantTransactionID: {}, Amount: 1, Currency: 'EUR', Description: null, StatementDescriptor: null, Status: null } }).problems).toEqual([
      'Payout.MerchantTransactionID: an object into a string',
    ]);
    expect(asTheSdkReadsIt({ Refund: {}, Payment: {} }).kind).toBe('unknown');
  });
});
