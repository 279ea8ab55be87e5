// The official .NET SDK's calls (Smart2Pay/SDK-NET 1.2.0), each with the route and body the SDK sends
// and what its integration tests, run against the real test host, expect of the answer. Keys of its
// request classes the API does not read (`"ID":0`, `"Capture":null`, `Articles`) are left out of the
// bodies here: how those are taken is the request validation's part, not these calls'.
import request from 'supertest';
import { preapprovalErrorResponse, refundTypesResponse } from '../../src/schemas/preapprovals';
import { cardRefundStatusResponse, messageResponse, methodResponse, paymentErrorResponse, paymentResponse, refundErrorResponse, refundStatusResponse } from '../../src/schemas/responses';
import { PLAIN, type World, authorizedPayment, basic, createPayment, event, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

const plainAuth = basic(PLAIN.SiteID, PLAIN.APIKey);

/** An APM create as AlternativePaymentService sends it for Klarna Invoice (75), DKK (RefundPaymentTests.cs). */
function klarnaInvoice(mtid: string, amount = 980) {
  const address = { City: 'Varde', ZipCode: '6800', State: null, Street: 'Seffleberggate 56,1 mf', StreetNumber: null, HouseNumber: '', HouseExtension: null, Country: 'DK' };
  return {
    Payment: {
      SkinID: null,
      ClientIP: null,
      MerchantTransactionID: mtid,
      OriginatorTransactionID: null,
      Amount: amount,
      Currency: 'DKK',
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      Description: 'test capture SDK',
      MethodID: 75,
      Customer: {
        MerchantCustomerID: null,
        Email: 'youremail@email.com',
        FirstName: 'Testperson-dk',
        LastName: 'Approved',
        Gender: '1',
        SocialSecurityNumber: '0801363945',
        Phone: '20123456',
        Company: null,
        DateOfBirth: null,
      },
      BillingAddress: address,
      ShippingAddress: address,
      TokenLifetime: 10,
    },
  };
}

/** A card create as CardPaymentService sends it (CaptureAndRefundTests.cs), Capture false. */
function cardPayment(mtid: string) {
  return {
    Payment: {
      SkinID: null,
      ClientIP: null,
      MerchantTransactionID: mtid,
      OriginatorTransactionID: null,
      Amount: 9000,
      Currency: 'EUR',
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      Description: 'SDK Test Payment',
      StatementDescriptor: 'card payment',
      Customer: { MerchantCustomerID: null, Email: 'john@doe.com', FirstName: 'John', LastName: 'Doe', Gender: null, SocialSecurityNumber: null, Phone: null, Company: null, DateOfBirth: null },
      BillingAddress: { City: 'Iasi', ZipCode: '7000-49', State: 'Iasi', Street: 'Sf Lazar', StreetNumber: '37', HouseNumber: '5A', HouseExtension: '-', Country: 'BR' },
      Card: { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: '312' },
      Capture: false,
      Retry: false,
      GenerateCreditCardToken: false,
      PaymentTokenLifetime: null,
    },
  };
}

const refundBody = (mtid: string, amount: number) => ({ Refund: { MerchantTransactionID: mtid, OriginatorTransactionID: null, Amount: amount } });

describe('SDK-NET RefundService.GetRefundStatusAsync: GET /v1/payments/{id}/refunds/{refundId}/status', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const on = (app: 'api' | 'card', method: 'get' | 'post', path: string, auth = w.auth) => request(w[app])[method](path).set('Authorization', auth);

  it('card address (CardPaymentsGetRefundStatus.cs): 200 {"Refund": {ID, InitialPaymentID, MerchantTransactionID, StateDetails}}, Success (2)', async () => {
    const created = await on('card', 'post', '/v1/payments').send(cardPayment('sdk-card-1'));
    expect(created.status).toBe(201);
    const id = created.body.Payment.ID as number;
    expect((await on('card', 'post', `/v1/payments/${id}/capture`)).status).toBe(200);
    const refund = await on('card', 'post', `/v1/payments/${id}/refunds`).send(refundBody('sdk-card-refund-1', 9000));
    expect(refund.status).toBe(201);
    const refundId = refund.body.Refund.ID as number;

    const res = await on('card', 'get', `/v1/payments/${id}/refunds/${refundId}/status`);
    expect(res.status).toBe(200);
    expectSchema(cardRefundStatusResponse, res.body);
    expect(res.body).toEqual({
      Refund: { ID: refundId, InitialPaymentID: id, MerchantTransactionID: 'sdk-card-refund-1', StateDetails: { ID: 2, Info: 'Success', Reasons: [] } },
    });
  });

  it('API address: the same four keys, StateDetails in the refund’s current status (Open, then Success)', async () => {
    const created = await on('api', 'post', '/v1/payments').send(klarnaInvoice('sdk-apm-1'));
    expect(created.status).toBe(201);
    const id = created.body.Payment.ID as number;
    expect((await on('api', 'post', `/v1/payments/${id}/capture`)).status).toBe(200);
    const refund = await on('api', 'post', `/v1/payments/${id}/refunds`).send(refundBody('sdk-apm-refund-1', 980));
    expect(refund.status).toBe(201);
    const refundId = refund.body.Refund.ID as number;

    const open = await on('api', 'get', `/v1/payments/${id}/refunds/${refundId}/status`);
    expect(open.status).toBe(200);
    expectSchema(refundStatusResponse, open.body);
    expect(open.body).toEqual({
      Refund: { ID: refundId, InitialPaymentID: id, MerchantTransactionID: 'sdk-apm-refund-1', StateDetails: { ID: 1, Info: 'Open', Reasons: null } },
    });
    await request(w.api).post(`/_sandbox/refunds/${refundId}/events`).send({ Event: 'succeed' }).expect(200);
    const done = await on('api', 'get', `/v1/payments/${id}/refunds/${refundId}/status/`);
    expect(done.body.Refund.StateDetails).toEqual({ ID: 2, Info: 'Success', Reasons: null });
  });

  it('answers 404 {"Message"} for an unknown or foreign payment or refund, on both addresses, and changes nothing', async () => {
    const a = await on('api', 'post', '/v1/payments').send(klarnaInvoice('sdk-apm-2'));
    const other = await on('api', 'post', '/v1/payments').send(klarnaInvoice('sdk-apm-3'));
    const id = a.body.Payment.ID as number;
    await on('api', 'post', `/v1/payments/${id}/capture`).expect(200);
    const refundId = (await on('api', 'post', `/v1/payments/${id}/refunds`).send(refundBody('sdk-apm-refund-2', 100))).body.Refund.ID as number;
    const c = await on('card', 'post', '/v1/payments').send(cardPayment('sdk-card-2'));
    const cardId = c.body.Payment.ID as number;
    await on('card', 'post', `/v1/payments/${cardId}/capture`).expect(200);
    const cardRefundId = (await on('card', 'post', `/v1/payments/${cardId}/refunds`).send(refundBody('sdk-card-refund-2', 100))).body.Refund.ID as number;
    const before = snapshot(w.store);
    const cases: [app: 'api' | 'card', path: string, auth: string, message: string][] = [
      ['api', `/v1/payments/${id}/refunds/${refundId + 100}/status`, w.auth, 'Refund not found.'],
      ['api', `/v1/payments/${other.body.Payment.ID}/refunds/${refundId}/status`, w.auth, 'Refund not found.'],
      ['api', `/v1/payments/${id}/refunds/abc/status`, w.auth, 'Refund not found.'],
      ['api', `/v1/payments/${id}/refunds/${refundId}/status`, plainAuth, 'Payment not found.'],
      ['api', `/v1/payments/${cardId}/refunds/${cardRefundId}/status`, w.auth, 'Payment not found.'],
      ['card', `/v1/payments/${id}/refunds/${refundId}/status`, w.auth, 'Payment not found.'],
      ['card', `/v1/payments/${cardId}/refunds/${refundId}/status`, w.auth, 'Refund not found.'],
      ['card', `/v1/payments/${cardId}/refunds/${cardRefundId}/status`, plainAuth, 'Payment not found.'],
    ];
    for (const [app, path, auth, message] of cases) {
      const res = await on(app, 'get', path, auth);
      expect({ app, path, status: res.status, body: res.body }).toEqual({ app, path, status: 404, body: { Message: message } });
      expectSchema(messageResponse, res.body);
    }
    expect((await request(w.card).get(`/v1/payments/${cardId}/refunds/${cardRefundId}/status`)).status).toBe(401);
    expect(snapshot(w.store)).toBe(before);
  });
});

/** A preapproval create as PreapprovalService sends it (PreapprovalServiceTests.cs): every key of its request class. */
function preapproval(mtid: string, methodId = 46) {
  return {
    Preapproval: {
      MethodID: methodId,
      MerchantPreapprovalID: mtid,
      RecurringPeriod: 0,
      Description: 'SDK Test Preapproval',
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      MethodOptionID: 0,
      Customer: { MerchantCustomerID: null, Email: 'test_user_1@testuser.com', FirstName: null, LastName: null, Gender: null, SocialSecurityNumber: null, Phone: null, Company: null, DateOfBirth: null },
      BillingAddress: { City: null, ZipCode: null, State: null, Street: null, StreetNumber: null, HouseNumber: null, HouseExtension: null, Country: 'BR' },
    },
  };
}

/** What Json.NET cannot put into SDK-NET's non-nullable int and byte properties: null, or anything but a whole number. */
const sdkInt = (v: unknown) => Number.isInteger(v);

describe('SDK-NET reads refused answers: the non-nullable numbers of its answer classes are numbers', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const api = (method: 'get' | 'post', path: string) => request(w.api)[method](path).set('Authorization', w.auth);

  it('InvalidRefundTests.cs: a refund of an Authorized, uncaptured payment is 400 with ID 0, InitialPaymentID the payment, TypeID 0, Status.ID/Info null', async () => {
    const created = await api('post', '/v1/payments').send(klarnaInvoice('sdk-invalid-refund'));
    expect(created.status).toBe(201);
    const id = created.body.Payment.ID as number;
    const before = snapshot(w.store);
    const res = await api('post', `/v1/payments/${id}/refunds`).send(refundBody('sdk-invalid-refund-r', 980));
    expect(res.status).toBe(400);
    expectSchema(refundErrorResponse, res.body);
    const r = res.body.Refund;
    expect([sdkInt(r.ID), sdkInt(r.InitialPaymentID), sdkInt(r.TypeID)]).toEqual([true, true, true]);
    expect(r).toMatchObject({ ID: 0, InitialPaymentID: id, TypeID: 0, MerchantTransactionID: 'sdk-invalid-refund-r', Amount: 980, Status: { ID: null, Info: null } });
    expect(r.Status.Reasons.length).toBeGreaterThan(0);
    expect(snapshot(w.store)).toBe(before);
  });

  it('a refused card refund reads the same: ID 0, InitialPaymentID the payment, TypeID 0', async () => {
    const created = await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(cardPayment('sdk-card-refused'));
    const id = created.body.Payment.ID as number;
    const res = await request(w.card).post(`/v1/payments/${id}/refunds`).set('Authorization', w.auth).send(refundBody('sdk-card-refused-r', 9000));
    expect(res.status).toBe(400);
    expectSchema(refundErrorResponse, res.body);
    expect(res.body.Refund).toMatchObject({ ID: 0, InitialPaymentID: id, TypeID: 0, MerchantTransactionID: 'sdk-card-refused-r', Amount: 9000 });
  });

  it('a refused preapproval create has a whole-number Status.ID (SDK-NET PreapprovalStateDetails.ID is a byte), RecurringPeriod and MethodOptionID', async () => {
    expect((await api('post', '/v1/preapprovals').send(preapproval('sdk-pre-twice', 2))).status).toBe(201);
    const res = await api('post', '/v1/preapprovals').send(preapproval('sdk-pre-twice', 2));
    expect(res.status).toBe(400);
    expectSchema(preapprovalErrorResponse, res.body);
    const p = res.body.Preapproval;
    expect([sdkInt(p.Status.ID), sdkInt(p.RecurringPeriod), sdkInt(p.MethodOptionID)]).toEqual([true, true, true]);
    expect(p.Status).toEqual({ ID: 0, Info: null, Reasons: [{ Code: 20, Info: expect.any(String) }] });
  });
});

describe('SDK-NET GetPaymentDetails.cs: Klarna Invoice (75) is Authorized on a read right after its create', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const api = (method: 'get' | 'post', path: string) => request(w.api)[method](path).set('Authorization', w.auth);

  it('the create answers 201 Open; GET at once (no time passing) answers Authorized (9), by the provider as it was created', async () => {
    const created = await api('post', '/v1/payments').send(klarnaInvoice('sdk-details-1'));
    expect(created.status).toBe(201);
    expect(created.body.Payment.Status).toEqual({ ID: 1, Info: 'Open', Reasons: null });
    const id = created.body.Payment.ID as number;

    const read = await api('get', `/v1/payments/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.Payment).toMatchObject({
      MerchantTransactionID: 'sdk-details-1',
      Amount: '980',
      Currency: 'DKK',
      MethodID: 75,
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      Customer: { ID: created.body.Payment.Customer.ID, Email: 'youremail@email.com' },
      BillingAddress: { Country: 'DK' },
      Status: { ID: 9, Info: 'Authorized', Reasons: null },
    });
    expect(read.body.Payment.RedirectURL).toMatch(/^http:\/\/sandbox\.test\/Home\?PaymentToken=/);
    const history = (await request(w.api).get(`/_sandbox/payments/${id}`)).body.History.map((h: { StatusID: number; Cause: string }) => [h.StatusID, h.Cause]);
    expect(history).toEqual([
      [1, 'created'],
      [9, 'provider authorized at create'],
    ]);
    // It is captured, cancelled and refused a refund as any Authorized two-step payment (CapturePaymentTests.cs, InvalidRefundTests.cs).
    expect((await api('post', `/v1/payments/${id}/capture`)).body.Payment.Status).toEqual({ ID: 2, Info: 'Success', Reasons: null });
  });

  it('a scenario the merchant picks still decides: X-Sandbox-Scenario payer-decides keeps it Open', async () => {
    const created = await api('post', '/v1/payments').set('X-Sandbox-Scenario', 'payer-decides').send(klarnaInvoice('sdk-details-2'));
    expect(created.status).toBe(201);
    expect((await api('get', `/v1/payments/${created.body.Payment.ID}`)).body.Payment.Status.ID).toBe(1);
  });
});

/** A Klarna Payments (1078) create of 2940 GBP as KlarnaPartialCaptureTests.cs sends it. */
function klarnaPayments(mtid: string) {
  const address = { City: 'London', ZipCode: 'W13 3BG', State: 'Iasi', Street: 'New Burlington St 113', StreetNumber: 'Apt 214', HouseNumber: null, HouseExtension: null, Country: 'GB' };
  return {
    Payment: {
      SkinID: null,
      ClientIP: null,
      MerchantTransactionID: mtid,
      OriginatorTransactionID: null,
      Amount: 2940,
      Currency: 'GBP',
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      Description: 'SDK Test Payment',
      MethodID: 1078,
      Customer: { MerchantCustomerID: null, Email: 'youremail@email.com', FirstName: 'Doe', LastName: 'Test', Gender: null, SocialSecurityNumber: null, Phone: '+440745785615', Company: null, DateOfBirth: null },
      BillingAddress: address,
      ShippingAddress: address,
      TokenLifetime: null,
    },
  };
}

describe('SDK-NET KlarnaPartialCaptureTests.cs: POST /v1/payments/{id}/capture?amount= on a payment without splits', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const api = (method: 'get' | 'post', path: string) => request(w.api)[method](path).set('Authorization', w.auth);
  async function authorized(mtid: string) {
    const created = await api('post', '/v1/payments').send(klarnaPayments(mtid));
    expect(created.status).toBe(201);
    return (await event(w, created.body.Payment.ID, 'authorize')).ID as number;
  }

  it('?amount=1960 of 2940, no body: 200, Amount 2940, CapturedAmount 1960, PartiallyCaptured (35); refunds are bounded by it', async () => {
    const id = await authorized('sdk-klarna-part');
    w.clock.advance(1000);
    const res = await api('post', `/v1/payments/${id}/capture?amount=1960`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({
      ID: id,
      MerchantTransactionID: 'sdk-klarna-part',
      Amount: '2940',
      Currency: 'GBP',
      CapturedAmount: '1960',
      Status: { ID: 35, Info: 'PartiallyCaptured', Reasons: null },
    });
    expect((await api('get', `/v1/payments/${id}`)).body).toEqual(res.body);
    expect(w.store.payments.getAny(id)).toMatchObject({ statusId: 35, capturedAmount: 1960n });
    // One capture per payment, as every capture form.
    expect((await api('post', `/v1/payments/${id}/capture?amount=980`)).body.Payment.Status.Reasons[0].Code).toBe(17);
    const over = await api('post', `/v1/payments/${id}/refunds`).send(refundBody('sdk-klarna-part-r1', 1961));
    expect([over.status, over.body.Refund.Status.Reasons[0].Code]).toEqual([400, 18]);
    expect((await api('post', `/v1/payments/${id}/refunds`).send(refundBody('sdk-klarna-part-r2', 1960))).status).toBe(201);
  });

  // The SDK sends its whole request class with only Articles set: the keys the API does not read are ignored.
  it('?amount=1960 with the SDK’s Articles body: the same partial capture', async () => {
    const id = await authorized('sdk-klarna-part-body');
    const body = {
      Payment: {
        ID: 0, SkinID: null, ClientIP: null, MerchantTransactionID: null, OriginatorTransactionID: null, Amount: null, Currency: null, ReturnURL: null,
        Articles: [{ MerchantArticleID: '1232', Name: null, Quantity: 2, Price: '0', VAT: '0', Discount: '0', Type: 0, DiscountValue: '0', TaxType: 0 }],
        TokenLifetime: null, Capture: null,
      },
    };
    const res = await api('post', `/v1/payments/${id}/capture?amount=1960`).send(body);
    expect(res.status).toBe(200);
    expect(res.body.Payment).toMatchObject({ Amount: '2940', Currency: 'GBP', CapturedAmount: '1960', Status: { ID: 35, Info: 'PartiallyCaptured' } });
  });

  it('?amount= the whole amount is a full capture (CaptureRequested for Klarna Payments), as without it', async () => {
    const id = await authorized('sdk-klarna-whole');
    const res = await api('post', `/v1/payments/${id}/capture?amount=2940`);
    expect(res.status).toBe(200);
    expect(res.body.Payment).toMatchObject({ CapturedAmount: '2940', Status: { ID: 13, Info: 'CaptureRequested' } });
  });

  it('refuses an amount above the payment’s, or none that is a number, with 118 and the payment as stored; nothing changes', async () => {
    const id = await authorized('sdk-klarna-bad');
    const before = snapshot(w.store);
    for (const q of ['2941', '0', '19.60', 'abc', '-5']) {
      const res = await api('post', `/v1/payments/${id}/capture?amount=${q}`);
      expect([q, res.status]).toEqual([q, 400]);
      expectSchema(paymentErrorResponse, res.body);
      expect(res.body.Payment).toMatchObject({ ID: id, CapturedAmount: null, Status: { ID: 9, Info: 'Authorized', Reasons: [{ Code: 118, Info: expect.any(String) }] } });
    }
    expect(snapshot(w.store)).toBe(before);
  });

  it('a payment with splits keeps its rules: ?amount= is not a part of it, its parts are its splits (full capture)', async () => {
    const id = (await authorizedPayment(w)).ID as number;
    const res = await api('post', `/v1/payments/${id}/capture?amount=500`);
    expect(res.status).toBe(200);
    expect(res.body.Payment).toMatchObject({ CapturedAmount: '1000', Status: { ID: 2, Info: 'Success' } });
  });
});

describe('SDK-NET PaymentsGetRefundTypes.cs: GET /v1/payments/{id}/refunds/types', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('every type has a Name, an ID > 0, and AllowPartialRefund (RefundTypesResponse’s name) beside AllowsPartialRefund (SDK-PHP’s), the same value', async () => {
    const created = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(klarnaInvoice('sdk-types'));
    const res = await request(w.api).get(`/v1/payments/${created.body.Payment.ID}/refunds/types`).set('Authorization', w.auth);
    expect(res.status).toBe(200);
    expectSchema(refundTypesResponse, res.body);
    expect(res.body.RefundTypes.length).toBeGreaterThan(0);
    for (const t of res.body.RefundTypes) {
      expect(t.Name).toMatch(/\S/);
      expect(t.ID).toBeGreaterThan(0);
      expect([t.AllowPartialRefund, t.AllowsPartialRefund]).toEqual([true, true]);
    }
  });
});

/** An APM create of the SDK's create tests (CreatePaymentTests*.cs), with only what differs between them given. */
function apmCreate(mtid: string, fields: { Amount: number; Currency: string; MethodID: number; Email: string; Country: string; TokenLifetime?: number | null }) {
  return {
    Payment: {
      SkinID: null,
      ClientIP: null,
      MerchantTransactionID: mtid,
      OriginatorTransactionID: null,
      Amount: fields.Amount,
      Currency: fields.Currency,
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      Description: 'SDK Test Payment',
      MethodID: fields.MethodID,
      Customer: { MerchantCustomerID: null, Email: fields.Email, FirstName: null, LastName: null, Gender: null, SocialSecurityNumber: null, Phone: null, Company: null, DateOfBirth: null },
      BillingAddress: { City: null, ZipCode: null, State: null, Street: null, StreetNumber: null, HouseNumber: null, HouseExtension: null, Country: fields.Country },
      TokenLifetime: fields.TokenLifetime ?? null,
    },
  };
}

describe('SDK-NET’s methods: 40 Paysafecard, 46 MercadoPago, 49 ToditoCash, 78 Skrill, 1066 WeChat Pay', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const api = (method: 'get' | 'post', path: string) => request(w.api)[method](path).set('Authorization', w.auth);

  it('PaymentMethodServiceTests.cs: GET /v1/methods/46 is MercadoPago with 4 payin and 2 recurrent validators and a LogoURL naming mercadopago.gif', async () => {
    const res = await api('get', '/v1/methods/46');
    expect(res.status).toBe(200);
    expectSchema(methodResponse, res.body);
    const m = res.body.Method;
    expect(m).toMatchObject({ ID: 46, DisplayName: 'MercadoPago', LogoURL: 'http://sandbox.test/images/methods/mercadopago.gif' });
    expect(m.Description).toMatch(/\S/);
    expect(m.Countries.length).toBeGreaterThan(0);
    expect(m.Currencies.length).toBeGreaterThan(0);
    expect(m.ValidatorsPayin).toHaveLength(4);
    expect(m.ValidatorsRecurrent).toHaveLength(2);
    const payin = (source: string) => m.ValidatorsPayin.find((v: { Source: string }) => v.Source === source);
    expect(['Customer.Email', 'Customer.FirstName Customer.LastName', 'Customer.SocialSecurityNumber', 'BillingAddress.Country'].map((s) => payin(s)?.Required)).toEqual([true, true, true, false]);
    for (const v of m.ValidatorsPayin) expect(v.Regex).toMatch(/\S/);
    // The logo is served where LogoURL says, as every method's.
    const logo = await request(w.api).get('/images/methods/mercadopago.gif');
    expect([logo.status, logo.headers['content-type']]).toEqual([200, 'image/svg+xml; charset=utf-8']);
  });

  it('CreatePaymentTestsPaysafecard.cs (40, AT, EUR): 201 Open with a RedirectURL to the payment page', async () => {
    const res = await api('post', '/v1/payments').send(apmCreate('sdk-psc', { Amount: 400, Currency: 'EUR', MethodID: 40, Email: 'john@doe.com', Country: 'AT' }));
    expect(res.status).toBe(201);
    expect(res.body.Payment).toMatchObject({ MethodID: 40, Amount: '400', Currency: 'EUR', Status: { ID: 1, Info: 'Open' }, ReferenceDetails: null });
    expect(res.body.Payment.RedirectURL).toMatch(/^http:\/\/sandbox\.test\/Home\?PaymentToken=/);
  });

  it('CreatePaymentTestsWeChat.cs (1066, CN, CNY): 201 Open, ReferenceDetails.QRCodeURL weixin://wxpay/bizpayurl?pr=…, every other key null', async () => {
    const res = await api('post', '/v1/payments').send(apmCreate('sdk-wechat', { Amount: 11, Currency: 'CNY', MethodID: 1066, Email: 'john@doe.com', Country: 'CN', TokenLifetime: 10 }));
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    const p = res.body.Payment;
    expect(p).toMatchObject({ MethodID: 1066, Status: { ID: 1, Info: 'Open' } });
    expect(p.RedirectURL).toMatch(/^http:\/\/sandbox\.test\/Home\?PaymentToken=/);
    const url = p.ReferenceDetails.QRCodeURL as string;
    expect(url.slice(0, url.indexOf('='))).toBe('weixin://wxpay/bizpayurl?pr');
    expect(Object.entries(p.ReferenceDetails).filter(([k, v]) => k !== 'QRCodeURL' && v !== null)).toEqual([]);
    expect((await api('get', `/v1/payments/${p.ID}`)).body.Payment.ReferenceDetails).toEqual(p.ReferenceDetails);
  });

  it('CreatePaymentTestsSkrill1Tap.cs (78, DE, EUR): 201 Open', async () => {
    const res = await api('post', '/v1/payments').send(apmCreate('sdk-skrill', { Amount: 200, Currency: 'EUR', MethodID: 78, Email: 'skrill_user_test@smart2pay.com', Country: 'DE', TokenLifetime: 10 }));
    expect(res.status).toBe(201);
    expect(res.body.Payment).toMatchObject({ MethodID: 78, Status: { ID: 1, Info: 'Open' } });
  });

  it('PreapprovalServiceTests.cs and RecurringPaymentTests.cs: a MercadoPago (46) preapproval in BR, and a payment charged under it', async () => {
    const res = await api('post', '/v1/preapprovals').send(preapproval('sdk-mp-pre'));
    expect(res.status).toBe(201);
    const pre = res.body.Preapproval;
    expect(pre).toMatchObject({ MethodID: 46, MerchantPreapprovalID: 'sdk-mp-pre', SiteID: 30201, BillingAddress: { Country: 'BR' }, Status: { ID: 1, Info: 'Pending' } });
    expect(pre.Customer.ID).toBeGreaterThan(0);
    expect(pre.RedirectURL).toMatch(/\S/);
    await request(w.api).post(`/_sandbox/preapprovals/${pre.ID}/events`).send({ Event: 'open' }).expect(200);
    const charged = await api('post', '/v1/payments/recurrent').send({
      Payment: { PreapprovalID: pre.ID, MerchantTransactionID: 'sdk-mp-rec', Amount: 100, Currency: 'BRL', Customer: { Email: 'test_user_1@testuser.com' } },
    });
    expect(charged.status).toBe(201);
    expect(charged.body.Payment).toMatchObject({ MethodID: 46, PreapprovalID: pre.ID, Status: { ID: 2, Info: 'Success' } });
    expect((await api('get', `/v1/preapprovals/${pre.ID}/payments`)).body.TotalCount).toBe(1);
  });

  it('49 ToditoCash is a method of Mexico in MXN (PaymentsGetRefundTypesFiltered.cs asks its refund types), its refund type Native', async () => {
    const m = (await api('get', '/v1/methods/49')).body.Method;
    expect(m).toMatchObject({ ID: 49, DisplayName: 'ToditoCash', Countries: ['MX'] });
    expect(m.Currencies).toContain('MXN');
    const created = await api('post', '/v1/payments').send(apmCreate('sdk-todito', { Amount: 1000, Currency: 'MXN', MethodID: 49, Email: 'john@doe.com', Country: 'MX' }));
    const types = await api('get', `/v1/payments/${created.body.Payment.ID}/refunds/types`);
    expect(types.body.RefundTypes.map((t: { ID: number; Name: string }) => [t.ID, t.Name])).toEqual([[1, 'Native']]);
  });
});

describe('SDK-NET request data the real host shows back: ReferenceDetails, PreapprovalDetails, addresses’ IDs, Articles', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const api = (method: 'get' | 'post', path: string) => request(w.api)[method](path).set('Authorization', w.auth);
  // The bodies exactly as the SDK wrote them (its request classes serialised whole).
  const send = (path: string, json: string) => api('post', path).set('Content-Type', 'application/json').send(json);
  const KLARNA_ADDRESS = '{"City":"Varde","ZipCode":"6800","State":null,"Street":"Seffleberggate 56,1 mf","StreetNumber":null,"HouseNumber":"","HouseExtension":null,"Country":"DK"}';
  const klarnaCreate = (mtid: string, amount: number, quantity: number) =>
    `{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":"${mtid}","OriginatorTransactionID":null,"Amount":${amount},"Currency":"DKK","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"test capture SDK","MethodID":75,"Customer":{"MerchantCustomerID":null,"Email":"youremail@email.com","FirstName":"Testperson-dk","LastName":"Approved","Gender":"1","SocialSecurityNumber":"0801363945","Phone":"20123456","Company":null,"DateOfBirth":null},"BillingAddress":${KLARNA_ADDRESS},"ShippingAddress":${KLARNA_ADDRESS},"Articles":[{"MerchantArticleID":"1231","Name":"TEST","Quantity":${quantity},"Price":"1000","VAT":"1000","Discount":"200","Type":1,"DiscountValue":"0","TaxType":0}],"TokenLifetime":10,"Capture":null}}`;
  const SENT_ARTICLE = { MerchantArticleID: '1231', Name: 'TEST', Quantity: 1, Price: '1000', VAT: '1000', Discount: '200', Type: 1, DiscountValue: '0', TaxType: 0 };

  it('CreatePaymentTestsBankTransfer.cs (1, AT, EUR): ReferenceDetails.ReferenceNumber is the Details.ReferenceNumber sent, on the create and on a read', async () => {
    const mtid = 'ead8adb8-8fa1-4781-8437-43678609405a';
    const res = await send(
      '/v1/payments',
      `{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":"${mtid}","OriginatorTransactionID":null,"Amount":200,"Currency":"EUR","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","MethodID":1,"Details":{"AccountNumber":null,"AccountHolder":null,"IBAN":null,"BIC":null,"PrepaidCard":null,"PrepaidCardPIN":null,"SerialNumbers":null,"Wallet":null,"ReferenceNumber":"${mtid}","PayerCountry":null,"PayerEmail":null,"PayerPhone":null,"BankCode":null,"BankName":null,"BankSortCode":null,"SocialSecurityNumber":null,"BillingCycleStart":null,"BillingCycleEnd":null,"UnsubscribeInstructions":null,"IsOffline":false,"StoreName":null,"StoreID":null,"TerminalID":null},"Customer":{"MerchantCustomerID":null,"Email":null,"FirstName":"SDK","LastName":"Test","Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"AT"},"TokenLifetime":10,"Capture":null}}`,
    );
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    const p = res.body.Payment;
    expect(p).toMatchObject({ MethodID: 1, Status: { ID: 1, Info: 'Open' }, Details: { ReferenceNumber: mtid, IBAN: null } });
    expect(p.ReferenceDetails.ReferenceNumber).toBe(mtid);
    expect(Object.entries(p.ReferenceDetails).filter(([k, v]) => k !== 'ReferenceNumber' && v !== null)).toEqual([]);
    expect((await api('get', `/v1/payments/${p.ID}`)).body.Payment.ReferenceDetails).toEqual(p.ReferenceDetails);
    // A list item shows none of it (spec 2.8).
    const item = (await api('get', '/v1/payments')).body.Payments.find((x: { ID: number }) => x.ID === p.ID);
    expect([item.Details, item.ReferenceDetails, item.Articles]).toEqual([null, null, null]);
  });

  it('CreatePaymentTestsSkrill1Tap.cs (78) with PreapprovalDetails: PreapprovedMaximumAmount 500 and MerchantPreapprovalID shown back as sent', async () => {
    const mtid = '0fda90ed-4b20-471f-a902-0c4a5175bc83';
    const res = await send(
      '/v1/payments',
      `{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":"${mtid}","OriginatorTransactionID":null,"Amount":200,"Currency":"EUR","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","MethodID":78,"Customer":{"MerchantCustomerID":null,"Email":"skrill_user_test@smart2pay.com","FirstName":null,"LastName":null,"Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"DE"},"TokenLifetime":10,"Capture":null,"PreapprovalDetails":{"PreapprovedMaximumAmount":500,"MerchantPreapprovalID":"${mtid}","Frequency":null,"PreapprovalDescription":"Skrill 1tap payment SDK"}}}`,
    );
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    const sent = { PreapprovedMaximumAmount: 500, MerchantPreapprovalID: mtid, Frequency: null, PreapprovalDescription: 'Skrill 1tap payment SDK' };
    expect(res.body.Payment.PreapprovalDetails).toEqual(sent);
    expect((await api('get', `/v1/payments/${res.body.Payment.ID}`)).body.Payment.PreapprovalDetails).toEqual(sent);
  });

  it('GetPaymentDetails.cs (75): the read right after the create shows BillingAddress.ID > 0 (the create’s) and Articles[0].MerchantArticleID "1231", every figure as sent', async () => {
    const created = await send('/v1/payments', klarnaCreate('3907849d-af4f-47bb-9034-b10a7c72c29f', 980, 1));
    expect(created.status).toBe(201);
    const c = created.body.Payment;
    expect(c.BillingAddress.ID).toBeGreaterThan(0);
    expect(c.ShippingAddress.ID).toBeGreaterThan(0);
    expect(c.ShippingAddress.ID).not.toBe(c.BillingAddress.ID);
    expect(c.Articles).toEqual([SENT_ARTICLE]);
    const read = await api('get', `/v1/payments/${c.ID}`);
    expect(read.status).toBe(200);
    const r = read.body.Payment;
    expect(r.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: null });
    expect([r.BillingAddress.ID, r.ShippingAddress.ID, r.Customer.ID]).toEqual([c.BillingAddress.ID, c.ShippingAddress.ID, c.Customer.ID]);
    expect(r.Articles[0].MerchantArticleID).toBe('1231');
    expect(r.Articles).toEqual([SENT_ARTICLE]);
  });

  it('PartialRefundPaymentTests.cs: the partial refund with Articles answers 201 with Articles[0].MerchantArticleID "1231", as on a read', async () => {
    const created = await send('/v1/payments', klarnaCreate('cde1ca1d-d3a2-4abe-9889-473db3531cf3', 1960, 2));
    const id = created.body.Payment.ID as number;
    expect((await api('post', `/v1/payments/${id}/capture`)).status).toBe(200);
    const res = await send(
      `/v1/payments/${id}/refunds`,
      '{"Refund":{"ID":0,"MerchantTransactionID":"414a1a3e-31b7-498e-8105-b7e182846f96","OriginatorTransactionID":null,"Amount":980,"Articles":[{"MerchantArticleID":"1231","Name":null,"Quantity":1,"Price":"0","VAT":"0","Discount":"0","Type":0,"DiscountValue":"0","TaxType":0}]}}',
    );
    expect(res.status).toBe(201);
    const refund = res.body.Refund;
    expect(refund).toMatchObject({ Amount: '980', Currency: 'DKK', Status: { ID: 1, Info: 'Open' } });
    expect(refund.Articles).toEqual([{ MerchantArticleID: '1231', Name: null, Quantity: 1, Price: '0', VAT: '0', Discount: '0', Type: 0, DiscountValue: '0', TaxType: 0 }]);
    expect((await api('get', `/v1/payments/${id}/refunds/${refund.ID}`)).body.Refund.Articles).toEqual(refund.Articles);
    // A refund that sent none shows none.
    const plain = await api('post', `/v1/payments/${id}/refunds`).send(refundBody('sdk-refund-plain', 1));
    expect(plain.body.Refund.Articles).toBeNull();
  });

  it('a payment with splits that sent none of it shows it all null, its address as the spec shows it (no ID); one that sent Articles shows them', async () => {
    const p = await createPayment(w);
    const read = (await api('get', `/v1/payments/${p.ID}`)).body.Payment;
    for (const shown of [p, read] as Record<string, unknown>[]) {
      expect([shown.Articles, shown.Details, shown.ReferenceDetails, shown.PreapprovalDetails]).toEqual([null, null, null, null]);
      expect(shown.BillingAddress).toEqual({ City: null, ZipCode: null, State: null, Street: null, StreetNumber: null, HouseNumber: null, HouseExtension: null, Country: 'NL' });
    }
    const withArticles = await createPayment(w, { Articles: [{ MerchantArticleID: 'a-1', Quantity: 3, Price: 12345678901234 }] });
    expect(withArticles.Articles).toEqual([{ MerchantArticleID: 'a-1', Name: null, Quantity: 3, Price: 12345678901234, VAT: null, Discount: null, Type: null, DiscountValue: null, TaxType: null }]);
  });

  it('refuses a figure the sandbox could not show back exactly (a whole number past 2^53) with a 400, and keeps nothing', async () => {
    const before = snapshot(w.store);
    const res = await api('post', '/v1/payments').set('Content-Type', 'application/json').send(
      JSON.stringify(paymentBody({ Articles: [{ MerchantArticleID: 'big', Price: 1 }] })).replace('"Price":1', '"Price":90071992547409930'),
    );
    expect(res.status).toBe(400);
    expect(snapshot(w.store)).toBe(before);
  });
});
