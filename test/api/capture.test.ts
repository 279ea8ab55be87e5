// Spec 4.3, 4.4, 4.5 (the three capture forms) and the capture rejections of sections 7 and 8.
import request from 'supertest';
import { paymentErrorResponse, paymentResponse } from '../../src/schemas/responses';
import {
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
import { keptWorld } from '../helpers/kept-world';

const AUTHORIZED = status(9, 'Authorized');
const PARTIAL = status(35, 'PartiallyCaptured');


async function stored(w: World, id: number): Promise<WirePayment> {
  const res = await request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth);
  expect(res.status).toBe(200);
  return res.body.Payment;
}

/** A 400 whose body is the stored payment (real ID, current Status) with the given reason codes. */
function expectStoredRejection(res: request.Response, current: WirePayment, codes: number[]) {
  expect(res.status).toBe(400);
  expectSchema(paymentErrorResponse, res.body);
  expect(res.body).toEqual({
    Payment: {
      ...current,
      InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
      Status: { ID: current.Status.ID, Info: current.Status.Info, Reasons: codes.map((Code) => ({ Code, Info: expect.any(String) })) },
    },
  });
}

/** Sends `send` and asserts that it is refused with the stored payment and `codes`, and that nothing changed. */
async function expectRefusedUnchanged(w: World, id: number, send: () => request.Test, codes: number[]) {
  const current = await stored(w, id);
  const before = snapshot(w.store);
  const res = await send();
  expectStoredRejection(res, current, codes);
  expect(snapshot(w.store)).toBe(before);
  return res;
}

describe('POST /v1/payments/{id}/capture without a body (4.3 full capture)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('captures in full: 200, CapturedAmount = Amount, payment and every split Success', async () => {
    const auth = await authorizedPayment(w);
    const res = await post(w, `/v1/payments/${auth.ID}/capture`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(paymentResponse, res.body);
    expect(res.body).toEqual({
      Payment: {
        ...auth,
        CapturedAmount: '1000',
        NotificationDateTime: START_STAMP,
        Status: status(2, 'Success'),
        Splits: auth.Splits.map((s) => ({ ...s, StateDetails: status(2, 'Success') })),
      },
    });
    // Split CapturedAmount stays "": nothing was captured on a split by itself.
    expect(res.body.Payment.Splits.map((s: { CapturedAmount: string }) => s.CapturedAmount)).toEqual(['', '', '']);
  });

  it.each([
    ['an empty JSON object', '{}'],
    ['{"Payment": null}', '{"Payment":null}'],
    ['an empty body with a JSON content type', ''],
  ])('treats %s as a full capture', async (_name, raw) => {
    const auth = await authorizedPayment(w);
    const res = await post(w, `/v1/payments/${auth.ID}/capture`).set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(200);
    expect(res.body.Payment.Status).toEqual(status(2, 'Success'));
    expect(res.body.Payment.CapturedAmount).toBe('1000');
  });

  it('captures a payment whose splits leave part of the amount to the marketplace in full', async () => {
    const auth = await authorizedPayment(w, { Amount: '5000' });
    const res = await post(w, `/v1/payments/${auth.ID}/capture`);
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('5000');
  });

  it('captures a payment without splits in full; the body still has no Splits key', async () => {
    const p = await createPayment(w, { Splits: undefined });
    await event(w, p.ID, 'authorize');
    const res = await post(w, `/v1/payments/${p.ID}/capture`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment.Status).toEqual(status(2, 'Success'));
    expect('Splits' in res.body.Payment).toBe(false);
  });
});

describe('POST /v1/payments/{id}/capture with per-split amounts (4.4)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('captures every split for its amount: 200, all PartiallyCaptured, payment CapturedAmount = their sum', async () => {
    const auth = await authorizedPayment(w);
    const res = await post(w, `/v1/payments/${auth.ID}/capture`, {
      Payment: { Splits: auth.Splits.map((s, i) => ({ ID: s.ID, Amount: [500, 250, 100][i] })) },
    });
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body).toEqual({
      Payment: {
        ...auth,
        CapturedAmount: '850',
        NotificationDateTime: START_STAMP,
        Status: PARTIAL,
        Splits: auth.Splits.map((s, i) => ({ ...s, CapturedAmount: ['500', '250', '100'][i], StateDetails: PARTIAL })),
      },
    });
    expect(await stored(w, auth.ID)).toEqual(res.body.Payment);
  });

  it('accepts the whole split amount and digit-string amounts', async () => {
    const auth = await authorizedPayment(w);
    const res = await post(w, `/v1/payments/${auth.ID}/capture`, {
      Payment: { Splits: [{ ID: auth.Splits[0]!.ID, Amount: '600' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('600');
    expect(res.body.Payment.Splits[0].CapturedAmount).toBe('600');
    expect(res.body.Payment.Splits[1].StateDetails).toEqual(AUTHORIZED);
  });

  it("refuses another payment's split ID with reason 2", async () => {
    const auth = await authorizedPayment(w);
    const other = await authorizedPayment(w);
    await expectRefusedUnchanged(
      w,
      auth.ID,
      () => post(w, `/v1/payments/${auth.ID}/capture`, { Payment: { Splits: [{ ID: other.Splits[0]!.ID, Amount: 10 }] } }),
      [2],
    );
  });
});

// The refusals of POST /v1/payments/{id}/capture with per-split amounts, on one world and payment while a refusal leaves them as they were.
describe('POST /v1/payments/{id}/capture with per-split amounts (4.4)', () => {
  const authorized = keptWorld((w) => authorizedPayment(w));

  it('refuses an amount above the split amount with reason 118, naming the split in the body', async () => {
    const { w, made: auth } = await authorized();
    const res = await expectRefusedUnchanged(
      w,
      auth.ID,
      () => post(w, `/v1/payments/${auth.ID}/capture`, { Payment: { Splits: [{ ID: auth.Splits[1]!.ID, Amount: 301 }] } }),
      [118],
    );
    expect(res.body.Payment.Status.Reasons[0].Info).toContain('Payment.Splits[0].Amount');
  });

  it('refuses the whole request when one of several splits is over its amount (no partial capture)', async () => {
    const { w, made: auth } = await authorized();
    await expectRefusedUnchanged(
      w,
      auth.ID,
      () =>
        post(w, `/v1/payments/${auth.ID}/capture`, {
          Payment: { Splits: [{ ID: auth.Splits[0]!.ID, Amount: 600 }, { ID: auth.Splits[2]!.ID, Amount: 101 }] },
        }),
      [118],
    );
  });

  it('refuses an unknown split ID with reason 2', async () => {
    const { w, made: auth } = await authorized();
    const res = await expectRefusedUnchanged(
      w,
      auth.ID,
      () => post(w, `/v1/payments/${auth.ID}/capture`, { Payment: { Splits: [{ ID: 1, Amount: 10 }] } }),
      [2],
    );
    expect(res.body.Payment.Status.Reasons[0].Info).toContain('Payment.Splits[0].ID');
  });

  it('refuses a split named twice with reason 2', async () => {
    const { w, made: auth } = await authorized();
    const id = auth.Splits[0]!.ID;
    await expectRefusedUnchanged(
      w,
      auth.ID,
      () => post(w, `/v1/payments/${auth.ID}/capture`, { Payment: { Splits: [{ ID: id, Amount: 10 }, { ID: id, Amount: 10 }] } }),
      [2],
    );
  });

  it('reports an unknown split and an over-amount split together', async () => {
    const { w, made: auth } = await authorized();
    await expectRefusedUnchanged(
      w,
      auth.ID,
      () =>
        post(w, `/v1/payments/${auth.ID}/capture`, {
          Payment: { Splits: [{ ID: 1, Amount: 10 }, { ID: auth.Splits[0]!.ID, Amount: 601 }] },
        }),
      [2, 118],
    );
  });
});

describe('POST /v1/payments/{id}/splits/{splitId}/capture (4.5 one split)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('captures the amount given: 200, payment PartiallyCaptured, Splits holds only the captured split', async () => {
    const auth = await authorizedPayment(w);
    const split = auth.Splits[0]!;
    const res = await post(w, `/v1/payments/${auth.ID}/splits/${split.ID}/capture?amount=450`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body).toEqual({
      Payment: {
        ...auth,
        CapturedAmount: '450',
        NotificationDateTime: START_STAMP,
        Status: PARTIAL,
        Splits: [{ ...split, CapturedAmount: '450', StateDetails: PARTIAL }],
      },
    });
    const now = await stored(w, auth.ID);
    expect(now.Splits).toEqual([{ ...split, CapturedAmount: '450', StateDetails: PARTIAL }, auth.Splits[1], auth.Splits[2]]);
  });

  it('captures the whole split when no amount is given', async () => {
    const auth = await authorizedPayment(w);
    const split = auth.Splits[1]!;
    const res = await post(w, `/v1/payments/${auth.ID}/splits/${split.ID}/capture`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect(res.body.Payment.CapturedAmount).toBe('300');
    expect(res.body.Payment.Splits).toEqual([{ ...split, CapturedAmount: '300', StateDetails: PARTIAL }]);
  });

  it('accepts an amount equal to the authorized split amount, and the parameter name in any case', async () => {
    const auth = await authorizedPayment(w);
    const res = await post(w, `/v1/payments/${auth.ID}/splits/${auth.Splits[2]!.ID}/capture?Amount=100`);
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('100');
  });
});

// The refusals of POST /v1/payments/{id}/splits/{splitId}/capture, on one world and payment while a refusal leaves them as they were.
describe('POST /v1/payments/{id}/splits/{splitId}/capture (4.5 one split)', () => {
  const authorized = keptWorld((w) => authorizedPayment(w));

  it('refuses an amount above the authorized split amount with reason 118', async () => {
    const { w, made: auth } = await authorized();
    await expectRefusedUnchanged(w, auth.ID, () => post(w, `/v1/payments/${auth.ID}/splits/${auth.Splits[2]!.ID}/capture?amount=101`), [118]);
  });

  it.each(['0', '-5', '10.5', '1e3', 'abc', '', '1000000000000'])('refuses amount=%p with reason 118', async (amount) => {
    const { w, made: auth } = await authorized();
    await expectRefusedUnchanged(
      w,
      auth.ID,
      () => post(w, `/v1/payments/${auth.ID}/splits/${auth.Splits[0]!.ID}/capture?amount=${encodeURIComponent(amount)}`),
      [118],
    );
  });
});

type CaptureForm = 'full' | 'per-split' | 'one split' | 'one split, no amount';

function capture(w: World, p: WirePayment, form: CaptureForm, splitIndex = 0) {
  const split = p.Splits[splitIndex]!;
  switch (form) {
    case 'full':
      return post(w, `/v1/payments/${p.ID}/capture`);
    case 'per-split':
      return post(w, `/v1/payments/${p.ID}/capture`, { Payment: { Splits: [{ ID: split.ID, Amount: 1 }] } });
    case 'one split':
      return post(w, `/v1/payments/${p.ID}/splits/${split.ID}/capture?amount=1`);
    case 'one split, no amount':
      return post(w, `/v1/payments/${p.ID}/splits/${split.ID}/capture`);
  }
}

const FORMS: CaptureForm[] = ['full', 'per-split', 'one split', 'one split, no amount'];

describe('capture rejections: one capture per payment, only of an Authorized payment (reason 17)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const pairs = FORMS.flatMap((first) => FORMS.map((second) => [first, second] as const));

  it.each(pairs)('refuses a second capture with reason 17 (first %s, then %s)', async (first, second) => {
    const auth = await authorizedPayment(w);
    expect((await capture(w, auth, first)).status).toBe(200);
    // The second capture names another split, so only the one-capture rule can refuse it.
    await expectRefusedUnchanged(w, auth.ID, () => capture(w, auth, second, 1), [17]);
  });

  it('refuses an over-amount per-split capture of a captured payment with 17 (the state is checked first)', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/capture`).expect(200);
    await expectRefusedUnchanged(
      w,
      auth.ID,
      () => post(w, `/v1/payments/${auth.ID}/capture`, { Payment: { Splits: [{ ID: auth.Splits[0]!.ID, Amount: 999 }] } }),
      [17],
    );
  });
});

// Each capture form refused in each state but Authorized: one world and payment for a state, while a
// refusal leaves them as they were.
describe('capture rejections: one capture per payment, only of an Authorized payment (reason 17)', () => {
  const open = keptWorld((w) => createPayment(w));
  const succeeded = keptWorld(async (w) => {
    const p = await createPayment(w, { MethodID: 29 });
    await event(w, p.ID, 'succeed');
    return p;
  });
  const cancelled = keptWorld(async (w) => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/cancel`).expect(200);
    return auth;
  });
  const failed = keptWorld(async (w) => {
    const auth = await authorizedPayment(w);
    await event(w, auth.ID, 'fail');
    return auth;
  });
  const captureRequested = keptWorld(async (w) => {
    const auth = await authorizedPayment(w, { MethodID: 1078 });
    await post(w, `/v1/payments/${auth.ID}/capture`).expect(200);
    expect((await stored(w, auth.ID)).Status.ID).toBe(13);
    return auth;
  });

  it.each(FORMS)('refuses a %s capture of an Open payment with reason 17', async (form) => {
    const { w, made: p } = await open();
    await expectRefusedUnchanged(w, p.ID, () => capture(w, p, form), [17]);
  });

  it.each(FORMS)('refuses a %s capture of a one-step Success payment with reason 17', async (form) => {
    const { w, made: p } = await succeeded();
    await expectRefusedUnchanged(w, p.ID, () => capture(w, p, form), [17]);
  });

  it.each(FORMS)('refuses a %s capture of a Cancelled payment with reason 17', async (form) => {
    const { w, made: auth } = await cancelled();
    await expectRefusedUnchanged(w, auth.ID, () => capture(w, auth, form), [17]);
  });

  it.each(FORMS)('refuses a %s capture of a Failed payment with reason 17', async (form) => {
    const { w, made: auth } = await failed();
    await expectRefusedUnchanged(w, auth.ID, () => capture(w, auth, form), [17]);
  });

  it.each(FORMS)('refuses a %s capture of a CaptureRequested payment with reason 17', async (form) => {
    const { w, made: auth } = await captureRequested();
    await expectRefusedUnchanged(w, auth.ID, () => capture(w, auth, form), [17]);
  });
});
