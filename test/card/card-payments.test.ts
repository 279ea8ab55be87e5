// The card address ({card_base_url}): POST /v1/payments and GET /v1/payments/{id}.
import request from 'supertest';
import { cardPaymentResponse, messageResponse, paymentErrorResponse } from '../../src/schemas/responses';
import { MARKETPLACE, START_STAMP, type World, expectSchema, makeWorld, snapshot } from '../helpers/world';

let seq = 0;

const CARD_NUMBER = '4111111111111111';
const SECURITY_CODE = '7319';

function cardBody(overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  return {
    Payment: {
      MerchantTransactionID: `card-${++seq}`,
      Amount: 2000,
      Currency: 'EUR',
      ReturnURL: 'https://shop.example/card-return',
      Description: 'Card order',
      Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace' },
      BillingAddress: { Country: 'NL', City: 'Amsterdam' },
      Card: { HolderName: 'Ada Lovelace', Number: CARD_NUMBER, ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: SECURITY_CODE, ...card },
      ...overrides,
    },
  };
}

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysOf(v, out);
    }
  }
  return out;
}

function expectNoCardSecrets(text: string, body: unknown): void {
  expect(text).not.toContain(CARD_NUMBER);
  expect(keysOf(body)).not.toContain('SecurityCode');
  expect(text).not.toContain(`"${SECURITY_CODE}"`);
}

describe('POST /v1/payments on the card address', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const create = (body: unknown) => request(w.card).post('/v1/payments').set('Authorization', w.auth).send(body as object);

  it('requests the capture with Capture true: Status 13 CaptureRequested, CapturedAmount 0 (a JSON number) until it is captured', async () => {
    const res = await create(cardBody({ MerchantTransactionID: 'card-1', Capture: true }));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(cardPaymentResponse, res.body);
    const p = res.body.Payment;
    expect(p).toMatchObject({
      MerchantTransactionID: 'card-1',
      Amount: '2000',
      Currency: 'EUR',
      CapturedAmount: 0,
      MethodID: 6,
      SiteID: MARKETPLACE.SiteID,
      Created: START_STAMP,
      ReturnURL: 'https://shop.example/card-return',
      Description: 'Card order',
      Capture: true,
      Status: { ID: 13, Info: 'CaptureRequested', Reasons: [] },
      RedirectURL: null,
      Card: { HolderName: 'Ada Lovelace', Number: 'VISA-1111', ExpirationMonth: '12', ExpirationYear: '2030' },
      CreditCardToken: null,
    });
    expect(typeof p.CapturedAmount).toBe('number');
    expect(Number.isInteger(p.ID)).toBe(true);
    expect(p.Customer).toMatchObject({ Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace', Phone: null });
    expect(Number.isInteger(p.Customer.ID)).toBe(true);
    expect(p.BillingAddress).toMatchObject({ Country: 'NL', City: 'Amsterdam', Street: null });
    expect(Number.isInteger(p.BillingAddress.ID)).toBe(true);
    expectNoCardSecrets(res.text, res.body);
  });

  it('requests the capture when Capture is left out', async () => {
    const res = await create(cardBody());
    expect(res.status).toBe(201);
    expect(res.body.Payment).toMatchObject({ Status: { ID: 13, Info: 'CaptureRequested', Reasons: [] }, CapturedAmount: 0, Capture: true });
  });

  it('only authorizes with Capture false: Status 9 Authorized, CapturedAmount 0', async () => {
    const res = await create(cardBody({ Capture: false }));
    expect(res.status).toBe(201);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({ Status: { ID: 9, Info: 'Authorized', Reasons: [] }, CapturedAmount: 0, Capture: false });
  });

  it.each([true, false])('fails the test amount 10001 (Capture %s): Status 4 Failed, CapturedAmount 0', async (capture) => {
    const res = await create(cardBody({ Amount: 10001, Capture: capture }));
    expect(res.status).toBe(201);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({ Amount: '10001', Status: { ID: 4, Info: 'Failed', Reasons: [] }, CapturedAmount: 0 });
  });

  it.each<[unknown, string]>([
    [1, '1'],
    ['2500', '2500'],
    [10000, '10000'],
    [999999999999, '999999999999'],
  ])('takes amount %j in minor units and shows it as %j', async (amount, wire) => {
    const res = await create(cardBody({ Amount: amount, Capture: false }));
    expect(res.status).toBe(201);
    expect(res.body.Payment.Amount).toBe(wire);
    expect(res.body.Payment.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: [] });
    expect(res.body.Payment.CapturedAmount).toBe(0);
  });

  it.each<[string, string]>([
    ['4111111111111111', 'VISA-1111'],
    ['4012888888881881', 'VISA-1881'],
    ['5555555555554444', 'MASTERCARD-4444'],
    ['2223003122003222', 'MASTERCARD-3222'],
    ['378282246310005', 'AMEX-0005'],
    ['6011111111111117', 'DISCOVER-1117'],
    ['3566002020360505', 'CARD-0505'],
  ])('masks card number %s as %s, and stores it only masked', async (number, masked) => {
    const res = await create(cardBody({}, { Number: number }));
    expect(res.status).toBe(201);
    expect(res.body.Payment.Card.Number).toBe(masked);
    expect(res.text).not.toContain(number);
    expect(snapshot(w.store)).not.toContain(number);
  });

  it('never echoes or stores the security code', async () => {
    const res = await create(cardBody());
    expectNoCardSecrets(res.text, res.body);
    const got = await request(w.card).get(`/v1/payments/${res.body.Payment.ID}`).set('Authorization', w.auth);
    expectNoCardSecrets(got.text, got.body);
    const listed = await request(w.card).get('/v1/payments').set('Authorization', w.auth);
    expectNoCardSecrets(listed.text, listed.body);
    const stored = snapshot(w.store);
    expect(stored).not.toContain('SecurityCode');
    expect(stored).not.toContain(CARD_NUMBER);
  });

  it('accepts a card without a security code', async () => {
    const body = cardBody();
    delete (body.Payment.Card as Record<string, unknown>).SecurityCode;
    const res = await create(body);
    expect(res.status).toBe(201);
  });

  it('keeps optional fields null when they are not sent', async () => {
    const res = await create({
      Payment: {
        MerchantTransactionID: 'card-minimal',
        Amount: '100',
        Currency: 'USD',
        Card: { HolderName: 'A B', Number: CARD_NUMBER, ExpirationMonth: '1', ExpirationYear: '2031' },
      },
    });
    expect(res.status).toBe(201);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({
      ClientIP: null,
      SkinID: null,
      OriginatorTransactionID: null,
      ReturnURL: null,
      Description: null,
      StatementDescriptor: null,
      MethodOptionID: null,
      NotificationDateTime: null,
      Customer: null,
      BillingAddress: null,
      ShippingAddress: null,
      Articles: null,
      MethodTransactionID: null,
      PaymentTokenLifetime: null,
      Retry: false,
      RedirectURL: null,
      '3DSecure': null,
    });
  });

  it('accepts MethodID 6 and echoes the optional card fields it was sent', async () => {
    const res = await create(
      cardBody({ MethodID: 6, StatementDescriptor: 'SHOP*ORDER', Retry: true, PaymentTokenLifetime: 15, ClientIP: '203.0.113.9', SkinID: 3 }),
    );
    expect(res.status).toBe(201);
    expect(res.body.Payment).toMatchObject({ MethodID: 6, StatementDescriptor: 'SHOP*ORDER', Retry: true, PaymentTokenLifetime: 15, ClientIP: '203.0.113.9', SkinID: 3 });
  });

  describe('rejections', () => {
    let before: string;
    beforeEach(() => (before = snapshot(w.store)));

    async function rejected(body: unknown) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expectSchema(paymentErrorResponse, res.body);
      expect(res.body.Payment.ID).toBeNull();
      expect(res.body.Payment.InvalidRequestID).toMatch(/^.+$/);
      expect(res.body.Payment.Status).toMatchObject({ ID: null, Info: null });
      expectNoCardSecrets(res.text, res.body);
      expect(snapshot(w.store)).toBe(before);
      return res.body.Payment.Status.Reasons as { Code: number; Info: string }[];
    }

    it.each<[string, Record<string, unknown>, Record<string, unknown>, number, RegExp]>([
      ['a decimal amount', { Amount: '20.00' }, {}, 118, /^Payment\.Amount is invalid/],
      ['a zero amount', { Amount: 0 }, {}, 118, /^Payment\.Amount is invalid/],
      ['a negative amount', { Amount: -5 }, {}, 118, /^Payment\.Amount is invalid/],
      ['a 13-digit amount', { Amount: 1000000000000 }, {}, 118, /^Payment\.Amount is invalid/],
      ['a lower-case currency', { Currency: 'eur' }, {}, 100, /^Payment\.Currency is invalid/],
      ['an unknown currency', { Currency: 'XYZ' }, {}, 100, /^Payment\.Currency is invalid/],
      ['a bad billing country', { BillingAddress: { Country: 'nl' } }, {}, 120, /^Payment\.BillingAddress\.Country is invalid/],
      ['a non-card MethodID', { MethodID: 42 }, {}, 2, /^Payment\.MethodID is invalid/],
      ['Capture as a string', { Capture: 'true' }, {}, 2, /^Payment\.Capture is invalid/],
      ['an empty Splits list', { Splits: [] }, {}, 2, /^Payment\.Splits is invalid/],
      ['a card number with letters', {}, { Number: '4111-1111-1111-1111' }, 2, /^Payment\.Card\.Number is invalid/],
      ['a card number too short', {}, { Number: '41111111111' }, 2, /^Payment\.Card\.Number is invalid/],
      ['a card number as a JSON number', {}, { Number: 4111111111111111 }, 2, /^Payment\.Card\.Number is invalid/],
      ['month 13', {}, { ExpirationMonth: '13' }, 2, /^Payment\.Card\.ExpirationMonth is invalid/],
      ['month as a number', {}, { ExpirationMonth: 12 }, 2, /^Payment\.Card\.ExpirationMonth is invalid/],
      ['a two-digit year', {}, { ExpirationYear: '30' }, 2, /^Payment\.Card\.ExpirationYear is invalid/],
      ['a five-digit security code', {}, { SecurityCode: '73190' }, 2, /^Payment\.Card\.SecurityCode is invalid/],
    ])('refuses %s with one reason naming the field, and echoes no card secret', async (_name, overrides, card, code, info) => {
      const reasons = await rejected(cardBody(overrides, card));
      expect(reasons).toHaveLength(1);
      expect(reasons[0]!.Code).toBe(code);
      expect(reasons[0]!.Info).toMatch(info);
    });

    it.each(['MerchantTransactionID', 'Amount', 'Currency'])('refuses a card payment without %s with reason 1', async (field) => {
      const body = cardBody();
      delete (body.Payment as Record<string, unknown>)[field];
      expect(await rejected(body)).toEqual([{ Code: 1, Info: `Payment.${field} is missing` }]);
    });

    it.each(['HolderName', 'Number', 'ExpirationMonth', 'ExpirationYear'])('refuses a card without %s with reason 1', async (field) => {
      const body = cardBody();
      delete (body.Payment.Card as Record<string, unknown>)[field];
      expect(await rejected(body)).toEqual([{ Code: 1, Info: `Payment.Card.${field} is missing` }]);
    });

    it('echoes the card in a rejection with its number masked and without the security code', async () => {
      const res = await create(cardBody({ Currency: 'eur' }));
      expect(res.status).toBe(400);
      expect(res.body.Payment.Card).toEqual({ HolderName: 'Ada Lovelace', Number: 'VISA-1111', ExpirationMonth: '12', ExpirationYear: '2030' });
      expect(res.body.Payment).toMatchObject({ Currency: 'eur', Amount: 2000, CreditCardToken: null });
      expectNoCardSecrets(res.text, res.body);
    });

    it('echoes no card secret when the card itself is malformed', async () => {
      for (const card of [CARD_NUMBER, [CARD_NUMBER, SECURITY_CODE], { Number: CARD_NUMBER, SecurityCode: SECURITY_CODE }]) {
        const body = cardBody();
        (body.Payment as Record<string, unknown>).Card = card;
        const res = await create(body);
        expect(res.status).toBe(400);
        expectNoCardSecrets(res.text, res.body);
      }
      const token = cardBody({ CreditCardToken: { Value: 'tok', SecurityCode: SECURITY_CODE } });
      const res = await create(token);
      expect(res.status).toBe(400);
      expectNoCardSecrets(res.text, res.body);
    });

    it('refuses a MerchantTransactionID used before on the card address with reason 20', async () => {
      const first = await create(cardBody({ MerchantTransactionID: 'card-dup' }));
      expect(first.status).toBe(201);
      before = snapshot(w.store);
      const reasons = await rejected(cardBody({ MerchantTransactionID: 'card-dup' }));
      expect(reasons).toEqual([{ Code: 20, Info: expect.stringMatching(/^Payment\.MerchantTransactionID is duplicated/) }]);
    });

    it('gives each rejection its own InvalidRequestID', async () => {
      const a = await create(cardBody({ Currency: 'eur' }));
      const b = await create(cardBody({ Currency: 'eur' }));
      expect(a.body.Payment.InvalidRequestID).not.toBe(b.body.Payment.InvalidRequestID);
    });
  });
});

describe('GET /v1/payments/{id} on the card address', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('returns the card payment exactly as created', async () => {
    const created = await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(cardBody({ Capture: false }));
    const res = await request(w.card).get(`/v1/payments/${created.body.Payment.ID}`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body).toEqual(created.body);
    expect(res.body.Payment.Status.Reasons).toEqual([]);
    const slash = await request(w.card).get(`/v1/payments/${created.body.Payment.ID}/`).set('Authorization', w.auth);
    expect(slash.body).toEqual(created.body);
  });

  it.each(['987654321', '0', '-1', 'abc', '1.5', '99999999999999999999'])('answers 404 {"Message"} for payment %s', async (id) => {
    const res = await request(w.card).get(`/v1/payments/${id}`).set('Authorization', w.auth);
    expect(res.status).toBe(404);
    expectSchema(messageResponse, res.body);
  });
});
