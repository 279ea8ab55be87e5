// Preapprovals and recurring payments, as the official SDKs call them: exact bodies, status codes,
// stored state, the statuses moving on the sandbox clock and the {"Preapproval"} notifications a real
// receiver gets; refusals in the wrong state.
import request from 'supertest';
import { basic, PLAIN, START_STAMP } from '../helpers/world';
import { AUTH, type Rig, advance, boot, shutdown, stamp } from '../lifecycle/harness';
import { preapprovalErrorResponse, preapprovalResponse, preapprovalsResponse } from '../../src/schemas/preapprovals';
import { listResponse, paymentErrorResponse, paymentResponse } from '../../src/schemas/responses';
import type { Schema } from '../../src/schemas/common';
import { compile } from '../../src/schemas/validator';

/** The answer has the shape the OpenAPI document gives it. */
function shaped(schema: Schema, body: unknown): void {
  const check = compile(schema);
  expect(check(body) ? [] : check.errors).toEqual([]);
}

const BODY = {
  Preapproval: {
    MerchantPreapprovalID: 'sub-1',
    Description: '1 year subscription',
    ReturnURL: 'https://shop.example/return',
    MethodID: 2,
    Customer: { FirstName: 'John', LastName: 'Doe', Email: 'john@example.com', Phone: '0765260000' },
    BillingAddress: { Street: 'Tonelero', StreetNumber: '1', ZipCode: '23900-000', City: 'Rio de Janeiro', Country: 'BR' },
  },
};

/** The PHP SDK's own body for the same call: every unset number 0, an unset Currency "". */
const SDK_BODY = {
  Preapproval: {
    MerchantPreapprovalID: 'sub-sdk', MethodID: 2, MethodOptionID: 0, RecurringPeriod: 0, Description: 'd',
    PreapprovedMaximumAmount: 0, Currency: '', ReturnURL: 'https://shop.example/r', Customer: { Email: 'a@b.co' }, BillingAddress: { Country: 'BR' },
  },
};

describe('preapprovals', () => {
  let rig: Rig;
  beforeEach(async () => {
    rig = await boot({ seed: 42 });
  });
  afterEach(() => shutdown(rig));

  const api = () => request(rig.sb.baseUrl);
  const create = (body: unknown = BODY, scenario?: string) => {
    const r = api().post('/v1/preapprovals/').set('Authorization', AUTH);
    return (scenario ? r.set('X-Sandbox-Scenario', scenario) : r).send(body as object);
  };

  it('creates one Pending with a payer page (201), then opens it 2 s later and notifies {"Preapproval"}', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    const p = res.body.Preapproval;
    expect(res.body).toEqual({
      Preapproval: {
        ID: 4201,
        Created: START_STAMP,
        MethodID: 2,
        SiteID: 30201,
        MerchantPreapprovalID: 'sub-1',
        RecurringPeriod: 0,
        PreapprovedMaximumAmount: null,
        Currency: null,
        ReturnURL: 'https://shop.example/return',
        Description: '1 year subscription',
        Customer: {
          ID: expect.any(Number), MerchantCustomerID: null, Email: 'john@example.com', FirstName: 'John', LastName: 'Doe',
          Gender: null, SocialSecurityNumber: null, Phone: '0765260000', Company: null, DateOfBirth: null,
        },
        BillingAddress: {
          ID: expect.any(Number), City: 'Rio de Janeiro', ZipCode: '23900-000', State: null, Street: 'Tonelero', StreetNumber: '1',
          HouseNumber: null, HouseExtension: null, Country: 'BR',
        },
        Status: { ID: 1, Info: 'Pending', Reasons: null },
        RedirectURL: expect.stringMatching(new RegExp(`^${rig.sb.baseUrl}/Home/Preapproval\\?PreapprovalToken=[0-9A-F]{32}\\.4201$`)),
        MethodOptionID: 0,
        PreapprovedFrequency: null,
        MandateReference: null,
      },
    });
    shaped(preapprovalResponse, res.body);
    // Stored as answered.
    const stored = rig.sb.services.store.preapprovals.getAny(p.ID)!;
    expect(stored).toMatchObject({ statusId: 1, ownerSiteId: 30201, merchantPreapprovalId: 'sub-1', scenario: 'preapproval-opens' });
    expect((await api().get(`/v1/preapprovals/${p.ID}/`).set('Authorization', AUTH)).body).toEqual(res.body);

    await advance(rig.sb, 1.999);
    expect(rig.rx.received).toHaveLength(0);
    await advance(rig.sb, 0.001);
    const open = { ...p, Status: { ID: 2, Info: 'Open', Reasons: null }, RedirectURL: null };
    expect(rig.rx.received.map((r) => r.body)).toEqual([{ Preapproval: open }]);
    expect(rig.rx.received[0]!.headers.authorization).toBe(AUTH);
    expect((await api().get(`/v1/preapprovals/${p.ID}`).set('Authorization', AUTH)).body).toEqual({ Preapproval: open });
    const control = await api().get(`/_sandbox/preapprovals/${p.ID}`);
    expect(control.body.History).toEqual([
      { At: START_STAMP, StatusID: 1, StatusInfo: 'Pending', Cause: 'created' },
      { At: stamp(2000), StatusID: 2, StatusInfo: 'Open', Cause: 'scenario preapproval-opens: open' },
    ]);
    expect(control.body.Steps).toEqual([{ Action: 'open', Due: stamp(2000), State: 'done', Outcome: 'Open', Ran: stamp(2000) }]);
    const journal = await api().get(`/_sandbox/notifications?PreapprovalID=${p.ID}`);
    expect(journal.body.Notifications).toMatchObject([{ PaymentID: null, PreapprovalID: p.ID, StatusID: 2, StatusInfo: 'Open', State: 'delivered' }]);
    // Waiting for it from a test file, and what a wait that runs out says.
    await expect(rig.sb.notifications.waitFor({ PreapprovalID: p.ID, StatusID: 2 }, 1000)).resolves.toMatchObject({ PreapprovalID: p.ID, StatusInfo: 'Open', State: 'delivered' });
    const waited = await api().get(`/_sandbox/notifications/wait?PreapprovalID=${p.ID}&StatusID=4&TimeoutMs=0`);
    expect(waited.status).toBe(408);
    expect(waited.body.Message).toContain(`no notification with StatusID 4 for preapproval ${p.ID}; it has 1: `);
    expect(waited.body.Message).toContain(' Open (delivered)');
  });

  it('takes the PHP SDK body as it is: 0 and "" mean not set', async () => {
    const res = await create(SDK_BODY);
    expect(res.status).toBe(201);
    expect(res.body.Preapproval).toMatchObject({ MethodOptionID: 0, RecurringPeriod: 0, PreapprovedMaximumAmount: null, Currency: null, Customer: { Email: 'a@b.co' } });
  });

  it('refuses a body that is wrong, with reasons in the Preapproval envelope, and stores nothing', async () => {
    const noMethod = await create({ Preapproval: { ...SDK_BODY.Preapproval, MethodID: 0 } });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body.Preapproval).toMatchObject({ ID: null, MerchantPreapprovalID: 'sub-sdk', InvalidRequestID: expect.any(String) });
    shaped(preapprovalErrorResponse, noMethod.body);
    expect(noMethod.body.Preapproval.Status).toEqual({ ID: 0, Info: null, Reasons: [{ Code: 1, Info: 'Preapproval.MethodID is missing' }] });
    const unknown = await create({ Preapproval: { ...SDK_BODY.Preapproval, MethodID: 6 } });
    expect(unknown.body.Preapproval.Status.Reasons).toEqual([{ Code: 5, Info: 'Preapproval.MethodID is invalid: 6 is not a method of this address' }]);
    const missing = await create({ Preapproval: { MethodID: 2 } });
    expect(missing.status).toBe(400);
    expect(missing.body.Preapproval.Status.Reasons[0].Code).toBe(1);
    expect(rig.sb.services.store.preapprovals.list(30201, 10)).toEqual([]);
    expect((await create()).status).toBe(201);
    const twice = await create();
    expect(twice.status).toBe(400);
    expect(twice.body.Preapproval.Status.Reasons).toEqual([{ Code: 20, Info: 'Preapproval.MerchantPreapprovalID is duplicated: sub-1 was used before on site 30201' }]);
    const badScenario = await create({ Preapproval: { ...BODY.Preapproval, MerchantPreapprovalID: 'x' } }, 'nope');
    expect(badScenario.status).toBe(400);
  });

  it('lists a site\'s preapprovals, newest first, with limit; another site sees none of them (404)', async () => {
    const a = (await create()).body.Preapproval;
    const b = (await create({ Preapproval: { ...BODY.Preapproval, MerchantPreapprovalID: 'sub-2' } })).body.Preapproval;
    const list = await api().get('/v1/preapprovals/').set('Authorization', AUTH);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ Preapprovals: [b, a] });
    shaped(preapprovalsResponse, list.body);
    expect((await api().get('/v1/preapprovals?limit=1').set('Authorization', AUTH)).body.Preapprovals.map((p: any) => p.ID)).toEqual([b.ID]);
    expect((await api().get('/v1/preapprovals?limit=zero').set('Authorization', AUTH)).status).toBe(400);
    const other = basic(PLAIN.SiteID, PLAIN.APIKey);
    expect((await api().get('/v1/preapprovals').set('Authorization', other)).body).toEqual({ Preapprovals: [] });
    const foreign = await api().get(`/v1/preapprovals/${a.ID}`).set('Authorization', other);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ Message: 'Preapproval not found.' });
    expect((await api().delete(`/v1/preapprovals/${a.ID}`).set('Authorization', other)).status).toBe(404);
    expect((await api().get('/v1/preapprovals').set('Authorization', basic(30201, 'wrong'))).status).toBe(401);
  });

  it('closes one (DELETE, 200, ClosedByCustomer 4) with its notification; a second close is refused with reason 12', async () => {
    const p = (await create()).body.Preapproval;
    await advance(rig.sb, 2);
    const closed = await api().delete(`/v1/preapprovals/${p.ID}`).set('Authorization', AUTH);
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ Preapproval: { ...p, Status: { ID: 4, Info: 'ClosedByCustomer', Reasons: null }, RedirectURL: null } });
    expect(rig.sb.services.store.preapprovals.getAny(p.ID)!.statusId).toBe(4);
    await advance(rig.sb, 0);
    expect(rig.rx.received.map((r) => r.body.Preapproval.Status.ID)).toEqual([2, 4]);

    const again = await api().delete(`/v1/preapprovals/${p.ID}`).set('Authorization', AUTH);
    expect(again.status).toBe(400);
    shaped(preapprovalErrorResponse, again.body);
    expect(again.body.Preapproval).toMatchObject({ ID: p.ID, InvalidRequestID: expect.any(String), MerchantPreapprovalID: 'sub-1' });
    expect(again.body.Preapproval.Status).toEqual({ ID: 4, Info: 'ClosedByCustomer', Reasons: [{ Code: 12, Info: 'Preapproval is invalid: it is closed already (ClosedByCustomer)' }] });
    await advance(rig.sb, 0);
    expect(rig.rx.received).toHaveLength(2);
  });

  it('follows its scenario: declined (Closed 3), or held Pending until the provider acts through the control API', async () => {
    const declined = (await create(BODY, 'preapproval-declined')).body.Preapproval;
    const held = (await create({ Preapproval: { ...BODY.Preapproval, MerchantPreapprovalID: 'sub-2' } }, 'preapproval-payer-decides')).body.Preapproval;
    await advance(rig.sb, 60);
    expect(rig.rx.received.map((r) => [r.body.Preapproval.ID, r.body.Preapproval.Status])).toEqual([[declined.ID, { ID: 3, Info: 'Closed', Reasons: null }]]);
    expect(rig.sb.services.store.preapprovals.getAny(held.ID)!.statusId).toBe(1);
    const ev = await api().post(`/_sandbox/preapprovals/${held.ID}/events`).send({ Event: 'open' });
    expect(ev.status).toBe(200);
    expect(ev.body.Preapproval.Status).toEqual({ ID: 2, Info: 'Open', Reasons: null });
    const wrong = await api().post(`/_sandbox/preapprovals/${held.ID}/events`).send({ Event: 'open' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ Message: 'Preapproval is invalid: only a Pending preapproval can open (it is Open)' });
    expect((await api().post(`/_sandbox/preapprovals/${held.ID}/events`).send({ Event: 'explode' })).status).toBe(400);
    expect((await api().post('/_sandbox/preapprovals/999/events').send({ Event: 'open' })).status).toBe(404);
  });

  it('a closed preapproval skips its scenario step, with why', async () => {
    const p = (await create()).body.Preapproval;
    expect((await api().delete(`/v1/preapprovals/${p.ID}`).set('Authorization', AUTH)).status).toBe(200);
    await advance(rig.sb, 2);
    const control = await api().get(`/_sandbox/preapprovals/${p.ID}`);
    expect(control.body.Steps).toEqual([
      { Action: 'open', Due: stamp(2000), State: 'skipped', Outcome: 'skipped: Preapproval is invalid: only a Pending preapproval can open (it is ClosedByCustomer)', Ran: stamp(2000) },
    ]);
    expect(rig.rx.received.map((r) => r.body.Preapproval.Status.ID)).toEqual([4]);
  });
});

describe('preapprovals under fault rules', () => {
  let rig: Rig;
  beforeEach(async () => {
    rig = await boot({ seed: 42 });
  });
  afterEach(() => shutdown(rig));
  const api = () => request(rig.sb.baseUrl);

  it('a rule on the close route answers 503 and closes nothing; a notification rule drops its Open notification', async () => {
    const p = (await api().post('/v1/preapprovals').set('Authorization', AUTH).send(BODY)).body.Preapproval;
    const rule = await api().post('/_sandbox/faults').send({ Channel: 'api', Match: { Method: 'DELETE', Path: '/v1/preapprovals/{id}' }, Action: { Status: 503 }, Times: 1 });
    expect(rule.status).toBe(201);
    const faulted = await api().delete(`/v1/preapprovals/${p.ID}`).set('Authorization', AUTH);
    expect(faulted.status).toBe(503);
    expect(rig.sb.services.store.preapprovals.getAny(p.ID)!.statusId).toBe(1);
    expect((await api().post('/_sandbox/faults').send({ Channel: 'notifications', Match: { SiteID: 30201, StatusID: 2 }, Action: { Drop: true }, Times: 1 })).status).toBe(201);
    await advance(rig.sb, 2);
    expect(rig.rx.received).toEqual([]);
    const journal = await api().get(`/_sandbox/notifications?PreapprovalID=${p.ID}`);
    expect(journal.body.Notifications).toMatchObject([{ PreapprovalID: p.ID, StatusID: 2, State: 'dropped', Fault: 'dropped by fault 2' }]);
    expect((await api().delete(`/v1/preapprovals/${p.ID}`).set('Authorization', AUTH)).status).toBe(200);
    await advance(rig.sb, 0);
    expect(rig.rx.received.map((r) => r.body.Preapproval.Status.ID)).toEqual([4]);
  });
});

describe('recurring payments (POST /v1/payments/recurrent)', () => {
  let rig: Rig;
  beforeEach(async () => {
    rig = await boot({ seed: 42 });
  });
  afterEach(() => shutdown(rig));
  const api = () => request(rig.sb.baseUrl);

  async function openPreapproval(extra: Record<string, unknown> = {}) {
    const res = await api().post('/v1/preapprovals').set('Authorization', AUTH).send({ Preapproval: { ...BODY.Preapproval, ...extra } });
    expect(res.status).toBe(201);
    await advance(rig.sb, 2);
    return res.body.Preapproval;
  }
  /** The PHP SDK's payment_recurrent body. */
  const charge = (preapprovalId: number, extra: Record<string, unknown> = {}) =>
    api().post('/v1/payments/recurrent').set('Authorization', AUTH).send({
      Payment: { MerchantTransactionID: `rec-${Math.random().toString(36).slice(2, 8)}`, Amount: 1000, Currency: 'EUR', ReturnURL: 'https://shop.example/return', PreapprovalID: preapprovalId, Customer: { Email: 'john@example.com' }, ...extra },
    });

  it('charges an Open preapproval: 201, Success at once, PreapprovalID; listed under the preapproval', async () => {
    const p = await openPreapproval();
    const before = await api().get(`/v1/preapprovals/${p.ID}/payments`).set('Authorization', AUTH);
    expect(before.body).toEqual({ Payments: [], Count: 0, TotalPages: 0, TotalCount: 0, PageIndex: 1, PageSize: 10 });
    const res = await charge(p.ID, { MerchantTransactionID: 'rec-1', Description: 'month 1' });
    expect(res.status).toBe(201);
    expect(res.body.Payment).toMatchObject({
      ID: expect.any(Number), MerchantTransactionID: 'rec-1', Amount: '1000', Currency: 'EUR', MethodID: 2, SiteID: 30201,
      PreapprovalID: p.ID, Status: { ID: 2, Info: 'Success', Reasons: null }, RedirectURL: null, Description: 'month 1',
    });
    shaped(paymentResponse, res.body);
    const id = res.body.Payment.ID;
    expect(rig.sb.services.store.payments.getAny(id)).toMatchObject({ statusId: 2, preapprovalId: p.ID });
    expect((await api().get(`/v1/payments/${id}/`).set('Authorization', AUTH)).body.Payment.PreapprovalID).toBe(p.ID);
    const after = await api().get(`/v1/preapprovals/${p.ID}/payments`).set('Authorization', AUTH);
    shaped(listResponse, after.body);
    expect(after.body).toMatchObject({ Count: 1, TotalCount: 1, TotalPages: 1, PageIndex: 1, PageSize: 10 });
    expect(after.body.Payments.map((x: any) => [x.ID, x.PreapprovalID, x.Status.ID])).toEqual([[id, p.ID, 2]]);
    // Its request needs the preapproval: no story to replay.
    const story = await api().get(`/_sandbox/payments/${id}/story`);
    expect(story.status).toBe(400);
    expect(story.body).toEqual({ Message: `payment ${id} was charged under preapproval ${p.ID}: a recurring payment has no story` });
    // Made in its final status: no notification of it.
    await advance(rig.sb, 5);
    expect(rig.rx.received.filter((r) => r.body.Payment)).toEqual([]);
  });

  it('refuses a Pending or closed preapproval (12), an amount above the maximum (13), another method (5), an unknown one (12)', async () => {
    const pending = (await api().post('/v1/preapprovals').set('Authorization', AUTH).set('X-Sandbox-Scenario', 'preapproval-payer-decides').send({ Preapproval: { ...BODY.Preapproval, MerchantPreapprovalID: 'pending' } })).body.Preapproval;
    const r1 = await charge(pending.ID, { MerchantTransactionID: 'r1' });
    expect(r1.status).toBe(400);
    shaped(paymentErrorResponse, r1.body);
    expect(r1.body.Payment).toMatchObject({ ID: null, MerchantTransactionID: 'r1', PreapprovalID: pending.ID });
    expect(r1.body.Payment.Status).toEqual({ ID: null, Info: null, Reasons: [{ Code: 12, Info: 'Preapproval is invalid: only an Open preapproval can be charged (it is Pending)' }] });
    const capped = await openPreapproval({ MerchantPreapprovalID: 'capped', PreapprovedMaximumAmount: 500, Currency: 'EUR' });
    expect(capped.PreapprovedMaximumAmount).toBe('500');
    expect((await charge(capped.ID)).body.Payment.Status.Reasons).toEqual([{ Code: 13, Info: 'Preapproved payment is invalid: Payment.Amount 1000 is above the preapproved maximum 500' }]);
    expect((await charge(capped.ID, { Amount: 500, Currency: 'USD' })).body.Payment.Status.Reasons).toEqual([{ Code: 100, Info: `Payment.Currency is invalid: preapproval ${capped.ID} is in EUR` }]);
    expect((await charge(capped.ID, { Amount: 500, MethodID: 42 })).body.Payment.Status.Reasons[0].Code).toBe(5);
    expect((await charge(capped.ID, { Amount: 500 })).status).toBe(201);
    expect((await charge(999999)).body.Payment.Status.Reasons).toEqual([{ Code: 12, Info: 'Preapproval is invalid: Payment.PreapprovalID 999999 names no preapproval of site 30201' }]);
    expect((await api().delete(`/v1/preapprovals/${capped.ID}`).set('Authorization', AUTH)).status).toBe(200);
    expect((await charge(capped.ID, { Amount: 1 })).body.Payment.Status.Reasons[0]).toEqual({ Code: 12, Info: 'Preapproval is invalid: only an Open preapproval can be charged (it is ClosedByCustomer)' });
    const noId = await api().post('/v1/payments/recurrent').set('Authorization', AUTH).send({ Payment: { MerchantTransactionID: 'x', Amount: 1, Currency: 'EUR' } });
    expect(noId.status).toBe(400);
    expect(noId.body.Payment.Status.Reasons[0].Code).toBe(1);
    // Nothing was made by the refusals: one payment, the one that went through.
    expect(rig.sb.services.store.payments.ofPreapproval(capped.ID, 10, 0).total).toBe(1);
    expect(rig.sb.services.store.payments.ofPreapproval(pending.ID, 10, 0).total).toBe(0);
  });

  it('POST /v1/payments with a PreapprovalID points at the recurrent call (11); MethodID 0 means none chosen', async () => {
    const refused = await api().post('/v1/payments').set('Authorization', AUTH).send({ Payment: { MerchantTransactionID: 'x', Amount: 1, Currency: 'EUR', ReturnURL: 'https://shop.example/r', PreapprovalID: 5 } });
    expect(refused.status).toBe(400);
    expect(refused.body.Payment.Status.Reasons[0].Code).toBe(11);
    const sdk = await api().post('/v1/payments/').set('Authorization', AUTH).send({ Payment: { MerchantTransactionID: 'sdk-1', Amount: 1000, Currency: 'EUR', ReturnURL: 'https://shop.example/r', MethodID: 0, MethodOptionID: 0, Customer: { Email: '' } } });
    expect(sdk.status).toBe(201);
    expect(sdk.body.Payment).toMatchObject({ MethodID: null, MethodOptionID: 0, Status: { ID: 1, Info: 'Open', Reasons: null }, Customer: { Email: '' } });
  });
});

describe('the preapproval payer page (RedirectURL)', () => {
  let rig: Rig;
  beforeEach(async () => {
    rig = await boot({ seed: 42 });
  });
  afterEach(() => shutdown(rig));
  const api = () => request(rig.sb.baseUrl);

  it('shows a Pending preapproval; Approve opens it (with its notification) and returns to ReturnURL; the link is then used (410)', async () => {
    const p = (await api().post('/v1/preapprovals').set('Authorization', AUTH).set('X-Sandbox-Scenario', 'preapproval-payer-decides').send(BODY)).body.Preapproval;
    const link = new URL(p.RedirectURL);
    const page = await api().get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(page.text).toContain('sub-1');
    expect(page.text).toContain('1 year subscription');
    const token = link.searchParams.get('PreapprovalToken')!;
    const pressed = await api().post('/Home/Preapproval/approve').type('form').send({ PreapprovalToken: token });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.location).toBe('https://shop.example/return');
    expect(rig.sb.services.store.preapprovals.getAny(p.ID)!.statusId).toBe(2);
    await advance(rig.sb, 0);
    expect(rig.rx.received.map((r) => r.body.Preapproval.Status)).toEqual([{ ID: 2, Info: 'Open', Reasons: null }]);
    expect((await api().get(link.pathname + link.search)).status).toBe(410);
    expect((await api().post('/Home/Preapproval/decline').type('form').send({ PreapprovalToken: token })).status).toBe(410);
    expect(rig.sb.services.store.history.ofPreapproval(p.ID).map((h) => h.cause)).toEqual(['created', 'payer: approve']);
  });

  it('Decline closes it (3); an unknown link or button is a 404', async () => {
    const p = (await api().post('/v1/preapprovals').set('Authorization', AUTH).set('X-Sandbox-Scenario', 'preapproval-payer-decides').send(BODY)).body.Preapproval;
    const token = new URL(p.RedirectURL).searchParams.get('PreapprovalToken')!;
    expect((await api().get(`/Home/Preapproval?PreapprovalToken=${'0'.repeat(32)}.${p.ID}`)).status).toBe(404);
    expect((await api().post('/Home/Preapproval/explode').type('form').send({ PreapprovalToken: token })).status).toBe(404);
    expect((await api().post('/Home/Preapproval/decline').type('form').send({ PreapprovalToken: token })).status).toBe(303);
    expect(rig.sb.services.store.preapprovals.getAny(p.ID)!.statusId).toBe(3);
  });
});
