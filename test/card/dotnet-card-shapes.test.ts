// The official .NET SDK's request bodies on the card address, byte for byte as it sends them
// ("3DSecure", Capture, Retry, GenerateCreditCardToken, PaymentTokenLifetime on every card payment):
// each is accepted meaning what the SDK means, and answers as the SDK's integration tests expect.
import request from 'supertest';
import { cardAuthenticationResponse, cardPaymentResponse, payoutResponse } from '../../src/schemas/responses';
import { type World, expectSchema, makeWorld } from '../helpers/world';

const BILLING = '{"City":"Iasi","ZipCode":"7000-49","State":"Iasi","Street":"Sf Lazar","StreetNumber":"37","HouseNumber":"5A","HouseExtension":"-","Country":"BR"}';

/** CardPaymentRequest of the SDK's "card payment with card details" test: Capture true. */
const WITH_CARD = `{"Payment":{"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":9000,"Currency":"USD","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","StatementDescriptor":"bank statement message","BillingAddress":${BILLING},"Card":{"HolderName":"John Doe","Number":"4111111111111111","ExpirationMonth":"02","ExpirationYear":"2022","SecurityCode":"312"},"3DSecure":null,"Capture":true,"Retry":false,"GenerateCreditCardToken":false,"PaymentTokenLifetime":5}}`;

/** Its 3-D Secure test: "3DSecure":true (amount 10002 would otherwise be queued for capturing). */
const THREE_D_SECURE =
  '{"Payment":{"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":10002,"Currency":"EUR","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","StatementDescriptor":"bank statement message","Card":{"HolderName":"John Doe","Number":"4548812049400004","ExpirationMonth":"02","ExpirationYear":"2022","SecurityCode":"312"},"3DSecure":true,"Capture":true,"Retry":true,"GenerateCreditCardToken":false,"PaymentTokenLifetime":5}}';

/** Its token test: the first payment asks for a credit card token… */
const TOKEN_FIRST = `{"Payment":{"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":9000,"Currency":"USD","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","StatementDescriptor":"bank statement message","BillingAddress":${BILLING},"Card":{"HolderName":"John Doe","Number":"4111111111111111","ExpirationMonth":"02","ExpirationYear":"2022","SecurityCode":"312"},"3DSecure":null,"Capture":false,"Retry":false,"GenerateCreditCardToken":true,"PaymentTokenLifetime":5}}`;
/** …and the second pays with it (TOKEN stands for the first answer's CreditCardToken.Value). */
const TOKEN_SECOND = `{"Payment":{"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-2","OriginatorTransactionID":null,"Amount":9000,"Currency":"USD","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","StatementDescriptor":"bank statement message","BillingAddress":${BILLING},"CreditCardToken":{"Value":"TOKEN","SecurityCode":"312"},"3DSecure":null,"Capture":false,"Retry":false,"GenerateCreditCardToken":true,"PaymentTokenLifetime":5}}`;

/** Its recurring card payments test: a card without its security code, then the token with Capture true. */
const RECURRING_FIRST = `{"Payment":{"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":9000,"Currency":"USD","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","StatementDescriptor":"bank statement message","BillingAddress":${BILLING},"Card":{"HolderName":"John Doe","Number":"4111111111111111","ExpirationMonth":"02","ExpirationYear":"2022","RequireSecurityCode":false},"3DSecure":null,"Capture":false,"Retry":false,"GenerateCreditCardToken":true,"PaymentTokenLifetime":5}}`;
const RECURRING_SECOND = `{"Payment":{"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-2","OriginatorTransactionID":null,"Amount":9000,"Currency":"USD","BillingAddress":${BILLING},"CreditCardToken":{"Value":"TOKEN"},"3DSecure":null,"Capture":true,"Retry":null,"GenerateCreditCardToken":true,"PaymentTokenLifetime":null}}`;

/** Its capture-and-refund test: Capture false, then CapturePaymentAsync (no body) and a RefundRequest. */
const TO_CAPTURE =
  '{"Payment":{"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":9000,"Currency":"EUR","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","StatementDescriptor":"bank statement message","Card":{"HolderName":"John Doe","Number":"4548812049400004","ExpirationMonth":"02","ExpirationYear":"2022","SecurityCode":"312"},"3DSecure":null,"Capture":false,"Retry":false,"GenerateCreditCardToken":false,"PaymentTokenLifetime":5}}';
const REFUND = '{"Refund":{"ID":0,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":9000}}';

/** CardPayoutRequest, with and without a billing address (the SDK test's cards expired in 02/2020: these expire in 02/2030). */
const PAYOUT =
  '{"Payout":{"MerchantTransactionID":"MTID-1","Amount":1000,"Currency":"USD","Description":"Card SDK Test Payout","StatementDescriptor":null,"BillingAddress":{"City":"Iasi","ZipCode":"7000-49","State":"Iasi","Street":"Sf Lazar","StreetNumber":"37","HouseNumber":"5A","HouseExtension":"","Country":"RO"},"Card":{"HolderName":"John Doe","Number":"4111111111111111","ExpirationMonth":"02","ExpirationYear":"2030"},"Capture":null,"Retry":null}}';
const PAYOUT_NO_BILLING =
  '{"Payout":{"MerchantTransactionID":"MTID-2","Amount":1000,"Currency":"EUR","Description":"Card SDK Test Payout","StatementDescriptor":null,"Card":{"HolderName":"John Doe","Number":"4548812049400004","ExpirationMonth":"02","ExpirationYear":"2030"},"Capture":null,"Retry":null}}';

/** A card authentication with the SDK's Customer, Address and CardDetailsRequest as it serialises them. */
const AUTHENTICATION =
  '{"CardAuthentication":{"Customer":{"MerchantCustomerID":null,"Email":"john@example.com","FirstName":"John","LastName":"Doe","Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"RO"},"Card":{"HolderName":"John Doe","Number":"4111111111111111","ExpirationMonth":"02","ExpirationYear":"2030","RequireSecurityCode":false}}}';

describe('the .NET SDK’s request bodies on the card address', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const send = (path: string, text: string) =>
    request(w.card).post(path).set('Authorization', w.auth).set('Content-Type', 'application/json; charset=utf-8').send(text);
  const nearMisses = async () =>
    ((await request(w.api).get('/_sandbox/requests?NearMiss=true')).body.Requests as { NearMiss: string }[]).map((r) => r.NearMiss);
  const sdkCard = { HolderName: 'John Doe', ExpirationMonth: '02', ExpirationYear: '2022' };

  it('pays with card details and Capture true: 201 CaptureRequested, no RedirectURL, the card masked', async () => {
    const res = await send('/v1/payments', WITH_CARD);
    expect(res.status).toBe(201);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({
      MerchantTransactionID: 'MTID-1', Amount: '9000', Currency: 'USD', MethodID: 6, RedirectURL: null,
      Status: { ID: 13, Info: 'CaptureRequested' }, Card: { ...sdkCard, Number: 'VISA-1111' }, CreditCardToken: null, Capture: true, Retry: false, PaymentTokenLifetime: 5,
    });
    expect(await nearMisses()).toEqual([]);
  });

  it('takes "3DSecure": true as ThreeDSecureCheck: 201 Open with a RedirectURL to the card form', async () => {
    const res = await send('/v1/payments', THREE_D_SECURE);
    expect(res.status).toBe(201);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({ Amount: '10002', MethodID: 6, Status: { ID: 1, Info: 'Open' }, Card: { ...sdkCard, Number: 'VISA-0004' } });
    expect(res.body.Payment.RedirectURL).toMatch(/^http:\/\/card\.sandbox\.test\/v1\/Payments\/FillCardDetails\?PaymentToken=[0-9A-F]{32}\.\d+$/);
  });

  it('PaymentTokenLifetime: the card form of a 3-D Secure payment stops working after that many minutes', async () => {
    const res = await send('/v1/payments', THREE_D_SECURE);
    expect(res.body.Payment.PaymentTokenLifetime).toBe(5);
    const form = new URL(res.body.Payment.RedirectURL as string);
    const open = () => request(w.card).get(`${form.pathname}${form.search}`);
    expect((await open()).status).toBe(200);
    w.clock.advance(5 * 60_000);
    expect((await open()).status).toBe(410);
  });

  it('GenerateCreditCardToken true: the answer carries a credit card token, which pays the next payment (201 Authorized, same card, same token)', async () => {
    const first = await send('/v1/payments', TOKEN_FIRST);
    expect(first.status).toBe(201);
    expectSchema(cardPaymentResponse, first.body);
    expect(first.body.Payment.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: [] });
    const token = first.body.Payment.CreditCardToken.Value as string;
    expect(token).toMatch(/^[0-9A-F]{32}$/);
    // The token is a card authentication's, as POST /v1/card/authenticate makes one.
    const read = await request(w.card).get(`/v1/card/token/${token}`).set('Authorization', w.auth);
    expect(read.status).toBe(200);
    expect(read.body.CardAuthentication.Card).toMatchObject({ HolderName: 'John Doe', Number: 'VISA-1111' });
    const second = await send('/v1/payments', TOKEN_SECOND.replace('TOKEN', token));
    expect(second.status).toBe(201);
    expectSchema(cardPaymentResponse, second.body);
    expect(second.body.Payment).toMatchObject({
      MerchantTransactionID: 'MTID-2', Amount: '9000', Currency: 'USD', MethodID: 6, RedirectURL: null,
      Status: { ID: 9, Info: 'Authorized' }, Card: { ...sdkCard, Number: 'VISA-1111' }, CreditCardToken: { Value: token },
    });
    // Read back, the payments show their tokens too.
    const again = await request(w.card).get(`/v1/payments/${first.body.Payment.ID}`).set('Authorization', w.auth);
    expect(again.body.Payment.CreditCardToken).toEqual({ Value: token });
  });

  it('GenerateCreditCardToken false or absent: no token', async () => {
    const res = await send('/v1/payments', TO_CAPTURE);
    expect(res.body.Payment.CreditCardToken).toBeNull();
    expect(w.store.db.prepare('SELECT count(*) FROM card_authentications').pluck().get()).toBe(0);
  });

  it('recurring card payments: a card without its security code, then its token with Capture true (201 CaptureRequested)', async () => {
    const first = await send('/v1/payments', RECURRING_FIRST);
    expect(first.status).toBe(201);
    const token = first.body.Payment.CreditCardToken.Value as string;
    const res = await send('/v1/payments', RECURRING_SECOND.replace('TOKEN', token));
    expect(res.status).toBe(201);
    expect(res.body.Payment).toMatchObject({ RedirectURL: null, Status: { ID: 13, Info: 'CaptureRequested' }, Card: { ...sdkCard, Number: 'VISA-1111' }, CreditCardToken: { Value: token } });
  });

  it('captures (200 Captured) and refunds with the SDK’s RefundRequest (201 Success)', async () => {
    const created = await send('/v1/payments', TO_CAPTURE);
    expect(created.body.Payment.Status).toMatchObject({ ID: 9, Info: 'Authorized' });
    const captured = await request(w.card).post(`/v1/payments/${created.body.Payment.ID}/capture`).set('Authorization', w.auth);
    expect(captured.status).toBe(200);
    expect(captured.body.Payment).toMatchObject({ MerchantTransactionID: 'MTID-1', Amount: '9000', Currency: 'EUR', Status: { ID: 11, Info: 'Captured' } });
    const refund = await send(`/v1/payments/${created.body.Payment.ID}/refunds`, REFUND);
    expect(refund.status).toBe(201);
    expect(refund.body.Refund).toMatchObject({ MerchantTransactionID: 'MTID-1', Amount: '9000', Currency: 'EUR', Status: { ID: 2, Info: 'Success' } });
  });

  it.each<[string, string, boolean]>([
    ['with a billing address', PAYOUT, true],
    ['without one', PAYOUT_NO_BILLING, false],
  ])('pays out %s (201 Success)', async (_name, body, billed) => {
    const res = await send('/v1/payouts', body);
    expect(res.status).toBe(201);
    expectSchema(payoutResponse, res.body);
    expect(res.body.Payout).toMatchObject({ ID: expect.any(Number), Amount: '1000', Status: { ID: 2, Info: 'Success' } });
    expect(res.body.Payout.BillingAddress === null).toBe(!billed);
  });

  it('authenticates a card sent with RequireSecurityCode (201, a token)', async () => {
    const res = await send('/v1/card/authenticate', AUTHENTICATION);
    expect(res.status).toBe(201);
    expectSchema(cardAuthenticationResponse, res.body);
    expect(res.body.CardAuthentication.CreditCardToken.Value).toMatch(/^[0-9A-F]{32}$/);
    expect(await nearMisses()).toEqual([]);
  });
});
