// The card address beyond create and list: capture (whole and part), cancel, refunds (of the payment and
// of a split) and their reads, /status, the hosted card form, and the card test host's test amounts.
import request from 'supertest';
import { statusInfo } from '../../src/domain/statuses';
import { cardPaymentResponse, cardRefundResponse, cardRefundsResponse, messageResponse, paymentErrorResponse, refundErrorResponse } from '../../src/schemas/responses';
import { MARKETPLACE, START_STAMP, type World, basic, expectSchema, makeWorld, snapshot } from '../helpers/world';

let seq = 0;

function cardBody(overrides: Record<string, unknown> = {}) {
  return {
    Payment: {
      MerchantTransactionID: `card-${++seq}`,
      Amount: 9000,
      Currency: 'EUR',
      ReturnURL: 'https://shop.example/card-return',
      Capture: false,
      Card: { HolderName: 'John Doe', Number: '4548812049400004', ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: '312' },
      ...overrides,
    },
  };
}

describe('card payment actions', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const card = (method: 'get' | 'post', path: string) => request(w.card)[method](path).set('Authorization', w.auth);
  async function create(overrides: Record<string, unknown> = {}) {
    const res = await card('post', '/v1/payments').send(cardBody(overrides));
    if (res.status !== 201) throw new Error(`card create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.Payment as { ID: number; MerchantTransactionID: string; [k: string]: any };
  }
  const capture = (id: number, query = '') => card('post', `/v1/payments/${id}/capture${query}`);
  const cancel = (id: number) => card('post', `/v1/payments/${id}/cancel`);
  const refund = (id: number, body: object) => card('post', `/v1/payments/${id}/refunds`).send(body);
  const stored = (id: number) => w.store.payments.getAny(id)!;

  /** A refused action on a stored card payment: 400, the payment echoed with its real ID and status and the one reason; nothing changed. */
  async function refusedOnStored(send: () => request.Test, id: number, statusId: number, code: number) {
    const before = snapshot(w.store);
    const res = await send();
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment).toMatchObject({
      ID: id,
      InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
      Status: { ID: statusId, Info: statusInfo(statusId), Reasons: [{ Code: code, Info: expect.any(String) }] },
    });
    expect(res.body.Payment.Status.Reasons).toHaveLength(1);
    expect(snapshot(w.store)).toBe(before);
    return res.body.Payment.Status.Reasons[0] as { Code: number; Info: string };
  }

  describe('POST /v1/payments/{id}/capture', () => {
    it('captures an Authorized payment in full: 200 Captured (11), CapturedAmount the amount, a JSON number', async () => {
      const p = await create();
      w.clock.advance(60_000);
      const res = await capture(p.ID);
      expect(res.status).toBe(200);
      expectSchema(cardPaymentResponse, res.body);
      expect(res.body.Payment).toEqual({
        ...p,
        CapturedAmount: 9000,
        NotificationDateTime: '20260115100100',
        Status: { ID: 11, Info: 'Captured', Reasons: [] },
      });
      expect(stored(p.ID)).toMatchObject({ statusId: 11, capturedAmount: 9000n });
      expect(w.store.history.ofPayment(p.ID).map((h) => [h.statusId, h.cause])).toEqual([
        [9, 'created'],
        [11, 'capture'],
      ]);
    });

    it('captures part with ?amount= below the amount: 200 PartiallyCaptured (35) with that CapturedAmount', async () => {
      const p = await create();
      const res = await capture(p.ID, '?amount=4500');
      expect(res.status).toBe(200);
      expect(res.body.Payment).toMatchObject({ Amount: '9000', CapturedAmount: 4500, Status: { ID: 35, Info: 'PartiallyCaptured', Reasons: [] } });
      expect(stored(p.ID)).toMatchObject({ statusId: 35, capturedAmount: 4500n });
    });

    it('reads the amount parameter whatever its case, and takes ?amount= equal to the amount as a full capture', async () => {
      const p = await create();
      const res = await capture(p.ID, '?Amount=9000');
      expect(res.body.Payment).toMatchObject({ CapturedAmount: 9000, Status: { ID: 11 } });
    });

    it('refuses a second capture with 4997, a capture of a partially captured payment with 4996', async () => {
      const full = await create();
      await capture(full.ID);
      expect((await refusedOnStored(() => capture(full.ID), full.ID, 11, 4997)).Info).toMatch(/^Payment is captured/);
      const part = await create();
      await capture(part.ID, '?amount=100');
      await refusedOnStored(() => capture(part.ID), part.ID, 35, 4996);
    });

    it('refuses a capture of a payment that is not Authorized with 17', async () => {
      const requested = await create({ Capture: true });
      const info = (await refusedOnStored(() => capture(requested.ID), requested.ID, 13, 17)).Info;
      expect(info).toBe('Payment is invalid: only an Authorized card payment can be captured (it is CaptureRequested)');
    });

    it('refuses more than the authorized amount with 1013, and an amount that is no amount with 1012', async () => {
      const p = await create();
      await refusedOnStored(() => capture(p.ID, '?amount=9001'), p.ID, 9, 1013);
      for (const bad of ['0', '-5', '10.5', 'abc', '']) await refusedOnStored(() => capture(p.ID, `?amount=${bad}`), p.ID, 9, 1012);
    });

    it('refuses a split capture body on a payment without splits with reason 11 in the Payment envelope (split captures: card-objects.test.ts)', async () => {
      const p = await create();
      const before = snapshot(w.store);
      const res = await capture(p.ID).send({ Payment: { Split: { ID: 1, Amount: 100 } } });
      expect(res.status).toBe(400);
      expectSchema(paymentErrorResponse, res.body);
      expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 11, Info: expect.stringContaining('has no splits') }]);
      expect(snapshot(w.store)).toBe(before);
    });
  });

  describe('POST /v1/payments/{id}/cancel', () => {
    it('cancels an Authorized payment: 200 Cancelled (3); its token lifetime becomes null', async () => {
      const p = await create({ PaymentTokenLifetime: 5 });
      const res = await cancel(p.ID);
      expect(res.status).toBe(200);
      expectSchema(cardPaymentResponse, res.body);
      expect(res.body.Payment).toMatchObject({ ID: p.ID, Status: { ID: 3, Info: 'Cancelled', Reasons: [] }, PaymentTokenLifetime: null, CapturedAmount: 0 });
      expect(stored(p.ID).statusId).toBe(3);
    });

    it('refuses to cancel a captured payment (4997) and a cancelled one (105)', async () => {
      const p = await create();
      await capture(p.ID);
      await refusedOnStored(() => cancel(p.ID), p.ID, 11, 4997);
      const c = await create();
      await cancel(c.ID);
      await refusedOnStored(() => cancel(c.ID), c.ID, 3, 105);
    });
  });

  describe('POST /v1/payments/{id}/refunds', () => {
    it('refunds a captured payment: 201 with the refund Success (2) at once, its Amount and Currency echoed, SplitID 0', async () => {
      const p = await create();
      await capture(p.ID);
      w.clock.advance(3_600_000);
      const res = await refund(p.ID, { Refund: { MerchantTransactionID: `${p.MerchantTransactionID}-r`, Amount: 9000, Description: 'returned' } });
      expect(res.status).toBe(201);
      expectSchema(cardRefundResponse, res.body);
      expect(res.body).toEqual({
        Refund: {
          ID: expect.any(Number),
          Created: '20260115110000',
          MerchantTransactionID: `${p.MerchantTransactionID}-r`,
          OriginatorTransactionID: null,
          InitialPaymentID: p.ID,
          Amount: '9000',
          Currency: 'EUR',
          Description: 'returned',
          TypeID: 1,
          SiteID: MARKETPLACE.SiteID,
          Details: null,
          Customer: null,
          BillingAddress: null,
          BankAddress: null,
          Articles: null,
          Status: { ID: 2, Info: 'Success', Reasons: null },
          SplitID: 0,
          CaptureID: null,
        },
      });
      expect(w.store.refunds.get(res.body.Refund.ID)).toMatchObject({ paymentId: p.ID, splitId: null, amount: 9000n, statusId: 2 });
    });

    it('refunds up to what a partial capture took, in several refunds', async () => {
      const p = await create();
      await capture(p.ID, '?amount=4500');
      expect((await refund(p.ID, { Refund: { MerchantTransactionID: 'r1', Amount: 4000 } })).status).toBe(201);
      const over = await refund(p.ID, { Refund: { MerchantTransactionID: 'r2', Amount: 501 } });
      expect(over.status).toBe(400);
      expectSchema(refundErrorResponse, over.body);
      expect(over.body.Refund.Status.Reasons).toEqual([
        { Code: 2206, Info: `Refund amount exceeds initial payment amount: Refund.Amount 501 is more than the 500 left to refund on card payment ${p.ID}` },
      ]);
      expect((await refund(p.ID, { Refund: { MerchantTransactionID: 'r3', Amount: 500 } })).status).toBe(201);
    });

    it('refuses a refund of a payment with nothing captured with 2205, and changes nothing', async () => {
      const p = await create();
      const before = snapshot(w.store);
      const res = await refund(p.ID, { Refund: { MerchantTransactionID: 'r1', Amount: 100 } });
      expect(res.status).toBe(400);
      expect(res.body.Refund).toMatchObject({ ID: 0, InitialPaymentID: p.ID, TypeID: 0, MerchantTransactionID: 'r1', Amount: 100, Status: { ID: null, Info: null } });
      expect(res.body.Refund.Status.Reasons).toEqual([
        { Code: 2205, Info: `Refund state is invalid: card payment ${p.ID} has nothing captured left to refund (it is Authorized)` },
      ]);
      expect(snapshot(w.store)).toBe(before);
    });

    it('wants a MerchantTransactionID and an amount (reason 1), and a CaptureID that names one of its captures (reason 2)', async () => {
      const p = await create();
      await capture(p.ID);
      const missing = await refund(p.ID, { Refund: { Amount: 100 } });
      expect(missing.body.Refund.Status.Reasons).toEqual([{ Code: 1, Info: 'Refund.MerchantTransactionID is missing' }]);
      const noAmount = await refund(p.ID, { Refund: { MerchantTransactionID: 'r' } });
      expect(noAmount.body.Refund.Status.Reasons).toEqual([{ Code: 1, Info: 'Refund.Amount is missing' }]);
      const capture7 = await refund(p.ID, { Refund: { MerchantTransactionID: 'r', Amount: 1, CaptureID: 7 } });
      expect(capture7.body.Refund.Status.Reasons).toEqual([{ Code: 2, Info: `Refund.CaptureID is invalid: payment ${p.ID} has no successful capture 7` }]);
    });
  });

  describe('reads', () => {
    it('GET /status answers the card payment as GET does, in its current status', async () => {
      const p = await create();
      const status = await card('get', `/v1/payments/${p.ID}/status`);
      expect(status.status).toBe(200);
      expectSchema(cardPaymentResponse, status.body);
      expect(status.body).toEqual((await card('get', `/v1/payments/${p.ID}`)).body);
      await capture(p.ID);
      expect((await card('get', `/v1/payments/${p.ID}/status/`)).body.Payment.Status).toEqual({ ID: 11, Info: 'Captured', Reasons: [] });
    });

    it('lists a payment’s refunds and reads one, each in its current status', async () => {
      const p = await create({ Amount: 10004 });
      await capture(p.ID);
      const open = (await refund(p.ID, { Refund: { MerchantTransactionID: 'r1', Amount: 4 } })).body.Refund;
      expect(open.Status).toEqual({ ID: 1, Info: 'Open', Reasons: null });
      const list = await card('get', `/v1/payments/${p.ID}/refunds`);
      expect(list.status).toBe(200);
      expectSchema(cardRefundsResponse, list.body);
      expect(list.body).toEqual({ Refunds: [open] });
      await request(w.api).post(`/_sandbox/refunds/${open.ID}/events`).send({ Event: 'succeed' }).expect(200);
      const one = await card('get', `/v1/payments/${p.ID}/refunds/${open.ID}`);
      expect(one.status).toBe(200);
      expectSchema(cardRefundResponse, one.body);
      expect(one.body).toEqual({ Refund: { ...open, Status: { ID: 2, Info: 'Success', Reasons: null } } });
    });

    it('answers 404 {"Message"} for an unknown refund, another payment’s refund, an API payment, another site’s payment', async () => {
      const p = await create();
      await capture(p.ID);
      const r = (await refund(p.ID, { Refund: { MerchantTransactionID: 'r1', Amount: 1 } })).body.Refund;
      const other = await create();
      const api = await request(w.api)
        .post('/v1/payments')
        .set('Authorization', w.auth)
        .send({ Payment: { MerchantTransactionID: 'api-1', Amount: 100, Currency: 'EUR', ReturnURL: 'https://shop.example/r' } });
      const plain = basic(30300, 'P1ainSh0p+Key/For=Sandbox');
      const cases: [string, string, string][] = [
        [`/v1/payments/${p.ID}/refunds/999999`, w.auth, 'Refund not found.'],
        [`/v1/payments/${other.ID}/refunds/${r.ID}`, w.auth, 'Refund not found.'],
        [`/v1/payments/${api.body.Payment.ID}/refunds`, w.auth, 'Payment not found.'],
        [`/v1/payments/${api.body.Payment.ID}/status`, w.auth, 'Payment not found.'],
        [`/v1/payments/${p.ID}/refunds`, plain, 'Payment not found.'],
        [`/v1/payments/${p.ID}/status`, plain, 'Payment not found.'],
      ];
      for (const [path, auth, message] of cases) {
        const res = await request(w.card).get(path).set('Authorization', auth);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { Message: message } });
      }
      const notMine = await request(w.card).post(`/v1/payments/${p.ID}/capture`).set('Authorization', plain);
      expect(notMine.status).toBe(404);
      expectSchema(messageResponse, notMine.body);
    });
  });

  describe('the card test host’s test amounts (Capture false, then each action)', () => {
    // amount → [create, capture, cancel of a fresh one, refund after capture (status or refused code)]
    it.each<[number, number, number | string, number, number | string]>([
      [9000, 9, 11, 3, 2],
      [10001, 4, 'refused 17', 105, 'refused 2205'],
      [10002, 9, 33, 3, 'refused 2205'],
      [10003, 9, 13, 3, 'refused 2205'],
      [10004, 9, 11, 3, 1],
      [10005, 9, 4, 3, 'refused 2205'],
      [10006, 9, 11, 34, 2],
    ])('amount %s: created %s, captured → %s, cancelled → %s, refunded → %s', async (amount, created, captured, cancelled, refunded) => {
      const p = await create({ Amount: amount });
      expect(p.Status.ID).toBe(created);
      const c = await capture(p.ID);
      if (typeof captured === 'number') expect([c.status, c.body.Payment.Status.ID]).toEqual([200, captured]);
      else expect([c.status, c.body.Payment.Status.Reasons[0].Code]).toEqual([400, Number(captured.split(' ')[1])]);
      const r = await refund(p.ID, { Refund: { MerchantTransactionID: `r-${amount}`, Amount: 1 } });
      if (typeof refunded === 'number') expect([r.status, r.body.Refund.Status.ID]).toEqual([201, refunded]);
      else expect([r.status, r.body.Refund.Status.Reasons[0].Code]).toEqual([400, Number(refunded.split(' ')[1])]);
      const fresh = await create({ Amount: amount });
      const x = await cancel(fresh.ID);
      if (created === 9) expect([x.status, x.body.Payment.Status.ID]).toEqual([200, cancelled]);
      else expect([x.status, x.body.Payment.Status.Reasons[0].Code]).toEqual([400, cancelled]);
    });

    it('shows QueuedForCapturing with the card host’s return code 5288 in Status.Reasons', async () => {
      const created = await create({ Amount: 10002, Capture: true });
      expect(created.Status).toEqual({ ID: 33, Info: 'QueuedForCapturing', Reasons: [{ Code: 5288, Info: 'Capture failed but will retry again later' }] });
      const p = await create({ Amount: 10002 });
      const res = await capture(p.ID);
      expectSchema(cardPaymentResponse, res.body);
      expect(res.body.Payment).toMatchObject({ CapturedAmount: 0, Status: { ID: 33, Info: 'QueuedForCapturing', Reasons: [{ Code: 5288 }] } });
    });
  });

  describe('the hosted card form', () => {
    it('without Card details: 201 Open (1) with a RedirectURL to the card form, no card shown', async () => {
      const body = cardBody({ MerchantTransactionID: 'no-card' });
      delete (body.Payment as Record<string, unknown>).Card;
      const res = await card('post', '/v1/payments').send(body);
      expect(res.status).toBe(201);
      expectSchema(cardPaymentResponse, res.body);
      const p = res.body.Payment;
      expect(p).toMatchObject({ Status: { ID: 1, Info: 'Open', Reasons: [] }, Card: null, CapturedAmount: 0, Created: START_STAMP });
      expect(p.RedirectURL).toMatch(new RegExp(`^http://card\\.sandbox\\.test/v1/Payments/FillCardDetails\\?PaymentToken=[0-9A-F]{32}\\.${p.ID}$`));
    });

    it('with ThreeDSecureCheck true: Open with a RedirectURL too, even with card details', async () => {
      const p = await create({ ThreeDSecureCheck: true, Amount: 10002 });
      expect(p.Status).toEqual({ ID: 1, Info: 'Open', Reasons: [] });
      expect(p.Card).toMatchObject({ Number: 'VISA-0004' });
      expect(p.RedirectURL).toContain('/v1/Payments/FillCardDetails?PaymentToken=');
    });

    it('shows the payment to the payer and authorizes it when the card is entered; Capture true requests the capture', async () => {
      const later = await create({ ThreeDSecureCheck: true });
      const now = await create({ ThreeDSecureCheck: true, Capture: true });
      for (const [p, status] of [[later, 9], [now, 13]] as const) {
        const url = new URL(p.RedirectURL);
        const page = await request(w.card).get(url.pathname + url.search);
        expect(page.status).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.text).toContain('90.00 EUR');
        expect(page.text).toContain(`action="/v1/Payments/FillCardDetails/authorize"`);
        const token = url.searchParams.get('PaymentToken')!;
        const done = await request(w.card).post('/v1/Payments/FillCardDetails/authorize').type('form').send({ PaymentToken: token });
        expect(done.status).toBe(303);
        expect(done.headers.location).toBe('https://shop.example/card-return');
        expect(stored(p.ID).statusId).toBe(status);
        // Pressed twice: the payment is no longer Open.
        expect((await request(w.card).post('/v1/Payments/FillCardDetails/authorize').type('form').send({ PaymentToken: token })).status).toBe(410);
      }
    });

    it('is a card form only: the API address’s payment page does not know a card payment’s token, nor the card form an API payment’s', async () => {
      const p = await create({ ThreeDSecureCheck: true });
      const token = new URL(p.RedirectURL).searchParams.get('PaymentToken')!;
      expect((await request(w.api).get(`/Home?PaymentToken=${token}`)).status).toBe(404);
      const api = await request(w.api)
        .post('/v1/payments')
        .set('Authorization', w.auth)
        .send({ Payment: { MerchantTransactionID: 'api-2', Amount: 100, Currency: 'EUR', ReturnURL: 'https://shop.example/r' } });
      const apiToken = new URL(api.body.Payment.RedirectURL).searchParams.get('PaymentToken');
      expect((await request(w.card).get(`/v1/Payments/FillCardDetails?PaymentToken=${apiToken}`)).status).toBe(404);
    });
  });

  describe('marketplace card payments with splits', () => {
    const splits = [
      { SiteID: 30202, Amount: 6000, MerchantTransactionID: 'cs-1' },
      { SiteID: 30203, Amount: 3000, MerchantTransactionID: 'cs-2' },
    ];

    it('shows its splits, which follow the payment; a split is refunded alone, the whole payment only per split (11)', async () => {
      const p = await create({ Splits: splits });
      expectSchema(cardPaymentResponse, { Payment: p });
      expect(p.Splits.map((s: any) => [s.SiteID, s.Amount, s.CapturedAmount, s.StateDetails.ID])).toEqual([
        [30202, '6000', '', 9],
        [30203, '3000', '', 9],
      ]);
      // Part of it is refused (its splits would have nothing captured to refund from), and nothing changes.
      const part = await card('post', `/v1/payments/${p.ID}/capture?amount=4500`);
      expect(part.status).toBe(400);
      expect(part.body.Payment.Status.Reasons).toEqual([{ Code: 1014, Info: 'Payment partial capture is not supported: a card payment with splits is captured whole' }]);
      expect(stored(p.ID)).toMatchObject({ statusId: 9, capturedAmount: null });
      const captured = (await capture(p.ID)).body.Payment;
      expect(captured.Splits.map((s: any) => s.StateDetails.ID)).toEqual([11, 11]);
      const [a, b] = captured.Splits;

      const whole = await refund(p.ID, { Refund: { MerchantTransactionID: 'rw', Amount: 100 } });
      expect(whole.status).toBe(400);
      expect(whole.body.Refund.Status.Reasons[0]).toMatchObject({ Code: 11 });

      const bySplitPath = await card('post', `/v1/payments/${p.ID}/splits/${a.ID}/refunds`).send({ Refund: { MerchantTransactionID: 'ra', Amount: 6000 } });
      expect(bySplitPath.status).toBe(201);
      expect(bySplitPath.body.Refund).toMatchObject({ SplitID: a.ID, SiteID: 30202, Amount: '6000', Status: { ID: 2 } });
      const bySplitId = await refund(p.ID, { Refund: { MerchantTransactionID: 'rb', Amount: 1000, SplitID: b.ID } });
      expect(bySplitId.body.Refund).toMatchObject({ SplitID: b.ID, SiteID: 30203, Amount: '1000', Status: { ID: 2 } });
      const tooMuch = await card('post', `/v1/payments/${p.ID}/splits/${a.ID}/refunds`).send({ Refund: { MerchantTransactionID: 'rc', Amount: 1 } });
      expect(tooMuch.body.Refund.Status.Reasons[0]).toMatchObject({ Code: 2205 });
      const unknown = await refund(p.ID, { Refund: { MerchantTransactionID: 'rd', Amount: 1, SplitID: 1 } });
      expect(unknown.body.Refund.Status.Reasons).toEqual([{ Code: 2, Info: `Refund.SplitID is invalid: payment ${p.ID} has no split 1` }]);
      expect((await card('post', `/v1/payments/${p.ID}/splits/1/refunds`).send({ Refund: { MerchantTransactionID: 're', Amount: 1 } })).status).toBe(404);
    });

    it('refuses splits to sites not linked to the marketplace, or adding up to more than the amount', async () => {
      const res = await card('post', '/v1/payments').send(cardBody({ Splits: [{ SiteID: 30300, Amount: 9001, MerchantTransactionID: 'x' }] }));
      expect(res.status).toBe(400);
      expect(res.body.Payment.Status.Reasons.map((r: { Code: number }) => r.Code)).toEqual([2, 118]);
    });
  });
});
