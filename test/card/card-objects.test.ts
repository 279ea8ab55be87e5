// The card address's other calls, as the official PHP SDK makes them: payment_status (`/statuss`),
// split_capture and split_refund, refund_status, capture reads, card payouts and card authentications.
import request from 'supertest';
import {
  captureResponse,
  capturesResponse,
  cardAuthenticationErrorResponse,
  cardAuthenticationResponse,
  cardPaymentResponse,
  cardRefundResponse,
  cardSplitCaptureResponse,
  cardTokenCancelResponse,
  cardTokenResponse,
  messageResponse,
  paymentErrorResponse,
  payoutErrorResponse,
  payoutResponse,
  payoutStatusResponse,
  payoutsResponse,
  refundErrorResponse,
} from '../../src/schemas/responses';
import { LINKED, PLAIN, START_STAMP, type World, basic, expectSchema, makeWorld, snapshot } from '../helpers/world';

let seq = 0;
const CARD = { HolderName: 'John Doe', Number: '4548812049400004', ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: '312' };

function cardBody(overrides: Record<string, unknown> = {}) {
  return { Payment: { MerchantTransactionID: `card-${++seq}`, Amount: 9000, Currency: 'EUR', Capture: false, Card: CARD, ...overrides } };
}

const SPLITS = [
  { SiteID: LINKED[0], Amount: '6000', MerchantTransactionID: 'cs-1' },
  { SiteID: LINKED[1], Amount: '3000', MerchantTransactionID: 'cs-2', OriginatorTransactionID: 'orig-2' },
];

describe('card address: the rest of the SDK’s calls', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const card = (method: 'get' | 'post', path: string, auth = w.auth) => request(w.card)[method](path).set('Authorization', auth);
  async function create(overrides: Record<string, unknown> = {}) {
    const res = await card('post', '/v1/payments').send(cardBody(overrides));
    if (res.status !== 201) throw new Error(`card create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.Payment as { ID: number; Splits: { ID: number }[]; [k: string]: any };
  }
  const splitCapture = (id: number, split: Record<string, unknown>) => card('post', `/v1/payments/${id}/capture`).send({ Payment: { Split: split } });

  describe('payment_status: GET /v1/payments/{id}/statuss (sic)', () => {
    it('answers as /status does: 200 with the card payment', async () => {
      const p = await create();
      const res = await card('get', `/v1/payments/${p.ID}/statuss`);
      expect(res.status).toBe(200);
      expectSchema(cardPaymentResponse, res.body);
      expect(res.body).toEqual((await card('get', `/v1/payments/${p.ID}/status`)).body);
      expect(res.body.Payment).toMatchObject({ ID: p.ID, Status: { ID: 9, Info: 'Authorized', Reasons: [] } });
    });

    it('another site’s payment is a 404 {"Message"}', async () => {
      const p = await create();
      const res = await card('get', `/v1/payments/${p.ID}/statuss`, basic(PLAIN.SiteID, PLAIN.APIKey));
      expect(res.status).toBe(404);
      expectSchema(messageResponse, res.body);
    });
  });

  describe('split_capture: POST /v1/payments/{id}/capture {"Payment": {"Split": {"ID", "Amount"}}}', () => {
    it('captures one split: the split Captured with its CapturedAmount, the payment PartiallyCaptured, the capture shown in Split.CaptureDetails', async () => {
      const p = await create({ Splits: SPLITS });
      w.clock.advance(60_000);
      const res = await splitCapture(p.ID, { ID: p.Splits[0]!.ID, Amount: 6000 });
      expect(res.status).toBe(200);
      expectSchema(cardSplitCaptureResponse, res.body);
      const [s1, s2] = res.body.Payment.Splits;
      expect(res.body.Payment).toMatchObject({ CapturedAmount: 6000, Status: { ID: 35, Info: 'PartiallyCaptured', Reasons: [] }, NotificationDateTime: '20260115100100' });
      expect(s1).toMatchObject({ ID: p.Splits[0]!.ID, CapturedAmount: '6000', StateDetails: { ID: 11, Info: 'Captured', Reasons: null } });
      expect(s2).toMatchObject({ CapturedAmount: '', StateDetails: { ID: 9, Info: 'Authorized', Reasons: null } });
      expect(res.body.Payment.Split).toEqual({
        ...s1,
        CaptureDetails: {
          ID: expect.any(Number),
          SiteID: LINKED[0],
          Created: '20260115100100',
          MerchantTransactionID: 'cs-1',
          OriginatorTransactionID: null,
          PaymentID: p.ID,
          Amount: 6000,
          Currency: 'EUR',
          Status: { ID: 2, Info: 'Success', Reasons: [] },
        },
      });
      expect(w.store.payments.getAny(p.ID)).toMatchObject({ statusId: 35, capturedAmount: 6000n });
      expect(w.store.captures.ofPayment(p.ID)).toEqual([expect.objectContaining({ splitId: p.Splits[0]!.ID, amount: 6000n, statusId: 2 })]);
    });

    it('the last split’s capture makes the payment Captured (11); part of a split leaves that split PartiallyCaptured', async () => {
      const p = await create({ Splits: SPLITS, Amount: 9000 });
      await splitCapture(p.ID, { ID: p.Splits[0]!.ID, Amount: 6000 }).expect(200);
      const res = await splitCapture(p.ID, { ID: p.Splits[1]!.ID, Amount: '2000' });
      expect(res.status).toBe(200);
      expect(res.body.Payment).toMatchObject({ CapturedAmount: 8000, Status: { ID: 35 } });
      expect(res.body.Payment.Split).toMatchObject({ CapturedAmount: '2000', StateDetails: { ID: 35, Info: 'PartiallyCaptured' }, CaptureDetails: { Amount: 2000, OriginatorTransactionID: 'orig-2' } });

      const q = await create({ Splits: SPLITS });
      await splitCapture(q.ID, { ID: q.Splits[0]!.ID }).expect(200);
      const done = await splitCapture(q.ID, { ID: q.Splits[1]!.ID });
      expect(done.body.Payment).toMatchObject({ CapturedAmount: 9000, Status: { ID: 11, Info: 'Captured' } });
    });

    it('refuses a second capture of the same split (4997), an unknown split (2), more than the split (1013), a payment without splits (11), a payment not Authorized (17): 400, nothing changed', async () => {
      const p = await create({ Splits: SPLITS });
      await splitCapture(p.ID, { ID: p.Splits[0]!.ID, Amount: 6000 }).expect(200);
      const plain = await create();
      const open = await create({ Splits: SPLITS, Card: undefined });
      const cases: [number, Record<string, unknown>, number, number][] = [
        [p.ID, { ID: p.Splits[0]!.ID, Amount: 1 }, 4997, 35],
        [p.ID, { ID: 999999, Amount: 1 }, 2, 35],
        [p.ID, { ID: p.Splits[1]!.ID, Amount: 3001 }, 1013, 35],
        [plain.ID, { ID: 1, Amount: 1 }, 11, 9],
        [open.ID, { ID: open.Splits[0]!.ID, Amount: 1 }, 17, 1],
      ];
      for (const [id, split, code, statusId] of cases) {
        const before = snapshot(w.store);
        const res = await splitCapture(id, split);
        expect(res.status).toBe(400);
        expectSchema(paymentErrorResponse, res.body);
        expect(res.body.Payment).toMatchObject({ ID: id, Status: { ID: statusId, Reasons: [{ Code: code, Info: expect.any(String) }] } });
        expect(snapshot(w.store)).toBe(before);
      }
      const bad = await card('post', `/v1/payments/${p.ID}/capture?amount=5`).send({ Payment: { Split: { ID: p.Splits[1]!.ID } } });
      expect(bad.status).toBe(400);
      expect(bad.body.Payment.Status.Reasons[0].Code).toBe(2);
    });

    it('a whole capture after a split capture is refused (4996)', async () => {
      const p = await create({ Splits: SPLITS });
      await splitCapture(p.ID, { ID: p.Splits[0]!.ID }).expect(200);
      const res = await card('post', `/v1/payments/${p.ID}/capture`);
      expect(res.status).toBe(400);
      expect(res.body.Payment.Status.Reasons[0].Code).toBe(4996);
    });
  });

  describe('split_refund: POST /v1/payments/{id}/splits/{sid}/refunds with CaptureID', () => {
    it('refunds a captured split from its capture: 201 Success, CaptureID echoed and stored', async () => {
      const p = await create({ Splits: SPLITS });
      const cap = await splitCapture(p.ID, { ID: p.Splits[0]!.ID, Amount: 6000 });
      const captureId = cap.body.Payment.Split.CaptureDetails.ID;
      const res = await card('post', `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`).send({ Refund: { CaptureID: captureId, MerchantTransactionID: 'sr-1', Amount: 2500 } });
      expect(res.status).toBe(201);
      expectSchema(cardRefundResponse, res.body);
      expect(res.body.Refund).toEqual({
        ID: expect.any(Number),
        Created: START_STAMP,
        MerchantTransactionID: 'sr-1',
        OriginatorTransactionID: null,
        InitialPaymentID: p.ID,
        Amount: '2500',
        Currency: 'EUR',
        Description: '',
        TypeID: 1,
        SiteID: LINKED[0],
        Details: null,
        Customer: null,
        BillingAddress: null,
        BankAddress: null,
        Articles: null,
        Status: { ID: 2, Info: 'Success', Reasons: null },
        SplitID: p.Splits[0]!.ID,
        CaptureID: captureId,
      });
      expect(w.store.refunds.get(res.body.Refund.ID)).toMatchObject({ captureId, splitId: p.Splits[0]!.ID, amount: 2500n });
    });

    it('refuses a split not captured (2205), a CaptureID of another split or unknown (2), more than captured (2206)', async () => {
      const p = await create({ Splits: SPLITS });
      const cap = await splitCapture(p.ID, { ID: p.Splits[0]!.ID, Amount: 6000 });
      const captureId = cap.body.Payment.Split.CaptureDetails.ID;
      const refund = (sid: number, body: Record<string, unknown>) =>
        card('post', `/v1/payments/${p.ID}/splits/${sid}/refunds`).send({ Refund: { MerchantTransactionID: `r-${++seq}`, Amount: 100, ...body } });
      for (const [sid, body, code] of [
        [p.Splits[1]!.ID, {}, 2205],
        [p.Splits[1]!.ID, { CaptureID: captureId }, 2],
        [p.Splits[0]!.ID, { CaptureID: 424242 }, 2],
        [p.Splits[0]!.ID, { CaptureID: captureId, Amount: 6001 }, 2206],
      ] as const) {
        const before = snapshot(w.store);
        const res = await refund(sid, body);
        expect(res.status).toBe(400);
        expectSchema(refundErrorResponse, res.body);
        expect(res.body.Refund.Status.Reasons).toEqual([{ Code: code, Info: expect.any(String) }]);
        expect(snapshot(w.store)).toBe(before);
      }
    });
  });

  describe('refund_status: GET /v1/refunds/{id}/status', () => {
    it('answers the refund of one of the site’s card payments; another site’s or an unknown refund is a 404', async () => {
      const p = await create();
      await card('post', `/v1/payments/${p.ID}/capture`).expect(200);
      const r = await card('post', `/v1/payments/${p.ID}/refunds`).send({ Refund: { MerchantTransactionID: 'rs-1', Amount: 100 } });
      expect(r.status).toBe(201);
      const res = await card('get', `/v1/refunds/${r.body.Refund.ID}/status`);
      expect(res.status).toBe(200);
      expectSchema(cardRefundResponse, res.body);
      expect(res.body).toEqual(r.body);
      for (const [path, auth] of [
        [`/v1/refunds/${r.body.Refund.ID}/status`, basic(PLAIN.SiteID, PLAIN.APIKey)],
        ['/v1/refunds/999999/status', w.auth],
        ['/v1/refunds/abc/status', w.auth],
      ] as const) {
        const miss = await card('get', path, auth);
        expect(miss.status).toBe(404);
        expect(miss.body).toEqual({ Message: 'Refund not found.' });
      }
    });
  });

  describe('captures_list and capture_details: GET /v1/payments/{id}/captures[/{cid}]', () => {
    it('lists each capture (whole, part, a failed one), and reads one; unknown or another payment’s capture is a 404', async () => {
      const whole = await create();
      const part = await create();
      const failing = await create({ Amount: 10005 });
      await card('post', `/v1/payments/${whole.ID}/capture`).expect(200);
      await card('post', `/v1/payments/${part.ID}/capture?amount=4500`).expect(200);
      await card('post', `/v1/payments/${failing.ID}/capture`).expect(200);
      const list = await card('get', `/v1/payments/${part.ID}/captures`);
      expect(list.status).toBe(200);
      expectSchema(capturesResponse, list.body);
      expect(list.body).toEqual({
        Captures: [
          {
            ID: expect.any(Number),
            SiteID: 30201,
            Created: START_STAMP,
            MerchantTransactionID: part.MerchantTransactionID,
            OriginatorTransactionID: null,
            PaymentID: part.ID,
            Amount: 4500,
            Currency: 'EUR',
            Status: { ID: 2, Info: 'Success', Reasons: [] },
          },
        ],
      });
      const failed = await card('get', `/v1/payments/${failing.ID}/captures`);
      expect(failed.body.Captures).toEqual([expect.objectContaining({ Amount: 10005, Status: { ID: 4, Info: 'Failed', Reasons: [] } })]);
      const none = await card('get', `/v1/payments/${(await create()).ID}/captures`);
      expect(none.body).toEqual({ Captures: [] });

      const cid = list.body.Captures[0].ID;
      const one = await card('get', `/v1/payments/${part.ID}/captures/${cid}`);
      expect(one.status).toBe(200);
      expectSchema(captureResponse, one.body);
      expect(one.body).toEqual({ Capture: list.body.Captures[0] });
      for (const path of [`/v1/payments/${whole.ID}/captures/${cid}`, `/v1/payments/${part.ID}/captures/999999`]) {
        const miss = await card('get', path);
        expect(miss.status).toBe(404);
        expect(miss.body).toEqual({ Message: 'Capture not found.' });
      }
    });

    it('a payment captured with Capture true records its capture when the requested capture completes', async () => {
      const p = await create({ Capture: true });
      expect((await card('get', `/v1/payments/${p.ID}/captures`)).body).toEqual({ Captures: [] });
      await request(w.api).post('/_sandbox/payments/' + p.ID + '/events').send({ Event: 'settle' }).expect(200);
      const list = await card('get', `/v1/payments/${p.ID}/captures`);
      expect(list.body.Captures).toEqual([expect.objectContaining({ Amount: 9000, Status: { ID: 2, Info: 'Success', Reasons: [] } })]);
    });
  });

  describe('payouts: POST /v1/payouts, GET /v1/payouts[/{id}[/status]]', () => {
    const payout = (over: Record<string, unknown> = {}, card_: Record<string, unknown> = {}) => ({
      Payout: { MerchantTransactionID: `po-${++seq}`, Amount: 1000, Currency: 'EUR', Description: 'Card SDK Test Payout', Card: { ...CARD, ...card_ }, ...over },
    });

    it('a payout to a card in date: 201 Success (2), Amount a digit string, BillingAddress as sent', async () => {
      const body = payout({ BillingAddress: { City: 'Iasi', Country: 'RO' } });
      const res = await card('post', '/v1/payouts').send(body);
      expect(res.status).toBe(201);
      expectSchema(payoutResponse, res.body);
      expect(res.body.Payout).toEqual({
        ID: expect.any(Number),
        SiteID: 30201,
        Created: START_STAMP,
        MerchantTransactionID: body.Payout.MerchantTransactionID,
        OriginatorTransactionID: null,
        Amount: '1000',
        Currency: 'EUR',
        Description: 'Card SDK Test Payout',
        StatementDescriptor: null,
        Customer: null,
        BillingAddress: { ID: expect.any(Number), City: 'Iasi', ZipCode: null, State: null, Street: null, StreetNumber: null, HouseNumber: null, HouseExtension: null, Country: 'RO' },
        Status: { ID: 2, Info: 'Success', Reasons: [] },
      });
      const stored = w.store.payouts.get(res.body.Payout.ID, 30201)!;
      expect(stored).toMatchObject({ statusId: 2, amount: 1000n, card: { Number: 'VISA-0004', HolderName: 'John Doe' } });
      expect(JSON.stringify(w.store.db.prepare('SELECT * FROM payouts').all())).not.toContain('4548812049400004');
    });

    it('an expired card: 400 with the payout’s ID and status Failed (4), stored', async () => {
      const res = await card('post', '/v1/payouts').send(payout({}, { ExpirationYear: '2018' }));
      expect(res.status).toBe(400);
      expectSchema(payoutResponse, res.body);
      expect(res.body.Payout).toMatchObject({ ID: expect.any(Number), Status: { ID: 4, Info: 'Failed', Reasons: [{ Code: 1205, Info: expect.stringContaining('expired') }] } });
      expect(w.store.payouts.get(res.body.Payout.ID, 30201)?.statusId).toBe(4);
      const amount = await card('post', '/v1/payouts').send(payout({ Amount: 10001 }));
      expect(amount.status).toBe(400);
      expect(amount.body.Payout.Status).toMatchObject({ ID: 4, Reasons: [{ Code: 13 }] });
    });

    it('a second payout with one MerchantTransactionID: 400, ID null, fields echoed, reason 20 "Key is duplicated"; nothing stored', async () => {
      const body = payout();
      await card('post', '/v1/payouts').send(body).expect(201);
      const before = snapshot(w.store);
      const res = await card('post', '/v1/payouts').send(body);
      expect(res.status).toBe(400);
      expectSchema(payoutErrorResponse, res.body);
      expect(res.body.Payout).toMatchObject({
        ID: null,
        InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
        MerchantTransactionID: body.Payout.MerchantTransactionID,
        Amount: 1000,
        Currency: 'EUR',
        BillingAddress: null,
        Status: { ID: null, Info: null, Reasons: [{ Code: 20, Info: 'Key is duplicated' }] },
      });
      expect(snapshot(w.store)).toBe(before);
    });

    it('refuses a payout without a card or with a bad amount: 400 in the Payout envelope, nothing stored', async () => {
      const before = snapshot(w.store);
      for (const body of [{ Payout: { MerchantTransactionID: 'x', Amount: 1000, Currency: 'EUR' } }, payout({ Amount: '10.50' }), {}]) {
        const res = await card('post', '/v1/payouts').send(body);
        expect(res.status).toBe(400);
        expectSchema(payoutErrorResponse, res.body);
        expect(res.body.Payout.Status.Reasons.length).toBeGreaterThan(0);
      }
      expect(snapshot(w.store)).toBe(before);
    });

    it('reads one, its status, and the list with limit/offset and filters; another site’s payout is a 404', async () => {
      const a = (await card('post', '/v1/payouts').send(payout())).body.Payout;
      w.clock.advance(1000);
      const b = (await card('post', '/v1/payouts').send(payout({ Currency: 'USD', Amount: 2500 }))).body.Payout;
      const failed = (await card('post', '/v1/payouts').send(payout({}, { ExpirationYear: '2018' }))).body.Payout;

      const one = await card('get', `/v1/payouts/${a.ID}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ Payout: a });
      const st = await card('get', `/v1/payouts/${failed.ID}/status`);
      expect(st.status).toBe(200);
      expectSchema(payoutStatusResponse, st.body);
      expect(st.body).toEqual({ Payout: { ID: failed.ID, MerchantTransactionID: failed.MerchantTransactionID, Status: failed.Status } });

      const list = await card('get', '/v1/payouts');
      expectSchema(payoutsResponse, list.body);
      expect(list.body.Payouts.map((p: any) => p.ID)).toEqual([failed.ID, b.ID, a.ID]);
      expect((await card('get', '/v1/payouts?limit=1&offset=1')).body.Payouts.map((p: any) => p.ID)).toEqual([b.ID]);
      expect((await card('get', '/v1/payouts?currency=USD')).body.Payouts.map((p: any) => p.ID)).toEqual([b.ID]);
      expect((await card('get', '/v1/payouts?statusID=4')).body.Payouts.map((p: any) => p.ID)).toEqual([failed.ID]);
      expect((await card('get', '/v1/payouts?minimumAmount=2000')).body.Payouts.map((p: any) => p.ID)).toEqual([b.ID]);
      expect((await card('get', `/v1/payouts?merchantTransactionID=${a.MerchantTransactionID}`)).body.Payouts.map((p: any) => p.ID)).toEqual([a.ID]);
      expect((await card('get', `/v1/payouts?endDate=${START_STAMP}`)).body.Payouts.map((p: any) => p.ID)).toEqual([a.ID]);
      const badLimit = await card('get', '/v1/payouts?limit=0');
      expect(badLimit.status).toBe(400);
      expect(badLimit.body.Payout.Status.Reasons).toEqual([{ Code: 107, Info: expect.stringContaining('limit') }]);

      const other = basic(PLAIN.SiteID, PLAIN.APIKey);
      expect((await card('get', `/v1/payouts/${a.ID}`, other)).status).toBe(404);
      expect((await card('get', `/v1/payouts/${a.ID}/status`, other)).body).toEqual({ Message: 'Payout not found.' });
      expect((await card('get', '/v1/payouts', other)).body).toEqual({ Payouts: [] });
    });
  });

  describe('card authentication: POST /v1/card/authenticate, GET /v1/card/token/{value}, POST …/cancel', () => {
    const auth = (over: Record<string, unknown> = {}) => ({
      CardAuthentication: { Customer: { FirstName: 'John', LastName: 'Doe', Email: 'testing2@test.com' }, BillingAddress: { Country: 'BR' }, Card: CARD, ...over },
    });

    it('verifies a card without a charge: 201 with a credit card token; reads it back; cancels it once', async () => {
      const res = await card('post', '/v1/card/authenticate').send(auth());
      expect(res.status).toBe(201);
      expectSchema(cardAuthenticationResponse, res.body);
      const token = res.body.CardAuthentication.CreditCardToken.Value;
      expect(res.body.CardAuthentication).toEqual({
        Customer: { ID: 0, MerchantCustomerID: null, Email: 'testing2@test.com', FirstName: 'John', LastName: 'Doe', Gender: null, SocialSecurityNumber: null, Phone: null, Company: null, DateOfBirth: null },
        BillingAddress: { ID: 0, City: null, ZipCode: null, State: null, Street: null, StreetNumber: null, HouseNumber: null, HouseExtension: null, Country: 'BR' },
        Card: { HolderName: 'John Doe', Number: 'VISA-0004', ExpirationMonth: '02', ExpirationYear: '2030', IssuingBankCountry: null },
        CreditCardToken: { Value: expect.stringMatching(/^[0-9A-F]{32}$/), Active: 'true' },
        Status: { ID: 2, Info: 'Success', Reasons: [] },
      });
      expect(JSON.stringify(w.store.db.prepare('SELECT * FROM card_authentications').all())).not.toMatch(/4548812049400004|312/);

      const read = await card('get', `/v1/card/token/${token}`);
      expect(read.status).toBe(200);
      expectSchema(cardTokenResponse, read.body);
      expect(read.body).toEqual({ CardAuthentication: { Card: res.body.CardAuthentication.Card, CreditCardToken: { Value: token, Active: 'true' } } });

      w.clock.advance(5000);
      const cancel = await card('post', `/v1/card/token/${token}/cancel`);
      expect(cancel.status).toBe(200);
      expectSchema(cardTokenCancelResponse, cancel.body);
      expect(cancel.body).toEqual({
        CardAuthentication: { Card: res.body.CardAuthentication.Card, CreditCardToken: { Value: token, Active: 'false' }, Status: { ID: 3, Info: 'Canceled', Reasons: [] } },
      });
      expect(w.store.cardAuths.byToken(token, 30201)).toMatchObject({ active: false, cancelledAt: w.clock.now() });
      expect((await card('get', `/v1/card/token/${token}`)).body.CardAuthentication.CreditCardToken.Active).toBe('false');

      const before = snapshot(w.store);
      const again = await card('post', `/v1/card/token/${token}/cancel`);
      expect(again.status).toBe(400);
      expectSchema(cardAuthenticationErrorResponse, again.body);
      expect(again.body.CardAuthentication.Status.Reasons).toEqual([{ Code: 2401, Info: expect.any(String) }]);
      expect(snapshot(w.store)).toBe(before);
    });

    it('refuses an expired card (1205), a number failing the Luhn check (1201) and a body without Card: 400, the number masked, nothing stored', async () => {
      const before = snapshot(w.store);
      for (const [body, code] of [
        [auth({ Card: { ...CARD, ExpirationYear: '2021' } }), 1205],
        [auth({ Card: { ...CARD, Number: '4548812049400005' } }), 1201],
        [{ CardAuthentication: {} }, 1],
      ] as const) {
        const res = await card('post', '/v1/card/authenticate').send(body);
        expect(res.status).toBe(400);
        expectSchema(cardAuthenticationErrorResponse, res.body);
        expect(res.body.CardAuthentication.Status.Reasons[0].Code).toBe(code);
        expect(JSON.stringify(res.body)).not.toContain('4548812049400');
      }
      expect(snapshot(w.store)).toBe(before);
    });

    it('a token pays and is paid out to while it is active: a card payment and a payout with CreditCardToken use its card; once cancelled, 2401; unknown, 2400', async () => {
      const token = (await card('post', '/v1/card/authenticate').send(auth())).body.CardAuthentication.CreditCardToken.Value;
      const pay = await card('post', '/v1/payments').send(cardBody({ Card: undefined, CreditCardToken: { Value: token, SecurityCode: '312' } }));
      expect(pay.status).toBe(201);
      expectSchema(cardPaymentResponse, pay.body);
      expect(pay.body.Payment).toMatchObject({ Card: { HolderName: 'John Doe', Number: 'VISA-0004', ExpirationMonth: '02', ExpirationYear: '2030' }, RedirectURL: null, Status: { ID: 9, Info: 'Authorized' } });
      const out = await card('post', '/v1/payouts').send({ Payout: { MerchantTransactionID: `tok-${++seq}`, Amount: 500, Currency: 'EUR', CreditCardToken: { Value: token.toLowerCase() } } });
      expect(out.status).toBe(201);
      expect(out.body.Payout.Status).toEqual({ ID: 2, Info: 'Success', Reasons: [] });
      expect(w.store.payouts.get(out.body.Payout.ID, 30201)?.card).toEqual({ HolderName: 'John Doe', Number: 'VISA-0004', ExpirationMonth: '02', ExpirationYear: '2030' });

      await card('post', `/v1/card/token/${token}/cancel`).expect(200);
      const before = snapshot(w.store);
      const refusedPay = await card('post', '/v1/payments').send(cardBody({ Card: undefined, CreditCardToken: { Value: token } }));
      expect(refusedPay.status).toBe(400);
      expect(refusedPay.body.Payment.Status.Reasons).toEqual([{ Code: 2401, Info: expect.stringContaining('Payment.CreditCardToken') }]);
      const refusedOut = await card('post', '/v1/payouts').send({ Payout: { MerchantTransactionID: `tok-${++seq}`, Amount: 500, Currency: 'EUR', CreditCardToken: { Value: token } } });
      expect(refusedOut.status).toBe(400);
      expect(refusedOut.body.Payout).toMatchObject({ ID: null, Status: { ID: null, Reasons: [{ Code: 2401 }] } });
      const unknown = await card('post', '/v1/payouts').send({ Payout: { MerchantTransactionID: `tok-${++seq}`, Amount: 500, Currency: 'EUR', CreditCardToken: { Value: '0'.repeat(32) } } });
      expect(unknown.body.Payout.Status.Reasons).toEqual([{ Code: 2400, Info: expect.any(String) }]);
      const neither = await card('post', '/v1/payouts').send({ Payout: { MerchantTransactionID: `tok-${++seq}`, Amount: 500, Currency: 'EUR' } });
      expect(neither.body.Payout.Status.Reasons).toEqual([{ Code: 1, Info: 'Payout.Card is missing (or give Payout.CreditCardToken)' }]);
      expect(snapshot(w.store)).toBe(before);
    });

    it('another site’s token, or no such token, is a 404', async () => {
      const token = (await card('post', '/v1/card/authenticate').send(auth())).body.CardAuthentication.CreditCardToken.Value;
      const other = basic(PLAIN.SiteID, PLAIN.APIKey);
      for (const [method, path, a] of [
        ['get', `/v1/card/token/${token}`, other],
        ['post', `/v1/card/token/${token}/cancel`, other],
        ['get', '/v1/card/token/00000000000000000000000000000000', w.auth],
        ['get', '/v1/card/token/nope', w.auth],
      ] as const) {
        const res = await card(method, path, a);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ Message: 'Credit card token not found.' });
      }
    });
  });
});
