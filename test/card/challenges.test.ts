// Card fraud challenges: a card payment held PendingChallengeConfirmation (30) by the fraud check (the
// challenge e-mail, the control API's challenge event, the dashboard), then accepted (it goes on as its
// authorization would) or rejected (Cancelled, answered 400 with return code 118); refusals, isolation,
// and the notification of each change at a real receiver.
import request from 'supertest';
import { cardPaymentResponse, messageResponse, paymentErrorResponse } from '../../src/schemas/responses';
import { MARKETPLACE, PLAIN, START_STAMP, type World, basic, expectSchema, makeWorld, snapshot } from '../helpers/world';
import { type Agent, signedIn, submit } from '../dashboard/helpers';
import { AUTH, type Rig, advance, boot, journal, shutdown } from '../lifecycle/harness';

let seq = 0;
const CARD = { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: '312' };

/** The .NET SDK's challenge tests' create (AcceptChallengeTests.cs): 100 USD, Capture false, the challenge e-mail. */
function challengeBody(over: Record<string, unknown> = {}) {
  return {
    Payment: {
      MerchantTransactionID: `challenge-${++seq}`,
      Amount: 100,
      Currency: 'USD',
      ReturnURL: 'http://demo.smart2pay.com/redirect.php',
      Description: 'challenge test',
      StatementDescriptor: 'card payment',
      BillingAddress: { City: 'Iasi', ZipCode: '7000-49', State: 'Iasi', Street: 'Sf Lazar', StreetNumber: '37', HouseNumber: '5A', HouseExtension: '-', Country: 'BR' },
      ShippingAddress: null,
      Customer: { FirstName: 'John', LastName: 'Doe', Email: 'challenge@challenge.com', SocialSecurityNumber: '00003456789' },
      Card: CARD,
      Capture: false,
      Retry: false,
      PaymentTokenLifetime: 100,
      ThreeDSecureCheck: false,
      SkinID: 200,
      ...over,
    },
  };
}
const plainBody = (over: Record<string, unknown> = {}) => challengeBody({ Customer: { Email: 'payer@example.com' }, ...over });

const FRAUD = {
  Status: 'Challenge',
  CheckMode: 'CheckOnPreAuthorisation',
  Score: expect.any(Number),
  Reason: expect.any(String),
};

describe('card fraud challenges on the card address', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const card = (method: 'get' | 'post', path: string, auth = w.auth) => request(w.card)[method](path).set('Authorization', auth);
  async function create(body: object) {
    const res = await card('post', '/v1/payments').send(body);
    if (res.status !== 201) throw new Error(`card create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.Payment as { ID: number; [k: string]: any };
  }
  const accept = (id: number, auth?: string) => card('post', `/v1/payments/${id}/challenge/accept`, auth);
  const reject = (id: number, auth?: string) => card('post', `/v1/payments/${id}/challenge/reject`, auth);
  const hold = (id: number | string) => request(w.api).post(`/_sandbox/payments/${id}/events`).send({ Event: 'challenge' });
  const stored = (id: number) => w.store.payments.getAny(id)!;

  it('holds a payment of the challenge e-mail: 201 PendingChallengeConfirmation (30), Reasons [], with the fraud check’s verdict', async () => {
    const res = await card('post', '/v1/payments').send(challengeBody());
    expect(res.status).toBe(201);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toMatchObject({
      Amount: '100',
      Currency: 'USD',
      MethodID: 6,
      CapturedAmount: 0,
      RedirectURL: null,
      Status: { ID: 30, Info: 'PendingChallengeConfirmation', Reasons: [] },
      Fraud: FRAUD,
    });
    expect(res.body.Payment.Fraud.Score).toBeGreaterThan(0);
    expect(res.body.Payment.Fraud.Reason.trim()).not.toBe('');
    // The e-mail is compared as e-mail addresses are, without regard to case.
    const upper = await create(challengeBody({ Customer: { Email: 'Challenge@Challenge.COM' } }));
    expect(upper.Status.ID).toBe(30);
  });

  it('shows Fraud null on a payment never challenged', async () => {
    const p = await create(plainBody());
    expect(p.Status.ID).toBe(9);
    expect(p.Fraud).toBeNull();
  });

  it('accepts a held payment: 200 Authorized (9) with Capture false, the payment shape; the payment then captures as any other', async () => {
    const p = await create(challengeBody());
    w.clock.advance(2000);
    const res = await accept(p.ID);
    expect(res.status).toBe(200);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toEqual({
      ...p,
      NotificationDateTime: '20260115100002',
      Status: { ID: 9, Info: 'Authorized', Reasons: [] },
    });
    expect(stored(p.ID)).toMatchObject({ statusId: 9 });
    expect(w.store.history.ofPayment(p.ID).map((h) => [h.statusId, h.cause])).toEqual([
      [30, 'created'],
      [9, 'challenge accepted'],
    ]);
    const captured = await card('post', `/v1/payments/${p.ID}/capture`);
    expect(captured.body.Payment.Status).toEqual({ ID: 11, Info: 'Captured', Reasons: [] });
  });

  it('accepts a held payment that asked for Capture: CaptureRequested (13), then Captured (11) a moment later', async () => {
    const p = await create(challengeBody({ Capture: true }));
    expect(p.Status.ID).toBe(30);
    const res = await accept(p.ID);
    expect(res.status).toBe(200);
    expect(res.body.Payment.Status).toEqual({ ID: 13, Info: 'CaptureRequested', Reasons: [] });
    expect(w.store.jobs.ofPayment(p.ID).map((j) => [j.action, j.state])).toEqual([['card-captured', 'pending']]);
  });

  it('rejects a held payment: answered 400 as the real host does, the payment Cancelled (3) with return code 118; later reads show it Cancelled', async () => {
    const p = await create(challengeBody());
    const res = await reject(p.ID);
    expect(res.status).toBe(400);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment).toEqual({
      ...p,
      NotificationDateTime: START_STAMP,
      // As a cancel does, the payer's token goes with it.
      PaymentTokenLifetime: null,
      Status: { ID: 3, Info: 'Cancelled', Reasons: [{ Code: 118, Info: 'Challenge rejected' }] },
    });
    expect(stored(p.ID).statusId).toBe(3);
    const read = await card('get', `/v1/payments/${p.ID}`);
    expect(read.body.Payment.Status).toEqual({ ID: 3, Info: 'Cancelled', Reasons: [] });
    expect(w.store.history.ofPayment(p.ID).map((h) => [h.statusId, h.cause])).toEqual([
      [30, 'created'],
      [3, 'challenge rejected'],
    ]);
  });

  it.each([
    ['accept', accept],
    ['reject', reject],
  ])('refuses to %s the challenge of a payment not held: 400, the payment echoed with reason 1006, nothing changed', async (_what, send) => {
    const authorized = await create(plainBody());
    const answered = await create(challengeBody());
    await accept(answered.ID);
    for (const [id, statusId, info] of [
      [authorized.ID, 9, 'Authorized'],
      [answered.ID, 9, 'Authorized'],
    ] as const) {
      const before = snapshot(w.store);
      const res = await send(id);
      expect(res.status).toBe(400);
      expectSchema(paymentErrorResponse, res.body);
      expect(res.body.Payment).toMatchObject({ ID: id, Status: { ID: statusId, Info: info, Reasons: [{ Code: 1006, Info: expect.stringContaining(`(it is ${info})`) }] } });
      expect(res.body.Payment.Status.Reasons[0].Info).toMatch(/^Payment\.State is invalid: only a card payment held for a fraud challenge/);
      expect(snapshot(w.store)).toBe(before);
    }
  });

  it('answers 404 for another marketplace’s held payment, for a payment of the API address and for an unknown ID; nothing changes', async () => {
    const p = await create(challengeBody());
    const api = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'api-1', Amount: '100', Currency: 'EUR', ReturnURL: 'https://shop.example/r' } });
    const other = basic(PLAIN.SiteID, PLAIN.APIKey);
    const before = snapshot(w.store);
    for (const res of [await accept(p.ID, other), await reject(p.ID, other), await accept(api.body.Payment.ID), await reject(99999999), await accept(0)]) {
      expect(res.status).toBe(404);
      expectSchema(messageResponse, res.body);
    }
    expect(snapshot(w.store)).toBe(before);
    expect((await request(w.card).post(`/v1/payments/${p.ID}/challenge/accept`)).status).toBe(401);
    expect(stored(p.ID).statusId).toBe(30);
    // The owner still can.
    expect((await accept(p.ID, basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey))).status).toBe(200);
  });

  it('holds a payment on the control API’s challenge event, from Authorized or from Open (its card not entered yet)', async () => {
    const authorized = await create(plainBody());
    w.clock.advance(1000);
    const res = await hold(authorized.ID);
    expect(res.status).toBe(200);
    expectSchema(cardPaymentResponse, res.body);
    expect(res.body.Payment.Status).toEqual({ ID: 30, Info: 'PendingChallengeConfirmation', Reasons: [] });
    const read = (await card('get', `/v1/payments/${authorized.ID}`)).body.Payment;
    expect(read).toMatchObject({ Status: { ID: 30, Info: 'PendingChallengeConfirmation', Reasons: [] }, Fraud: FRAUD, NotificationDateTime: '20260115100001' });
    expect(w.store.history.ofPayment(authorized.ID).at(-1)).toMatchObject({ statusId: 30, cause: 'event challenge' });

    const open = await create(plainBody({ Card: undefined }));
    expect(open.Status.ID).toBe(1);
    expect(open.RedirectURL).not.toBeNull();
    expect((await hold(open.ID)).status).toBe(200);
    // Held, the payer's part is over: the card form closes.
    expect((await card('get', `/v1/payments/${open.ID}`)).body.Payment).toMatchObject({ Status: { ID: 30 }, RedirectURL: null });
    expect((await accept(open.ID)).body.Payment.Status.ID).toBe(9);
  });

  it('holds a payment of the challenge e-mail once the payer enters the card on the hosted form', async () => {
    const open = await create(challengeBody({ Card: undefined }));
    expect(open).toMatchObject({ Status: { ID: 1 }, Fraud: null });
    const res = await request(w.api).post(`/_sandbox/payments/${open.ID}/events`).send({ Event: 'authorize' });
    expect(res.status).toBe(200);
    expect((await card('get', `/v1/payments/${open.ID}`)).body.Payment).toMatchObject({ Status: { ID: 30 }, Fraud: FRAUD });
  });

  it('refuses the challenge event on a payment past its authorization, on a payment of the API address, and answers 404 for an unknown one', async () => {
    const p = await create(plainBody());
    await card('post', `/v1/payments/${p.ID}/capture`);
    const api = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'api-2', Amount: '100', Currency: 'EUR', ReturnURL: 'https://shop.example/r' } });
    const before = snapshot(w.store);
    const captured = await hold(p.ID);
    expect(captured.status).toBe(400);
    expectSchema(messageResponse, captured.body);
    expect(captured.body.Message).toBe(
      `Event challenge refused for payment ${p.ID}: Action is invalid: only an Open or Authorized card payment can be held for a fraud challenge (it is Captured)`,
    );
    const onApi = await hold(api.body.Payment.ID);
    expect([onApi.status, onApi.body.Message]).toEqual([400, `Event challenge refused for payment ${api.body.Payment.ID}: fraud challenges hold card payments`]);
    expect((await hold(99999999)).status).toBe(404);
    expect(snapshot(w.store)).toBe(before);
  });
});

describe('card fraud challenges on the dashboard', () => {
  let w: World;
  let agent: Agent;
  beforeEach(async () => {
    w = makeWorld();
    agent = await signedIn(w);
  });
  afterEach(() => w.close());

  async function create(body: object) {
    const res = await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(body);
    expect(res.status).toBe(201);
    return res.body.Payment as { ID: number };
  }
  const page = async (id: number) => (await agent.get(`/dashboard/payments/${id}`)).text;
  async function press(id: number, Event: string) {
    const res = await submit(agent, `/dashboard/payments/${id}/challenge`, { Event });
    expect([res.status, res.headers.location]).toEqual([303, `/dashboard/payments/${id}`]);
    return page(id);
  }

  it('holds an Authorized card payment with its button, then accepts it; the buttons follow the state', async () => {
    const p = await create(plainBody());
    let html = await page(p.ID);
    expect(html).toMatch(/<button name="Event" value="hold" type="submit">Hold for a fraud challenge<\/button>/);
    expect(html).toMatch(/<button name="Event" value="accept" type="submit" disabled>Accept challenge<\/button> <span class="why">Not now: Payment.State is invalid/);

    html = await press(p.ID, 'hold');
    expect(html).toContain('Held for a fraud challenge: the payment is PendingChallengeConfirmation');
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(30);
    expect(html).toMatch(/<button name="Event" value="accept" type="submit">Accept challenge<\/button>/);
    expect(html).toMatch(/<button name="Event" value="hold" type="submit" disabled>/);

    html = await press(p.ID, 'accept');
    expect(html).toContain('Challenge accepted: the payment is Authorized');
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(9);
  });

  it('rejects a held payment (Cancelled), and says why a hold is refused, changing nothing', async () => {
    const p = await create(challengeBody());
    const html = await press(p.ID, 'reject');
    expect(html).toContain('Challenge rejected: the payment is Cancelled');
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(3);
    const before = snapshot(w.store);
    const refused = await press(p.ID, 'hold');
    expect(refused).toContain('class="error"');
    expect(refused).toContain('only an Open or Authorized card payment can be held for a fraud challenge (it is Cancelled)');
    expect(snapshot(w.store)).toBe(before);
  });

  it('refuses an unknown challenge event with 400, and another marketplace’s payment is not found', async () => {
    const p = await create(plainBody());
    const before = snapshot(w.store);
    const res = await submit(agent, `/dashboard/payments/${p.ID}/challenge`, { Event: 'maybe' });
    expect([res.status, res.headers.location]).toEqual([303, `/dashboard/payments/${p.ID}`]);
    expect(await page(p.ID)).toContain('Unknown challenge event');
    const other = await signedIn(w, PLAIN);
    const csrf = /name="csrf" value="([^"]+)"/.exec((await other.get('/dashboard')).text)![1]!;
    const foreign = await other.post(`/dashboard/payments/${p.ID}/challenge`).type('form').send({ Event: 'hold', csrf });
    expect(foreign.status).toBe(404);
    expect(snapshot(w.store)).toBe(before);
  });
});

describe('card fraud challenges notified to a real receiver', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('notifies the hold, the accept and the reject as {"Payment"} in the card shape (MethodID 6), signed as the marketplace', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const card = (path: string) => request(sb.cardBaseUrl).post(path).set('Authorization', AUTH);
    const held = (await card('/v1/payments').send(challengeBody()).expect(201)).body.Payment;
    const authorized = (await card('/v1/payments').send(plainBody()).expect(201)).body.Payment;
    await advance(sb, 1);
    // Creations are answered, not notified.
    expect(rx.received).toEqual([]);

    await request(sb.baseUrl).post(`/_sandbox/payments/${authorized.ID}/events`).send({ Event: 'challenge' }).expect(200);
    await card(`/v1/payments/${held.ID}/challenge/reject`).expect(400);
    await advance(sb, 1);
    await card(`/v1/payments/${authorized.ID}/challenge/accept`).expect(200);
    await advance(sb, 1);

    const bodies = rx.received.map((r) => r.body);
    expect(bodies.map((b) => [Object.keys(b), b.Payment.ID, b.Payment.MethodID, b.Payment.Status])).toEqual([
      [['Payment'], authorized.ID, 6, { ID: 30, Info: 'PendingChallengeConfirmation', Reasons: [] }],
      [['Payment'], held.ID, 6, { ID: 3, Info: 'Cancelled', Reasons: [] }],
      [['Payment'], authorized.ID, 6, { ID: 9, Info: 'Authorized', Reasons: [] }],
    ]);
    for (const b of bodies) expectSchema(cardPaymentResponse, b);
    expect(bodies[0].Payment.Fraud).toEqual(FRAUD);
    expect(rx.received.every((r) => r.headers.authorization === AUTH)).toBe(true);
    // Both routes are in the request journal, as every route is.
    const journaled = async (route: string) =>
      (await request(sb.baseUrl).get(`/_sandbox/requests?Route=${encodeURIComponent(route)}`)).body.Requests.map((e: any) => [e.Address, e.Method, e.PaymentID, e.Status]);
    expect(await journaled('/v1/payments/{id}/challenge/reject')).toEqual([['card', 'POST', held.ID, 400]]);
    expect(await journaled('/v1/payments/{id}/challenge/accept')).toEqual([['card', 'POST', authorized.ID, 200]]);
    const notes = await journal(sb, authorized.ID);
    expect(notes.map((n: any) => [n.StatusID, n.StatusInfo, n.State])).toEqual([
      [30, 'PendingChallengeConfirmation', 'delivered'],
      [9, 'Authorized', 'delivered'],
    ]);
  });
});
