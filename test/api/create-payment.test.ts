import request from 'supertest';
import { PAYMENT_KEYS, paymentErrorResponse, paymentResponse } from '../../src/schemas/responses';
import { MARKETPLACE, PLAIN, START_STAMP, type World, basic, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

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

describe('POST /v1/payments: exact bodies', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const post = (body: object, auth = w.auth) => request(w.api).post('/v1/payments').set('Authorization', auth).send(body);

  it('answers 201 with the exact payment of 2.1, keys in the order of the spec, and GET returns the same body', async () => {
    const res = await post(paymentBody({ MerchantTransactionID: 'order-exact' }));
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    const p = res.body.Payment;
    const split = (i: number, SiteID: number, Amount: string, mtid: string, orig: string | null) => ({
      ID: p.Splits[0].ID + i,
      PaymentID: p.ID,
      SiteID,
      MerchantTransactionID: mtid,
      OriginatorTransactionID: orig,
      Created: START_STAMP,
      Amount,
      Currency: 'EUR',
      CapturedAmount: '',
      StateDetails: { ID: 1, Info: 'Open', Reasons: null },
    });
    expect(res.body).toEqual({
      Payment: {
        ID: expect.any(Number),
        SkinID: null,
        ClientIP: null,
        Created: START_STAMP,
        MerchantTransactionID: 'order-exact',
        OriginatorTransactionID: null,
        Amount: '1000',
        Currency: 'EUR',
        CapturedAmount: null,
        ReturnURL: 'https://shop.example/return',
        Description: null,
        MethodID: 42,
        MethodOptionID: null,
        IncludeMethodIDs: null,
        ExcludeMethodIDs: null,
        PrioritizeMethodIDs: null,
        SiteID: 30202,
        NotificationDateTime: null,
        Customer: {
          ID: expect.any(Number),
          MerchantCustomerID: null,
          Email: 'payer@example.com',
          FirstName: 'Ada',
          LastName: 'Lovelace',
          Gender: null,
          SocialSecurityNumber: null,
          Phone: null,
          Company: null,
          DateOfBirth: null,
        },
        BillingAddress: {
          City: null,
          ZipCode: null,
          State: null,
          Street: null,
          StreetNumber: null,
          HouseNumber: null,
          HouseExtension: null,
          Country: 'NL',
        },
        ShippingAddress: null,
        Articles: null,
        Details: null,
        ReferenceDetails: null,
        CustomParameters: null,
        PreapprovalID: null,
        Status: { ID: 1, Info: 'Open', Reasons: null },
        Fraud: null,
        MethodTransactionID: null,
        TokenLifetime: 10,
        Capture: null,
        PreapprovalDetails: null,
        RedirectURL: expect.stringMatching(/^http:\/\/sandbox\.test\/Home\?PaymentToken=[0-9A-F]{32}\.[0-9]+$/),
        Splits: [
          split(0, 30202, '600', 'split-1', null),
          split(1, 30203, '300', 'split-2', null),
          split(2, 30204, '100', 'split-3', 'orig-3'),
        ],
      },
    });
    expect(Object.keys(p)).toEqual(PAYMENT_KEYS);
    expect(p.RedirectURL.endsWith(`.${p.ID}`)).toBe(true);

    const got = await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(paymentResponse, got.body);
    expect(got.body).toEqual(res.body);
  });

  it('without splits: the Splits key is absent and SiteID is the authenticated site', async () => {
    const res = await post(paymentBody({ MerchantTransactionID: 'no-splits', Splits: undefined }));
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    const p = res.body.Payment;
    expect('Splits' in p).toBe(false);
    expect(p.SiteID).toBe(MARKETPLACE.SiteID);
    expect(p.Status).toEqual({ ID: 1, Info: 'Open', Reasons: null });
    const got = await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth);
    expect(got.body).toEqual(res.body);
    expect('Splits' in got.body.Payment).toBe(false);
  });

  it('a plain (non-marketplace) site creates payments without splits under its own SiteID', async () => {
    const res = await post(paymentBody({ MerchantTransactionID: 'plain-1', Splits: undefined }), basic(PLAIN.SiteID, PLAIN.APIKey));
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment.SiteID).toBe(PLAIN.SiteID);
    expect('Splits' in res.body.Payment).toBe(false);
  });

  it('echoes every optional input field it stores', async () => {
    const res = await post(
      paymentBody({
        MerchantTransactionID: 'full-input',
        OriginatorTransactionID: 'orig-9',
        Description: 'two books',
        SkinID: 3,
        ClientIP: '10.0.0.1',
        MethodOptionID: 0,
        ShippingAddress: { City: 'Utrecht', Country: 'NL' },
      }),
    );
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({
      OriginatorTransactionID: 'orig-9',
      Description: 'two books',
      SkinID: 3,
      ClientIP: '10.0.0.1',
      MethodOptionID: 0,
      ShippingAddress: { City: 'Utrecht', Country: 'NL', Street: null },
    });
  });

  it('takes the amount as a JSON integer too, and emits it as a digit string', async () => {
    const res = await post(paymentBody({ Amount: 1000, Splits: [{ SiteID: 30202, Amount: 1000, MerchantTransactionID: 's' }] }));
    expect(res.status).toBe(201);
    expect(res.body.Payment.Amount).toBe('1000');
    expect(res.body.Payment.Splits[0].Amount).toBe('1000');
  });

  it('gives consecutive payment IDs and keeps each payment apart', async () => {
    const a = (await post(paymentBody({ MerchantTransactionID: 'a' }))).body.Payment;
    const b = (await post(paymentBody({ MerchantTransactionID: 'b' }))).body.Payment;
    expect(b.ID).toBe(a.ID + 1);
    expect(b.Splits[0].ID).toBe(a.Splits[2].ID + 1);
    expect(b.RedirectURL).not.toBe(a.RedirectURL);
  });
});

describe('POST /v1/payments: rejections (nothing stored)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const post = (body: object) => request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);

  async function expectShellRejection(body: ReturnType<typeof paymentBody>, reasons: { Code: number; Info?: unknown }[]) {
    const before = snapshot(w.store);
    const res = await post(body);
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    const p = res.body.Payment;
    expect(p.ID).toBeNull();
    expect(p.InvalidRequestID).toMatch(/^[0-9]+$/);
    expect(p.Status).toEqual({
      ID: null,
      Info: null,
      Reasons: reasons.map((r) => ({ Code: r.Code, Info: r.Info ?? expect.any(String) })),
    });
    // The shell carries every key of the payment, the request's fields echoed.
    for (const k of PAYMENT_KEYS) expect(k in p).toBe(true);
    expect(p.MerchantTransactionID).toBe(body.Payment.MerchantTransactionID);
    expect(p.Amount).toBe(body.Payment.Amount);
    expect(p.Splits).toEqual(body.Payment.Splits);
    expect(p.RedirectURL).toBeNull();
    expect(snapshot(w.store)).toBe(before);
    return res;
  }

  it('refuses splits adding up to more than the payment amount with reason 118', async () => {
    await expectShellRejection(
      paymentBody({
        Amount: '1000',
        Splits: [
          { SiteID: 30202, Amount: '600', MerchantTransactionID: 's1' },
          { SiteID: 30203, Amount: '401', MerchantTransactionID: 's2' },
        ],
      }),
      [{ Code: 118, Info: expect.stringContaining('1001') }],
    );
  });

  it('accepts splits adding up to exactly the payment amount, or less', async () => {
    const exact = await post(paymentBody({ Amount: '1000' }));
    expect(exact.status).toBe(201);
    const less = await post(paymentBody({ Amount: '1000', Splits: [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 's' }] }));
    expect(less.status).toBe(201);
  });

  it('refuses a duplicate MerchantTransactionID on the same site with reason 20', async () => {
    expect((await post(paymentBody({ MerchantTransactionID: 'dup-1' }))).status).toBe(201);
    const res = await expectShellRejection(paymentBody({ MerchantTransactionID: 'dup-1' }), [{ Code: 20 }]);
    expect(res.body.Payment.Status.Reasons[0].Info).toContain('dup-1');
  });

  it('accepts the same MerchantTransactionID on another site', async () => {
    expect((await post(paymentBody({ MerchantTransactionID: 'shared-1' }))).status).toBe(201);
    const other = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey))
      .send(paymentBody({ MerchantTransactionID: 'shared-1', Splits: undefined }));
    expect(other.status).toBe(201);
  });

  it('refuses an unknown MethodID with reason 5', async () => {
    await expectShellRejection(paymentBody({ MethodID: 999 }), [{ Code: 5, Info: expect.stringContaining('Payment.MethodID') }]);
  });

  it('refuses the card method (6) on the API address with reason 5', async () => {
    await expectShellRejection(paymentBody({ MethodID: 6 }), [{ Code: 5 }]);
  });

  it('refuses a split SiteID that is not linked to the marketplace with reason 2, naming the split', async () => {
    await expectShellRejection(
      paymentBody({
        Splits: [
          { SiteID: 30202, Amount: '500', MerchantTransactionID: 's1' },
          { SiteID: 30300, Amount: '500', MerchantTransactionID: 's2' },
        ],
      }),
      [{ Code: 2, Info: expect.stringContaining('Payment.Splits[1].SiteID') }],
    );
  });

  it('refuses a split to the marketplace itself or to an unknown site with reason 2', async () => {
    await expectShellRejection(paymentBody({ Splits: [{ SiteID: MARKETPLACE.SiteID, Amount: '1', MerchantTransactionID: 's' }] }), [
      { Code: 2 },
    ]);
    await expectShellRejection(paymentBody({ Splits: [{ SiteID: 99999, Amount: '1', MerchantTransactionID: 's' }] }), [{ Code: 2 }]);
  });

  it('reports every business problem at once: unknown method, unlinked site, over-split', async () => {
    await expectShellRejection(
      paymentBody({
        MethodID: 999,
        Amount: '10',
        Splits: [{ SiteID: 30300, Amount: '11', MerchantTransactionID: 's1' }],
      }),
      [{ Code: 5 }, { Code: 2 }, { Code: 118 }],
    );
  });

  it('gives each rejected request its own InvalidRequestID', async () => {
    const a = await post(paymentBody({ MethodID: 999 }));
    const b = await post(paymentBody({ MethodID: 999 }));
    expect(a.body.Payment.InvalidRequestID).not.toBe(b.body.Payment.InvalidRequestID);
  });
});
