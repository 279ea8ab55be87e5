// Field-by-field validation of POST /v1/payments: every rejection is a 400 in the Payment envelope,
// one reason per faulty field naming it exactly, and nothing is stored.
import request from 'supertest';
import { paymentErrorResponse, paymentResponse } from '../../src/schemas/responses';
import { type World, createPayment, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

type Reason = { Code: number; Info: string };

/** The create body with `path` (dot/bracket path under Payment) set to `value`; undefined removes it. */
function bodyWith(path: string, value: unknown): Record<string, unknown> {
  const body = paymentBody({ MerchantTransactionID: 'order-fields' }) as unknown as Record<string, unknown>;
  const parts = ['Payment', ...path.split(/\.|\[|\]/).filter(Boolean)];
  let node = body as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) {
    if (node[p] === null || typeof node[p] !== 'object') node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return body;
}

/** JSON text of the create body with `field` under Payment set to a raw JSON literal (e.g. 1e3). */
function rawBodyWith(path: string, literal: string): string {
  const marker = '"__RAW_LITERAL__"';
  return JSON.stringify(bodyWith(path, '__RAW_LITERAL__')).replace(marker, literal);
}

/**
 * A world per configuration, kept from one test to the next while its database is exactly as a new
 * one's (most tests here only send refused requests, which change nothing): making a world for each
 * of two hundred tests was most of this file's time. A test that leaves anything behind gets its
 * world closed after it, and the next test a new one.
 */
const kept = new Map<string, { world: World; pristine: string }>();
function worldFor(kind: 'plain' | 'strict'): { world: World; pristine: string } {
  let found = kept.get(kind);
  if (!found) {
    const world = makeWorld(kind === 'strict' ? { strictFields: true } : {});
    kept.set(kind, (found = { world, pristine: snapshot(world.store) }));
  }
  return found;
}

describe('POST /v1/payments field validation', () => {
  let w: World;
  let before: string;
  let kind: 'plain' | 'strict';
  beforeEach(() => {
    kind = 'plain';
    ({ world: w, pristine: before } = worldFor(kind));
  });
  afterEach(() => {
    const held = kept.get(kind)!;
    if (snapshot(held.world.store) === held.pristine) return;
    held.world.close();
    kept.delete(kind);
  });
  afterAll(() => {
    for (const { world } of kept.values()) world.close();
    kept.clear();
  });

  async function rejected(body: unknown): Promise<{ reasons: Reason[]; payment: Record<string, unknown> }> {
    const req = request(w.api).post('/v1/payments').set('Authorization', w.auth);
    const res = typeof body === 'string' ? await req.set('Content-Type', 'application/json').send(body) : await req.send(body as object);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(paymentErrorResponse, res.body);
    const payment = res.body.Payment;
    expect(payment.ID).toBeNull();
    expect(payment.Status.ID).toBeNull();
    expect(payment.Status.Info).toBeNull();
    expect(typeof payment.InvalidRequestID).toBe('string');
    expect(payment.InvalidRequestID.length).toBeGreaterThan(0);
    expect(snapshot(w.store)).toBe(before);
    return { reasons: payment.Status.Reasons, payment };
  }

  async function expectOneReason(body: unknown, code: number, info: RegExp | string): Promise<void> {
    const { reasons } = await rejected(body);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]!.Code).toBe(code);
    if (typeof info === 'string') expect(reasons[0]!.Info).toBe(info);
    else expect(reasons[0]!.Info).toMatch(info);
  }

  const invalid = (field: string) => new RegExp(`^${field.replace(/[.[\]]/g, (c) => '\\' + c)} is invalid: `);

  describe('wrong types', () => {
    it.each<[string, unknown, number, string?]>([
      ['MerchantTransactionID', 123, 2],
      ['MerchantTransactionID', null, 2],
      ['MerchantTransactionID', ['a'], 2],
      ['MerchantTransactionID', '', 2],
      ['OriginatorTransactionID', 5, 2],
      ['OriginatorTransactionID', {}, 2],
      ['Amount', { value: 1000 }, 118],
      ['Amount', [1000], 118],
      ['Currency', 978, 100],
      ['Currency', null, 100],
      ['Currency', ['EUR'], 100],
      ['MethodID', '42', 2],
      ['MethodID', true, 2],
      ['MethodID', [42], 2],
      ['MethodOptionID', 'x', 2],
      ['SkinID', true, 2],
      ['SkinID', -1, 2],
      ['ClientIP', 1, 2],
      ['ReturnURL', 1, 2],
      ['ReturnURL', null, 2],
      ['ReturnURL', 'not a url', 2],
      ['ReturnURL', 'ftp://shop.example/return', 2],
      ['Description', [], 2],
      ['Description', 'x'.repeat(1025), 2],
      ['TokenLifetime', '10', 2],
      ['TokenLifetime', 0, 2],
      ['TokenLifetime', -10, 2],
      ['Customer', 'payer@example.com', 2],
      ['Customer', [], 2],
      ['Customer.Email', 5, 102],
      ['Customer.Email', 'not-an-email', 102],
      ['Customer.FirstName', 5, 2],
      ['Customer.LastName', { first: 'a' }, 2],
      ['Customer.Phone', 316123456, 2],
      ['BillingAddress', 'NL', 2],
      ['BillingAddress', [], 2],
      ['BillingAddress.City', 1, 2],
      ['ShippingAddress', 7, 2],
      ['ShippingAddress.ZipCode', 1234, 2],
      ['IncludeMethodIDs', '1,2', 2],
      ['IncludeMethodIDs', ['1'], 2, 'IncludeMethodIDs[0]'],
      ['IncludeMethodIDs', [1, 2.5], 2, 'IncludeMethodIDs[1]'],
      ['ExcludeMethodIDs', 3, 2],
      ['PrioritizeMethodIDs', [0], 2, 'PrioritizeMethodIDs[0]'],
      ['Articles', 'basket', 2],
      ['Articles', [{ Quantity: 'two' }], 2, 'Articles[0].Quantity'],
      ['CustomParameters', 'a=b', 2],
      ['Capture', 'true', 2],
      ['PreapprovalID', 'x', 2],
      ['Splits', {}, 2],
      ['Splits', 'split', 2],
      ['Splits', [], 2],
      ['Splits[0]', 'split', 2],
      ['Splits[1]', null, 2],
      ['Splits[0].SiteID', '30202', 2],
      ['Splits[0].SiteID', null, 2],
      ['Splits[0].SiteID', 0, 2],
      ['Splits[0].SiteID', -30202, 2],
      ['Splits[2].MerchantTransactionID', 1, 2],
      ['Splits[2].MerchantTransactionID', '', 2],
      ['Splits[2].OriginatorTransactionID', 1, 2],
    ])('refuses Payment.%s = %j with reason %i naming the field', async (field, value, code, named = field) => {
      await expectOneReason(bodyWith(field, value), code, invalid(`Payment.${named}`));
    });

    it.each<[string, unknown]>([
      ['a string', 'payment'],
      ['an array', [paymentBody().Payment]],
      ['a number', 1],
      ['null', null],
      ['true', true],
    ])('refuses Payment given as %s', async (_name, value) => {
      await expectOneReason({ Payment: value }, 2, /^Payment is invalid: expected object/);
    });

    it('accepts null for every optional field', async () => {
      const body = paymentBody({
        OriginatorTransactionID: null,
        MethodOptionID: null,
        SkinID: null,
        ClientIP: null,
        Description: null,
        TokenLifetime: null,
        Customer: null,
        BillingAddress: null,
        ShippingAddress: null,
        IncludeMethodIDs: null,
        ExcludeMethodIDs: null,
        PrioritizeMethodIDs: null,
        Articles: null,
        CustomParameters: null,
        PreapprovalID: null,
      });
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);
      expect(res.status).toBe(201);
      expectSchema(paymentResponse, res.body);
      expect(res.body.Payment).toMatchObject({ Customer: null, BillingAddress: null, ShippingAddress: null, TokenLifetime: null });
    });
  });

  describe('unknown fields, with --strict-fields', () => {
    beforeEach(() => {
      kind = 'strict';
      ({ world: w, pristine: before } = worldFor(kind));
    });

    it.each<[string, string]>([
      ['Foo', 'Foo'],
      ['Payment.Foo', 'Payment.Foo'],
      ['Payment.Splits[0].Foo', 'Payment.Splits[0].Foo'],
      ['Payment.Splits[2].Currency', 'Payment.Splits[2].Currency'],
      ['Payment.Customer.Foo', 'Payment.Customer.Foo'],
      ['Payment.BillingAddress.Foo', 'Payment.BillingAddress.Foo'],
      ['Payment.ShippingAddress.Foo', 'Payment.ShippingAddress.Foo'],
      ['Payment.Status', 'Payment.Status'],
      ['Payment.Fraud', 'Payment.Fraud'],
    ])('refuses %s with reason 2 "... is not a known field"', async (path, name) => {
      const body = paymentBody({ MerchantTransactionID: 'order-fields' }) as unknown as Record<string, unknown>;
      const parts = path.split(/\.|\[|\]/).filter(Boolean);
      let node = body;
      for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
      node[parts[parts.length - 1]!] = 'surprise';
      await expectOneReason(body, 2, `${name} is not a known field`);
    });

    it('names every unknown field at once', async () => {
      const body = { ...paymentBody(), Extra: 1, Payment: { ...paymentBody().Payment, Alpha: 1, Beta: 2 } };
      const { reasons } = await rejected(body);
      expect(reasons).toEqual(
        expect.arrayContaining([
          { Code: 2, Info: 'Extra is not a known field' },
          { Code: 2, Info: 'Payment.Alpha is not a known field' },
          { Code: 2, Info: 'Payment.Beta is not a known field' },
        ]),
      );
      expect(reasons).toHaveLength(3);
    });
  });

  describe('missing fields', () => {
    it.each(['MerchantTransactionID', 'Amount', 'Currency', 'ReturnURL'])('refuses a payment without %s with reason 1', async (field) => {
      await expectOneReason(bodyWith(field, undefined), 1, `Payment.${field} is missing`);
    });

    it.each(['SiteID', 'Amount', 'MerchantTransactionID'])('refuses a split without %s with reason 1 naming the split', async (field) => {
      await expectOneReason(bodyWith(`Splits[1].${field}`, undefined), 1, `Payment.Splits[1].${field} is missing`);
    });

    it('refuses splits without a MethodID with reason 1 "Payment.MethodID is missing"', async () => {
      await expectOneReason(bodyWith('MethodID', undefined), 1, 'Payment.MethodID is missing');
      await expectOneReason(bodyWith('MethodID', null), 1, 'Payment.MethodID is missing');
      // Fidelity: the official PHP SDK sends MethodID 0 for a method not set: 0 means none chosen.
      await expectOneReason(bodyWith('MethodID', 0), 1, 'Payment.MethodID is missing');
      // A payment under a preapproval has a call of its own.
      await expectOneReason(bodyWith('PreapprovalID', 5), 11, 'Action is invalid: a payment under a preapproval is made with POST /v1/payments/recurrent');
    });

    it('refuses a body without Payment with reason 1 "Payment is missing"', async () => {
      await expectOneReason({}, 1, 'Payment is missing');
    });

    it('gives one reason per missing field', async () => {
      const body = bodyWith('Currency', undefined);
      delete (body.Payment as Record<string, unknown>).MerchantTransactionID;
      delete ((body.Payment as { Splits: Record<string, unknown>[] }).Splits[0]!).SiteID;
      const { reasons } = await rejected(body);
      expect(reasons).toEqual(
        expect.arrayContaining([
          { Code: 1, Info: 'Payment.MerchantTransactionID is missing' },
          { Code: 1, Info: 'Payment.Currency is missing' },
          { Code: 1, Info: 'Payment.Splits[0].SiteID is missing' },
        ]),
      );
      expect(reasons).toHaveLength(3);
    });

    it('echoes the fields that were sent and leaves the others null', async () => {
      const body = bodyWith('Currency', undefined);
      const { payment } = await rejected(body);
      expect(payment).toMatchObject({
        MerchantTransactionID: 'order-fields',
        Amount: '1000',
        Currency: null,
        MethodID: 42,
        ReturnURL: 'https://shop.example/return',
        TokenLifetime: 10,
        Created: null,
        RedirectURL: null,
        CapturedAmount: null,
        Fraud: null,
      });
      expect(payment.Splits).toEqual((body.Payment as { Splits: unknown }).Splits);
    });
  });

  describe('amounts', () => {
    const BAD_AMOUNTS: [string, string][] = [
      ['"10.50"', '"10.50"'],
      ['-5', '-5'],
      ['"-5"', '"-5"'],
      ['1e3', '1e3'],
      ['1E3', '1E3'],
      ['"1e3"', '"1e3"'],
      ['1000.0', '1000.0'],
      ['10.5', '10.5'],
      ['""', '""'],
      ['" 100"', '" 100"'],
      ['"100 "', '"100 "'],
      ['"1,000"', '"1,000"'],
      ['"+100"', '"+100"'],
      ['"0x10"', '"0x10"'],
      ['0', '0'],
      ['-0', '-0'],
      ['"0"', '"0"'],
      ['"000"', '"000"'],
      ['1000000000000 (13 digits)', '1000000000000'],
      ['"1000000000000" (13 digits)', '"1000000000000"'],
      ['99999999999999999999999', '99999999999999999999999'],
      ['true', 'true'],
      ['false', 'false'],
      ['null', 'null'],
      ['{}', '{}'],
      ['[]', '[]'],
      ['"ten"', '"ten"'],
    ];

    it.each(BAD_AMOUNTS)('refuses Payment.Amount %s with reason 118', async (_name, literal) => {
      await expectOneReason(rawBodyWith('Amount', literal), 118, invalid('Payment.Amount'));
    });

    it.each(BAD_AMOUNTS)('refuses Payment.Splits[1].Amount %s with reason 118 naming the split', async (_name, literal) => {
      await expectOneReason(rawBodyWith('Splits[1].Amount', literal), 118, invalid('Payment.Splits[1].Amount'));
    });

    it('echoes a refused amount as it was written', async () => {
      const { payment } = await rejected(rawBodyWith('Amount', '1e3'));
      expect(payment.Amount).toBe(1000);
      const { payment: p2 } = await rejected(rawBodyWith('Amount', '"10.50"'));
      expect(p2.Amount).toBe('10.50');
    });

    it.each<[string, unknown, string]>([
      ['a JSON integer', 1000, '1000'],
      ['a string of digits', '1000', '1000'],
      ['the largest 12-digit integer', 999999999999, '999999999999'],
      ['the largest 12-digit string', '999999999999', '999999999999'],
    ])('accepts an amount as %s', async (_name, amount, wire) => {
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ Amount: amount }));
      expect(res.status).toBe(201);
      expect(res.body.Payment.Amount).toBe(wire);
    });

    it('accepts 1 as the smallest split amount, as a number or a string', async () => {
      const res = await request(w.api)
        .post('/v1/payments')
        .set('Authorization', w.auth)
        .send(paymentBody({ Amount: 2, Splits: [{ SiteID: 30202, Amount: 1, MerchantTransactionID: 'a' }, { SiteID: 30203, Amount: '1', MerchantTransactionID: 'b' }] }));
      expect(res.status).toBe(201);
      expect(res.body.Payment.Splits.map((s: { Amount: string }) => s.Amount)).toEqual(['1', '1']);
    });

    it('refuses splits that add up to more than the payment with reason 118', async () => {
      await expectOneReason(bodyWith('Amount', '999'), 118, /^Payment\.Splits amounts add up to 1000, more than Payment\.Amount 999/);
    });
  });

  describe('currency and country', () => {
    it.each(['eur', 'Eur', 'EURO', 'EU', 'XXX', 'ABC', '', ' EUR', 'EUR '])('refuses currency %j with reason 100', async (currency) => {
      await expectOneReason(bodyWith('Currency', currency), 100, invalid('Payment.Currency'));
    });

    it.each(['EUR', 'USD', 'DKK', 'JPY', 'GBP'])('accepts currency %s', async (currency) => {
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ Currency: currency }));
      expect(res.status).toBe(201);
      expect(res.body.Payment.Currency).toBe(currency);
      expect(res.body.Payment.Splits.every((s: { Currency: string }) => s.Currency === currency)).toBe(true);
    });

    it.each<unknown>(['nl', 'Nl', 'NLD', 'XX', 'N', '', 31])('refuses BillingAddress.Country %j with reason 120', async (country) => {
      await expectOneReason(bodyWith('BillingAddress.Country', country), 120, invalid('Payment.BillingAddress.Country'));
    });

    it('refuses ShippingAddress.Country "de" with reason 120', async () => {
      await expectOneReason(bodyWith('ShippingAddress', { Country: 'de' }), 120, invalid('Payment.ShippingAddress.Country'));
    });

    it('accepts a null country', async () => {
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ BillingAddress: { Country: null } }));
      expect(res.status).toBe(201);
      expect(res.body.Payment.BillingAddress.Country).toBeNull();
    });
  });

  describe('huge and odd numbers for IDs', () => {
    it.each<[string, string]>([
      ['Splits[0].SiteID', '2147483648'],
      ['Splits[0].SiteID', '99999999999999999999'],
      ['Splits[0].SiteID', '1e20'],
      ['Splits[0].SiteID', '30202.0'],
      ['Splits[0].SiteID', '30202.5'],
      ['MethodID', '2147483648'],
      ['MethodID', '99999999999999999999999999'],
      ['MethodID', '1e400'],
      ['MethodID', '42.0'],
      ['MethodID', '-42'],
      ['TokenLifetime', '10.0'],
      ['TokenLifetime', '1e2'],
      ['SkinID', '2147483648'],
    ])('refuses Payment.%s = %s with reason 2', async (field, literal) => {
      await expectOneReason(rawBodyWith(field, literal), 2, invalid(`Payment.${field}`));
    });

    it('refuses an unknown MethodID with reason 5', async () => {
      await expectOneReason(bodyWith('MethodID', 2147483647), 5, /^Payment\.MethodID is invalid/);
    });

    it('refuses the card method on the API address with reason 5', async () => {
      await expectOneReason(bodyWith('MethodID', 6), 5, /^Payment\.MethodID is invalid/);
    });

    it('refuses a split site that is not linked to the marketplace with reason 2', async () => {
      await expectOneReason(bodyWith('Splits[0].SiteID', 2147483647), 2, /^Payment\.Splits\[0\]\.SiteID is invalid: site 2147483647 is not linked/);
    });
  });

  describe('unicode and control characters', () => {
    it.each<[string, string]>([
      ['accents', 'commande-éàü-ß'],
      ['CJK', '注文-12345'],
      ['emoji (astral plane)', 'order-😀-🚀'],
      ['combining marks', 'e\u0301-a\u0308'],
      ['right-to-left text', 'طلب-١٢٣'],
      ['a NUL character', 'order\u0000nul'],
      ['control characters', 'tab\there\nnew\rline\u0007bell\u001b'],
      ['a zero-width joiner and BOM', 'a\u200db\ufeffc'],
      ['quotes and backslashes', 'say "hi" \\ back'],
    ])('stores and returns %s in strings exactly', async (_name, text) => {
      const res = await request(w.api)
        .post('/v1/payments')
        .set('Authorization', w.auth)
        .send(paymentBody({ MerchantTransactionID: text, Description: text, Customer: { Email: 'payer@example.com', FirstName: text, LastName: text } }));
      expect(res.status).toBe(201);
      expectSchema(paymentResponse, res.body);
      const got = await request(w.api).get(`/v1/payments/${res.body.Payment.ID}`).set('Authorization', w.auth);
      expect(got.body.Payment.MerchantTransactionID).toBe(text);
      expect(got.body.Payment.Description).toBe(text);
      expect(got.body.Payment.Customer.FirstName).toBe(text);
      const listed = await request(w.api).get(`/v1/payments?merchantTransactionID=${encodeURIComponent(text)}`).set('Authorization', w.auth);
      expect(listed.status).toBe(200);
      expect(listed.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([res.body.Payment.ID]);
    });

    it('counts characters, not bytes, against length limits', async () => {
      const ok = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ Description: 'é'.repeat(1024) }));
      expect(ok.status).toBe(201);
      before = snapshot(w.store);
      await expectOneReason(bodyWith('Description', 'é'.repeat(1025)), 2, /^Payment\.Description is invalid: must be at most 1024 characters/);
    });

    it('answers a lone surrogate in a string with a 201 or a clean 400, never a 5xx', async () => {
      const raw = JSON.stringify(paymentBody({ MerchantTransactionID: 'lone' })).replace('"lone"', '"a\\ud800b"');
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send(raw);
      expect([201, 400]).toContain(res.status);
      if (res.status === 201) expectSchema(paymentResponse, res.body);
      else expectSchema(paymentErrorResponse, res.body);
    });
  });

  describe('InvalidRequestID', () => {
    it('is a non-empty string that differs between two rejections of the same request', async () => {
      const body = bodyWith('Currency', 'eur');
      const a = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);
      const b = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);
      for (const r of [a, b]) {
        expect(r.status).toBe(400);
        expect(typeof r.body.Payment.InvalidRequestID).toBe('string');
        expect(r.body.Payment.InvalidRequestID).not.toBe('');
      }
      expect(a.body.Payment.InvalidRequestID).not.toBe(b.body.Payment.InvalidRequestID);
    });

    it('differs across envelopes: Payment, Refund, Splits and a malformed body', async () => {
      const p = await createPayment(w);
      const ids = [
        (await request(w.api).post('/v1/payments').set('Authorization', w.auth).send({})).body.Payment.InvalidRequestID,
        (await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send('{')).body.Payment
          .InvalidRequestID,
        (await request(w.api).post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`).set('Authorization', w.auth).send({ Refund: { Amount: 1 } })).body
          .Refund.InvalidRequestID,
        (await request(w.api).post(`/v1/payments/${p.ID}/splits`).set('Authorization', w.auth).send({ Splits: [] })).body.InvalidRequestID,
        (await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth)).body.Payment.InvalidRequestID,
      ];
      for (const id of ids) expect(id).toMatch(/^.+$/);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
});
