// A payer who opened the payment page decides: the scenario's provider steps of that payment wait
// until the payer presses a button or the link's lifetime runs out; merchant actions are not held.
import request from 'supertest';
import { DEFAULT_CONFIG, type Config } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createLifecycle } from '../../src/main';
import type { Scheduler } from '../../src/scheduler/scheduler';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, type World, createPayment, makeWorld } from '../helpers/world';
import { signedIn } from '../dashboard/helpers';

const stamp = (ms: number) => new Date(START + ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
const pathOf = (redirectUrl: string) => redirectUrl.replace('http://sandbox.test', '');
const tokenOf = (redirectUrl: string) => new URL(redirectUrl).searchParams.get('PaymentToken')!;
const HELD = 'held: the payer has the payment page open';

describe('the payment page holds the scenario for the payer', () => {
  let w: World;
  let scheduler: Scheduler;
  let rx: Receiver;

  beforeEach(async () => {
    rx = await startReceiver();
    const config: Config = { ...DEFAULT_CONFIG, clock: 'manual', startTime: START, seed: 42, quiet: true, notifyUrl: rx.url };
    w = makeWorld(config);
    scheduler = createLifecycle(config, w.services, () => w.ctx.urls.baseUrl, silentLogger);
    w.ctx.scheduler = scheduler;
  });
  afterEach(async () => {
    await scheduler.stop();
    w.close();
    await rx.close();
  });

  const open = (p: { RedirectURL: string | null }) => request(w.api).get(pathOf(p.RedirectURL!));
  const press = (p: { RedirectURL: string | null }, action: string) =>
    request(w.api).post(`/Home/${action}`).type('form').send({ PaymentToken: tokenOf(p.RedirectURL!) });
  const status = async (id: number) => (await request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth)).body.Payment.Status.ID as number;
  const steps = async (id: number) => (await request(w.api).get(`/_sandbox/payments/${id}`)).body.Steps;
  const received = () => rx.received.map((r) => `P${r.body.Payment.Status.ID}`);

  it('holds the authorize step of two-step while the page is open: still Open past its time, the buttons still there', async () => {
    const p = await createPayment(w, { TokenLifetime: 10 });
    await scheduler.advance(1000);
    expect((await open(p)).status).toBe(200);
    await scheduler.advance(60_000);
    expect(await status(p.ID)).toBe(1);
    const again = await open(p);
    expect(again.status).toBe(200);
    expect(again.text.match(/<button[^>]*>(\w+)<\/button>/g)!.map((b) => />(\w+)</.exec(b)![1])).toEqual(['Authorize', 'Fail', 'Cancel']);
    expect(await steps(p.ID)).toEqual([
      { ID: expect.any(Number), Step: 0, RefundID: null, Do: 'authorize', Due: stamp(10 * 60_000), Planned: stamp(2000), State: 'held', Ran: null, Outcome: HELD },
    ]);
    expect(received()).toEqual([]);
  });

  it("lets the payer's button decide: the held step is superseded and the scenario's next step follows", async () => {
    const created = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Scenario', 'partial-capture').send({
      Payment: { MerchantTransactionID: 'hold-1', Amount: '1000', Currency: 'EUR', MethodID: 42, ReturnURL: 'https://shop.example/return', TokenLifetime: 10, Splits: [{ SiteID: 30202, Amount: '1000', MerchantTransactionID: 'hold-1-a' }] },
    });
    const q = created.body.Payment;
    expect((await open(q)).status).toBe(200);
    await scheduler.advance(5000);
    expect(await status(q.ID)).toBe(1);
    const pressed = await press(q, 'authorize');
    expect(pressed.status).toBe(303);
    expect(pressed.headers.location).toBe('https://shop.example/return');
    expect(await status(q.ID)).toBe(9);
    await scheduler.advance(1000); // partial-capture: one split half captured a second after the authorization
    expect(await status(q.ID)).toBe(35);
    expect(await steps(q.ID)).toMatchObject([
      { Do: 'authorize', State: 'skipped', Planned: stamp(2000), Ran: stamp(5000), Outcome: 'superseded: the payer chose authorize on the payment page' },
      { Do: 'capture-splits', State: 'done', Due: stamp(6000), Planned: null, Outcome: 'PartiallyCaptured' },
    ]);
    expect(received()).toEqual(['P9', 'P35']);
  });

  it('a Fail pressed on a one-step payment: Failed, and the held succeed step never runs', async () => {
    const p = await createPayment(w, { MethodID: 2 }); // scenario one-step: Success after 2 s
    await open(p);
    expect((await press(p, 'fail')).status).toBe(303);
    await scheduler.advance(3600_000);
    expect(await status(p.ID)).toBe(4);
    expect(await steps(p.ID)).toMatchObject([{ Do: 'succeed', State: 'skipped', Outcome: 'superseded: the payer chose fail on the payment page' }]);
    expect(received()).toEqual(['P4']);
  });

  it('an abandoned page: when the link runs out the payment expires, and the held step does not run', async () => {
    const p = await createPayment(w, { TokenLifetime: 5 });
    await open(p);
    await scheduler.advance(5 * 60_000 - 1);
    expect(await status(p.ID)).toBe(1);
    await scheduler.advance(1);
    expect(await status(p.ID)).toBe(5);
    expect(await steps(p.ID)).toMatchObject([
      { Do: 'authorize', State: 'skipped', Planned: stamp(2000), Ran: stamp(5 * 60_000), Outcome: 'skipped: held for the payer, who left the payment page until its link expired' },
    ]);
    expect(received()).toEqual(['P5']);
    expect((await open(p)).status).toBe(404); // an expired payment's link is gone
  });

  it('without a TokenLifetime the page holds the steps for 15 minutes from its last opening, then they run', async () => {
    const p = await createPayment(w, { TokenLifetime: null });
    await scheduler.advance(1000);
    await open(p);
    await scheduler.advance(10 * 60_000);
    await open(p); // opened again: 15 minutes from now
    await scheduler.advance(15 * 60_000 - 1);
    expect(await status(p.ID)).toBe(1);
    await scheduler.advance(1);
    expect(await status(p.ID)).toBe(9);
    expect(await steps(p.ID)).toMatchObject([{ Do: 'authorize', State: 'done', Planned: stamp(2000), Ran: stamp(1000 + 10 * 60_000 + 15 * 60_000), Outcome: 'Authorized' }]);
  });

  it('holds nothing for the merchant: a cancel through the API and a provider event through the control API apply at once', async () => {
    const a = await createPayment(w);
    const b = await createPayment(w);
    await open(a);
    await open(b);
    const cancelled = await request(w.api).post(`/v1/payments/${a.ID}/cancel`).set('Authorization', w.auth);
    expect([cancelled.status, cancelled.body.Payment.Status.ID]).toEqual([200, 3]);
    const authorized = await request(w.api).post(`/_sandbox/payments/${b.ID}/events`).send({ Event: 'authorize' });
    expect([authorized.status, authorized.body.Payment.Status.ID]).toEqual([200, 9]);
    const captured = await request(w.api).post(`/v1/payments/${b.ID}/capture`).set('Authorization', w.auth);
    expect([captured.status, captured.body.Payment.Status.ID]).toEqual([200, 2]);
    await scheduler.advance(3600_000);
    expect([await status(a.ID), await status(b.ID)]).toEqual([3, 2]);
    expect(received()).toEqual(['P3', 'P9', 'P2']);
  });

  it('shows the held step in the merchant dashboard', async () => {
    const p = await createPayment(w);
    await open(p);
    const agent = await signedIn(w);
    const page = await agent.get(`/dashboard/payments/${p.ID}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<td>held</td><td>${HELD}</td>`);
  });
});
