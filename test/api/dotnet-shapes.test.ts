// The official .NET SDK's request bodies on the API address, byte for byte as it sends them (it
// serialises every property of its request classes: "ID":0, nulls, Capture, Articles …): each is
// accepted meaning what the SDK means, and answers as the SDK's integration tests expect.
import request from 'supertest';
import { paymentResponse, refundResponse } from '../../src/schemas/responses';
import { preapprovalResponse } from '../../src/schemas/preapprovals';
import { type World, event, expectSchema, makeWorld } from '../helpers/world';

/** AlternativePaymentRequest as the SDK's bank transfer test fills it (MerchantTransactionID aside). */
const BANK_TRANSFER =
  '{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":200,"Currency":"EUR","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","MethodID":1,"Details":{"AccountNumber":null,"AccountHolder":null,"IBAN":null,"BIC":null,"PrepaidCard":null,"PrepaidCardPIN":null,"SerialNumbers":null,"Wallet":null,"ReferenceNumber":"MTID-1","PayerCountry":null,"PayerEmail":null,"PayerPhone":null,"BankCode":null,"BankName":null,"BankSortCode":null,"SocialSecurityNumber":null,"BillingCycleStart":null,"BillingCycleEnd":null,"UnsubscribeInstructions":null,"IsOffline":false,"StoreName":null,"StoreID":null,"TerminalID":null},"Customer":{"MerchantCustomerID":null,"Email":null,"FirstName":"SDK","LastName":"Test","Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"AT"},"TokenLifetime":10,"Capture":null}}';

/** The SDK's Klarna Payments create, with its basket (Articles, prices as strings). */
const KLARNA =
  '{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":2940,"Currency":"GBP","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"SDK Test Payment","MethodID":1078,"Customer":{"MerchantCustomerID":null,"Email":"youremail@email.com","FirstName":"Doe","LastName":"Test","Gender":null,"SocialSecurityNumber":null,"Phone":"+440745785615","Company":null,"DateOfBirth":null},"BillingAddress":{"City":"London","ZipCode":"W13 3BG","State":"Iasi","Street":"New Burlington St 113","StreetNumber":"Apt 214","HouseNumber":null,"HouseExtension":null,"Country":"GB"},"ShippingAddress":{"City":"London","ZipCode":"W13 3BG","State":"Iasi","Street":"New Burlington St 113","StreetNumber":"Apt 214","HouseNumber":null,"HouseExtension":null,"Country":"GB"},"Articles":[{"MerchantArticleID":"1231","Name":"TEST","Quantity":1,"Price":"1000","VAT":"1000","Discount":"200","Type":5,"DiscountValue":"0","TaxType":2},{"MerchantArticleID":"1232","Name":"TEST","Quantity":2,"Price":"1000","VAT":"1000","Discount":"200","Type":5,"DiscountValue":"0","TaxType":0}],"TokenLifetime":null,"Capture":null}}';

/** A PayPal (two-step) create with Capture true, as the SDK serialises it. */
const PAYPAL_CAPTURE =
  '{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":1000,"Currency":"EUR","ReturnURL":"http://demo.smart2pay.com/redirect.php","MethodID":42,"Customer":{"MerchantCustomerID":null,"Email":"john@example.com","FirstName":null,"LastName":null,"Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"DE"},"TokenLifetime":null,"Capture":true}}';

/** The body of the SDK's CapturePaymentAsync(id, amount, request) (its Klarna partial capture test). */
const PARTIAL_CAPTURE =
  '{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":null,"OriginatorTransactionID":null,"Amount":null,"Currency":null,"ReturnURL":null,"Articles":[{"MerchantArticleID":"1232","Name":null,"Quantity":2,"Price":"0","VAT":"0","Discount":"0","Type":0,"DiscountValue":"0","TaxType":0}],"TokenLifetime":null,"Capture":null}}';

/** RefundRequest (ID 0, OriginatorTransactionID null). */
const REFUND = '{"Refund":{"ID":0,"MerchantTransactionID":"MTID-1","OriginatorTransactionID":null,"Amount":1000}}';

/** PreapprovalRequest (its MethodID and Currency are the fixture's iDEAL; the SDK's test names a method of the real catalogue). */
const PREAPPROVAL =
  '{"Preapproval":{"MethodID":2,"MerchantPreapprovalID":"MPID-1","RecurringPeriod":0,"Description":"SDK Test Preapproval","ReturnURL":"http://demo.smart2pay.com/redirect.php","MethodOptionID":0,"Customer":{"MerchantCustomerID":null,"Email":"test_user_29302802@testuser.com","FirstName":null,"LastName":null,"Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"BR"}}}';

/** CreateRecurrentPaymentAsync's body (PREAPPROVAL_ID stands for the preapproval's ID). */
const RECURRENT =
  '{"Payment":{"ID":0,"SkinID":null,"ClientIP":null,"MerchantTransactionID":"MTID-2","OriginatorTransactionID":null,"Amount":100,"Currency":"EUR","ReturnURL":"http://demo.smart2pay.com/redirect.php","Description":"Recurring payment test SDK","PreapprovalID":PREAPPROVAL_ID,"MethodID":2,"Customer":{"MerchantCustomerID":null,"Email":"test_user_29302802@testuser.com","FirstName":null,"LastName":null,"Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"BR"},"TokenLifetime":10,"Capture":null}}';

/** The SDK's body with Splits added, as a marketplace sends it. */
const withSplits = (body: string) =>
  body.replace(
    '"Capture":null}}',
    '"Capture":null,"Splits":[{"SiteID":30202,"Amount":150,"MerchantTransactionID":"split-1","OriginatorTransactionID":null},{"SiteID":30203,"Amount":50,"MerchantTransactionID":"split-2","OriginatorTransactionID":null}]}}',
  );

describe('the .NET SDK’s request bodies on the API address', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const send = (path: string, text: string) =>
    request(w.api).post(path).set('Authorization', w.auth).set('Content-Type', 'application/json; charset=utf-8').send(text);
  const nearMisses = async () =>
    ((await request(w.api).get('/_sandbox/requests?NearMiss=true')).body.Requests as { NearMiss: string }[]).map((r) => r.NearMiss);

  it('creates a bank transfer payment from its every-property body: 201 Open with a payment page, and no near miss', async () => {
    const res = await send('/v1/payments', BANK_TRANSFER);
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({
      MerchantTransactionID: 'MTID-1',
      Amount: '200',
      Currency: 'EUR',
      MethodID: 1,
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      Customer: { FirstName: 'SDK', LastName: 'Test' },
      BillingAddress: { Country: 'AT' },
      Status: { ID: 1, Info: 'Open', Reasons: null },
      TokenLifetime: 10,
      Capture: null,
    });
    expect(res.body.Payment.RedirectURL).toMatch(/^http:\/\/sandbox\.test\/Home\?PaymentToken=[0-9A-F]{32}\.\d+$/);
    expect(await nearMisses()).toEqual([]);
  });

  it('creates one with Splits added to the SDK’s body', async () => {
    const res = await send('/v1/payments', withSplits(BANK_TRANSFER));
    expect(res.status).toBe(201);
    expect(res.body.Payment.Splits.map((s: { SiteID: number; Amount: string }) => [s.SiteID, s.Amount])).toEqual([
      [30202, '150'],
      [30203, '50'],
    ]);
  });

  it('creates a Klarna payment with its basket, and captures part of it with the SDK’s capture body (200 PartiallyCaptured)', async () => {
    const created = await send('/v1/payments', KLARNA);
    expect(created.status).toBe(201);
    expect(created.body.Payment).toMatchObject({ Amount: '2940', Currency: 'GBP', MethodID: 1078, Status: { ID: 1 } });
    await event(w, created.body.Payment.ID, 'authorize');
    const res = await send(`/v1/payments/${created.body.Payment.ID}/capture?amount=1960`, PARTIAL_CAPTURE);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({ Amount: '2940', CapturedAmount: '1960', Currency: 'GBP', MerchantTransactionID: 'MTID-1', Status: { ID: 35, Info: 'PartiallyCaptured' } });
  });

  it('captures in full without a body, and refunds with the SDK’s RefundRequest (201 Open)', async () => {
    const created = await send('/v1/payments', PAYPAL_CAPTURE.replace('"Capture":true', '"Capture":null'));
    await event(w, created.body.Payment.ID, 'authorize');
    const captured = await request(w.api).post(`/v1/payments/${created.body.Payment.ID}/capture`).set('Authorization', w.auth);
    expect(captured.status).toBe(200);
    expect(captured.body.Payment.Status.Info).toBe('Success');
    const res = await send(`/v1/payments/${created.body.Payment.ID}/refunds`, REFUND);
    expect(res.status).toBe(201);
    expectSchema(refundResponse, res.body);
    expect(res.body.Refund).toMatchObject({ MerchantTransactionID: 'MTID-1', Amount: '1000', Currency: 'EUR', Status: { ID: 1, Info: 'Open' } });
  });

  describe('Capture on a create', () => {
    it('true: a two-step payment is captured where it would be authorized (Success, CapturedAmount, no capture call)', async () => {
      const created = await send('/v1/payments', PAYPAL_CAPTURE);
      expect(created.status).toBe(201);
      expect(created.body.Payment).toMatchObject({ Status: { ID: 1 }, Capture: true });
      const after = await event(w, created.body.Payment.ID, 'authorize');
      expect(after).toMatchObject({ CapturedAmount: '1000', Status: { ID: 2, Info: 'Success' }, Capture: true });
      expect(w.store.history.ofPayment(created.body.Payment.ID).map((h) => h.statusId)).toEqual([1, 2]);
      const again = await request(w.api).post(`/v1/payments/${created.body.Payment.ID}/capture`).set('Authorization', w.auth);
      expect(again.status).toBe(400);
      expect(again.body.Payment.Status.Reasons[0].Code).toBe(17);
    });

    it.each(['null', 'false'])('%s: Authorized, for the merchant to capture', async (value) => {
      const created = await send('/v1/payments', PAYPAL_CAPTURE.replace('"Capture":true', `"Capture":${value}`));
      expect(created.status).toBe(201);
      expect(created.body.Payment.Capture).toBeNull();
      const after = await event(w, created.body.Payment.ID, 'authorize');
      expect(after).toMatchObject({ CapturedAmount: null, Status: { ID: 9, Info: 'Authorized' } });
    });
  });

  it('creates a preapproval and charges it with the SDK’s recurrent body (201 Success, PreapprovalID)', async () => {
    const pre = await send('/v1/preapprovals', PREAPPROVAL);
    expect(pre.status).toBe(201);
    expectSchema(preapprovalResponse, pre.body);
    expect(pre.body.Preapproval.RedirectURL).not.toBeNull();
    expect(pre.body.Preapproval.Customer.ID).toEqual(expect.any(Number));
    const id = pre.body.Preapproval.ID as number;
    expect((await request(w.api).post(`/_sandbox/preapprovals/${id}/events`).send({ Event: 'open' })).status).toBe(200);
    const res = await send('/v1/payments/recurrent', RECURRENT.replace('PREAPPROVAL_ID', String(id)));
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({ MerchantTransactionID: 'MTID-2', Amount: '100', PreapprovalID: id, Status: { ID: 2, Info: 'Success' } });
    expect(await nearMisses()).toEqual([]);
  });
});
