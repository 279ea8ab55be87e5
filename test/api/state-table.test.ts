// Spec section 3, one named test per row of the state table (plus the variants a row names).
import request from 'supertest';
import { formatTimestamp } from '../../src/domain/time';
import { paymentErrorResponse, paymentResponse, splitsErrorResponse, splitsResponse } from '../../src/schemas/responses';
import {
  START,
  START_STAMP,
  type WirePayment,
  type World,
  authorizedPayment,
  createPayment,
  event,
  expectSchema,
  makeWorld,
  snapshot,
  post,
  status,
} from '../helpers/world';

const MINUTE = 60_000;
const stamp = (minutes: number) => formatTimestamp(START + minutes * MINUTE);

const get = (w: World, path: string) => request(w.api).get(path).set('Authorization', w.auth);

async function stored(w: World, id: number): Promise<WirePayment> {
  const res = await get(w, `/v1/payments/${id}`);
  expect(res.status).toBe(200);
  expectSchema(paymentResponse, res.body);
  return res.body.Payment;
}

/** `before` with its status (and every split's) moved to `s`, and the given fields changed. */
function moved(before: WirePayment, s: { ID: number; Info: string; Reasons: null }, fields: Record<string, unknown> = {}) {
  return { ...before, ...fields, Status: s, Splits: before.Splits.map((x) => ({ ...x, StateDetails: s })) };
}

/** Asserts a 400 whose body is the stored payment (real ID, current status) with the reason. */
function expectStoredRejection(res: request.Response, current: WirePayment, code: number) {
  expect(res.status).toBe(400);
  expectSchema(paymentErrorResponse, res.body);
  expect(res.body).toEqual({
    Payment: {
      ...current,
      InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
      Status: { ID: current.Status.ID, Info: current.Status.Info, Reasons: [{ Code: code, Info: expect.any(String) }] },
    },
  });
}

describe('spec 3: the state table, row by row', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('(none) -> Open: creating a payment with splits makes the payment and every split Open, with a redirect address', async () => {
    const res = await post(w, '/v1/payments', {
      Payment: {
        MerchantTransactionID: 'row-1',
        Amount: '1000',
        Currency: 'EUR',
        MethodID: 42,
        ReturnURL: 'https://shop.example/return',
        TokenLifetime: 10,
        Splits: [
          { SiteID: 30202, Amount: '700', MerchantTransactionID: 's1' },
          { SiteID: 30203, Amount: '300', MerchantTransactionID: 's2' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
    const p = res.body.Payment;
    expect(p.Status).toEqual(status(1, 'Open'));
    expect(p.Splits.map((s: { StateDetails: unknown }) => s.StateDetails)).toEqual([status(1, 'Open'), status(1, 'Open')]);
    expect(p.RedirectURL).toMatch(new RegExp(`^http://sandbox\\.test/Home\\?PaymentToken=[0-9A-F]{32}\\.${p.ID}$`));
    expect(p.NotificationDateTime).toBeNull();
    expect(await stored(w, p.ID)).toEqual(p);
  });

  it('Open -> Success (one-step, event succeed): all splits become Success', async () => {
    const created = await createPayment(w, { MethodID: 29 });
    w.clock.advance(MINUTE);
    const after = await event(w, created.ID, 'succeed');
    expect(after).toEqual(moved(created, status(2, 'Success'), { NotificationDateTime: stamp(1) }));
    expect(await stored(w, created.ID)).toEqual(after);
  });

  it('Open -> Success for Bank Transfer (method 1): the payment gets Details, with every key of 2.6', async () => {
    const created = await createPayment(w, { MethodID: 1, Amount: '1000' });
    expect(created.Details).toBeNull();
    const after = await event(w, created.ID, 'succeed');
    expectSchema(paymentResponse, { Payment: after });
    expect(after.Status).toEqual(status(2, 'Success'));
    expect(after.Splits.every((s) => s.StateDetails.ID === 2)).toBe(true);
    expect(after.Details).toMatchObject({
      AccountHolder: 'Sandbox Payments B.V.',
      IBAN: 'NL91ABNA0417164300',
      BIC: 'ABNANL2A',
      BankName: 'ABN AMRO',
      ReferenceNumber: `SBX-${created.ID}`,
      PaidAmount: '1000',
      PaidCurrency: 'EUR',
      AccountNumber: null,
      ProviderExchangeRate: null,
    });
    expect(Object.keys(after.Details as object)).toHaveLength(25);
    expect((await stored(w, created.ID)).Details).toEqual(after.Details);
  });

  it('Open -> Authorized (two-step, event authorize): all splits become Authorized', async () => {
    const created = await createPayment(w, { MethodID: 42 });
    w.clock.advance(2 * MINUTE);
    const after = await event(w, created.ID, 'authorize');
    expect(after).toEqual(moved(created, status(9, 'Authorized'), { NotificationDateTime: stamp(2) }));
    expect(await stored(w, created.ID)).toEqual(after);
  });

  it('Authorized -> Success on full capture (method 42): CapturedAmount is the amount, splits follow', async () => {
    const auth = await authorizedPayment(w, { MethodID: 42 });
    w.clock.advance(MINUTE);
    const res = await post(w, `/v1/payments/${auth.ID}/capture`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toEqual(moved(auth, status(2, 'Success'), { CapturedAmount: '1000', NotificationDateTime: stamp(1) }));
    expect(await stored(w, auth.ID)).toEqual(res.body.Payment);
  });

  it('Authorized -> CaptureRequested (13) on full capture for method 1078, then Success after the settle event', async () => {
    const auth = await authorizedPayment(w, { MethodID: 1078 });
    const res = await post(w, `/v1/payments/${auth.ID}/capture`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toEqual(moved(auth, status(13, 'CaptureRequested'), { CapturedAmount: '1000', NotificationDateTime: START_STAMP }));
    w.clock.advance(5 * MINUTE);
    const settled = await event(w, auth.ID, 'settle');
    expect(settled).toEqual(moved(auth, status(2, 'Success'), { CapturedAmount: '1000', NotificationDateTime: stamp(5) }));
    expect(await stored(w, auth.ID)).toEqual(settled);
  });

  it('Authorized -> PartiallyCaptured on capture with per-split amounts: named splits carry their CapturedAmount, the payment their exact sum', async () => {
    const auth = await authorizedPayment(w);
    const [a, b, c] = auth.Splits;
    const res = await post(w, `/v1/payments/${auth.ID}/capture`, {
      Payment: { Splits: [{ ID: a!.ID, Amount: 250 }, { ID: b!.ID, Amount: 300 }] },
    });
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    const p = res.body.Payment;
    expect(p.Status).toEqual(status(35, 'PartiallyCaptured'));
    expect(p.CapturedAmount).toBe('550');
    expect(p.Splits).toEqual([
      { ...a, CapturedAmount: '250', StateDetails: status(35, 'PartiallyCaptured') },
      { ...b, CapturedAmount: '300', StateDetails: status(35, 'PartiallyCaptured') },
      // A split the body does not name is not captured.
      { ...c, CapturedAmount: '', StateDetails: status(9, 'Authorized') },
    ]);
    expect(await stored(w, auth.ID)).toEqual(p);
  });

  it('Authorized -> PartiallyCaptured on capture of one split with an amount not above it: other splits stay Authorized', async () => {
    const auth = await authorizedPayment(w);
    const [a, b, c] = auth.Splits;
    const res = await post(w, `/v1/payments/${auth.ID}/splits/${b!.ID}/capture?amount=300`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment.Status).toEqual(status(35, 'PartiallyCaptured'));
    expect(res.body.Payment.CapturedAmount).toBe('300');
    expect(res.body.Payment.Splits).toEqual([{ ...b, CapturedAmount: '300', StateDetails: status(35, 'PartiallyCaptured') }]);
    const now = await stored(w, auth.ID);
    expect(now.Splits).toEqual([a, { ...b, CapturedAmount: '300', StateDetails: status(35, 'PartiallyCaptured') }, c]);
    expect(a!.StateDetails).toEqual(status(9, 'Authorized'));
  });

  it('Authorized -> Cancelled on cancel: all splits Cancelled, RedirectURL and TokenLifetime null', async () => {
    const auth = await authorizedPayment(w);
    w.clock.advance(MINUTE);
    const res = await post(w, `/v1/payments/${auth.ID}/cancel`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toEqual(
      moved(auth, status(3, 'Cancelled'), { RedirectURL: null, TokenLifetime: null, NotificationDateTime: stamp(1) }),
    );
    expect(await stored(w, auth.ID)).toEqual(res.body.Payment);
  });

  it('Open -> Cancelled on cancel (allowed by default, as the table says)', async () => {
    const created = await createPayment(w);
    const res = await post(w, `/v1/payments/${created.ID}/cancel`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment).toEqual(
      moved(created, status(3, 'Cancelled'), { RedirectURL: null, TokenLifetime: null, NotificationDateTime: START_STAMP }),
    );
  });

  it('Open cancel is refused with reason 122 when the sandbox allows only Authorized cancels (cancelOpen: false)', async () => {
    w.close();
    w = makeWorld({ cancelOpen: false });
    const created = await createPayment(w);
    const before = snapshot(w.store);
    const res = await post(w, `/v1/payments/${created.ID}/cancel`);
    expectStoredRejection(res, created, 122);
    expect(snapshot(w.store)).toBe(before);
    // An Authorized payment can still be cancelled.
    await event(w, created.ID, 'authorize');
    expect((await post(w, `/v1/payments/${created.ID}/cancel`)).status).toBe(200);
  });

  it('PartiallyCaptured cancel is not allowed: 400 reason 122, nothing changes', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/splits/${auth.Splits[0]!.ID}/capture?amount=100`).expect(200);
    const current = await stored(w, auth.ID);
    const before = snapshot(w.store);
    const res = await post(w, `/v1/payments/${auth.ID}/cancel`);
    expectStoredRejection(res, current, 122);
    expect(res.body.Payment.Status.ID).toBe(35);
    expect(snapshot(w.store)).toBe(before);
  });

  it('Success + add splits: the new splits are Success', async () => {
    const created = await createPayment(w, { MethodID: 2, Amount: '1500' });
    await event(w, created.ID, 'succeed');
    w.clock.advance(MINUTE);
    const res = await post(w, `/v1/payments/${created.ID}/splits`, {
      Splits: [{ SiteID: 30203, Amount: '500', MerchantTransactionID: 'late-1', OriginatorTransactionID: 'o-1' }],
    });
    expect(res.status).toBe(201);
    expectSchema(splitsResponse, res.body);
    expect(res.body).toEqual({
      Splits: [
        {
          ID: created.Splits[2]!.ID + 1,
          PaymentID: created.ID,
          SiteID: 30203,
          MerchantTransactionID: 'late-1',
          OriginatorTransactionID: 'o-1',
          Created: stamp(1),
          Amount: '500',
          Currency: 'EUR',
          CapturedAmount: '',
          StateDetails: status(2, 'Success'),
        },
      ],
    });
    const now = await stored(w, created.ID);
    expect(now.Status).toEqual(status(2, 'Success'));
    expect(now.Splits).toHaveLength(4);
    expect(now.Splits[3]).toEqual(res.body.Splits[0]);
  });

  it('Failed + add splits: the new splits are Failed', async () => {
    const created = await createPayment(w, { MethodID: 42, Amount: '1500' });
    await event(w, created.ID, 'fail');
    const res = await post(w, `/v1/payments/${created.ID}/splits`, {
      Splits: [
        { SiteID: 30202, Amount: '200', MerchantTransactionID: 'late-1' },
        { SiteID: 30204, Amount: '300', MerchantTransactionID: 'late-2' },
      ],
    });
    expect(res.status).toBe(201);
    expectSchema(splitsResponse, res.body);
    expect(res.body.Splits.map((s: { StateDetails: unknown }) => s.StateDetails)).toEqual([status(4, 'Failed'), status(4, 'Failed')]);
    expect(res.body.Splits.map((s: { Amount: string }) => s.Amount)).toEqual(['200', '300']);
    expect((await stored(w, created.ID)).Splits.map((s) => s.StateDetails.ID)).toEqual([4, 4, 4, 4, 4]);
  });

  it('any status + add splits after a refund: rejected with reason 11 in the Splits envelope, nothing changes', async () => {
    const created = await createPayment(w, { MethodID: 29, Amount: '1500' });
    await event(w, created.ID, 'succeed');
    await post(w, `/v1/payments/${created.ID}/splits/${created.Splits[0]!.ID}/refunds`, { Refund: { Amount: 100 } }).expect(201);
    const before = snapshot(w.store);
    const res = await post(w, `/v1/payments/${created.ID}/splits`, {
      Splits: [{ SiteID: 30202, Amount: '100', MerchantTransactionID: 'late-1' }],
    });
    expect(res.status).toBe(400);
    expectSchema(splitsErrorResponse, res.body);
    expect(res.body).toEqual({
      Splits: null,
      InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
      Reasons: [{ Code: 11, Info: expect.stringContaining('refund') }],
    });
    expect(snapshot(w.store)).toBe(before);
  });
});
