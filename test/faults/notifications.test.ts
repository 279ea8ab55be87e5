// Faults on the notification channel, against a real receiver: Duplicate, Delay (a held notification
// lets the later ones of its payment overtake it, on the sandbox clock) and Drop, with what the
// journal says; scoping by the notified site; and the real clock's timer waking for a held one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DEFAULT_CONFIG } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createLifecycle, createServices } from '../../src/main';
import { applyPaymentEvent } from '../../src/services/events.service';
import { createPayment as create } from '../../src/services/payments.service';
import { Store } from '../../src/store/store';
import { startReceiver } from '../helpers/receiver';
import { START, basic, paymentBody } from '../helpers/world';
import { AUTH, type Rig, advance, boot, createPayment, journal, labels, shutdown, stamp } from '../lifecycle/harness';

async function addFault(rig: Rig, rule: object): Promise<number> {
  const res = await request(rig.sb.baseUrl).post('/_sandbox/faults').send(rule);
  if (res.status !== 201) throw new Error(`fault refused: ${JSON.stringify(res.body)}`);
  return res.body.Fault.ID;
}

async function capture(rig: Rig, id: number): Promise<void> {
  const res = await request(rig.sb.baseUrl).post(`/v1/payments/${id}/capture`).set('Authorization', AUTH);
  if (res.status !== 200) throw new Error(`capture failed: ${res.status}`);
}

describe('notification faults', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('Delay holds the Authorized notification back: Success reaches the receiver first, Authorized when the clock passes the delay', async () => {
    rig = await boot();
    const id = await addFault(rig, { Channel: 'notifications', Match: { StatusID: 9 }, Action: { Delay: '5s' } });
    const p = await createPayment(rig.sb, { scenario: 'two-step' });
    await advance(rig.sb, 2); // authorized at 2 s: its notification is held until 7 s
    expect(labels(rig.rx)).toEqual([]);
    let [authorized] = await journal(rig.sb, p.ID);
    expect(authorized).toMatchObject({ StatusID: 9, State: 'pending', NextAttempt: stamp(7000), Fault: 'delayed 5s by fault 1', Attempts: [] });

    await capture(rig, p.ID);
    await rig.sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 2 });
    expect(labels(rig.rx)).toEqual(['P2']);

    await advance(rig.sb, 4.999);
    expect(labels(rig.rx)).toEqual(['P2']);
    await advance(rig.sb, 0.001);
    expect(labels(rig.rx)).toEqual(['P2', 'P9']);
    const entries = await journal(rig.sb, p.ID);
    expect(entries.map((n: any) => [n.StatusID, n.State, n.Delivered, n.Fault])).toEqual([
      [9, 'delivered', stamp(7000), 'delayed 5s by fault 1'],
      [2, 'delivered', stamp(2000), null],
    ]);
    expect(rig.rx.received[1]!.body).toEqual(entries[0].Body);
    expect((await request(rig.sb.baseUrl).get(`/_sandbox/faults/${id}`)).body.Fault.Hits).toBe(1);
  });

  it('a delay counts from when the notification would have gone out, and one coming back behind an older one still waiting goes after it', async () => {
    rig = await boot();
    await addFault(rig, { Channel: 'notifications', Match: { StatusID: 2 }, Action: { Delay: '1s' } });
    const p = await createPayment(rig.sb, { scenario: 'two-step' });
    await advance(rig.sb, 2); // Authorized delivered at 2 s
    await capture(rig, p.ID);
    await advance(rig.sb, 0); // Success picked at 2 s: held until 3 s
    const authorized = (await journal(rig.sb, p.ID))[0];
    rig.rx.answers = [500];
    await request(rig.sb.baseUrl).post(`/_sandbox/notifications/${authorized.ID}/redeliver`);
    await advance(rig.sb, 0); // sent again at 2 s, refused: retried at 4 s (its second failure doubles the wait)
    expect(labels(rig.rx)).toEqual(['P9', 'P9']);
    await advance(rig.sb, 1); // Success's delay ends, but the older Authorized still waits: it goes first
    expect(labels(rig.rx)).toEqual(['P9', 'P9']);
    await advance(rig.sb, 1);
    expect(labels(rig.rx)).toEqual(['P9', 'P9', 'P9', 'P2']);
    const entries = await journal(rig.sb, p.ID);
    expect(entries.map((n: any) => [n.StatusID, n.State, n.Fault, n.Attempts.map((a: any) => [a.At, a.HTTPStatus])])).toEqual([
      [9, 'delivered', null, [[stamp(2000), 204], [stamp(2000), 500], [stamp(4000), 204]]],
      [2, 'delivered', 'delayed 1s by fault 1', [[stamp(4000), 204]]],
    ]);
  });

  it('Duplicate sends the notification twice, and the journal says which is the copy', async () => {
    rig = await boot();
    await addFault(rig, { Channel: 'notifications', Match: { StatusID: 9 }, Action: { Duplicate: 2 } });
    const p = await createPayment(rig.sb, { scenario: 'two-step' });
    await advance(rig.sb, 2);
    expect(labels(rig.rx)).toEqual(['P9', 'P9']);
    expect(rig.rx.received[1]!.body).toEqual(rig.rx.received[0]!.body);
    expect(rig.rx.received[1]!.headers.authorization).toBe(AUTH);
    await capture(rig, p.ID);
    await rig.sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 2 });
    expect(labels(rig.rx)).toEqual(['P9', 'P9', 'P2']);
    const entries = await journal(rig.sb, p.ID);
    expect(entries.map((n: any) => [n.ID, n.StatusID, n.State, n.Fault, n.Attempts.length])).toEqual([
      [1, 9, 'delivered', 'sent 2 times by fault 1 (copies: notifications 2)', 1],
      [2, 9, 'delivered', 'copy 2 of 2 of notification 1, by fault 1', 1],
      [3, 2, 'delivered', null, 1],
    ]);
    expect(entries[1].Body).toEqual(entries[0].Body);
  });

  it('Drop never sends the notification (journal State dropped); the ones after it still go', async () => {
    rig = await boot();
    await addFault(rig, { Channel: 'notifications', Match: { StatusID: 9 }, Action: { Drop: true }, Times: 1 });
    const p = await createPayment(rig.sb, { scenario: 'two-step' });
    await advance(rig.sb, 2);
    await capture(rig, p.ID);
    await rig.sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 2 });
    await advance(rig.sb, 60);
    expect(labels(rig.rx)).toEqual(['P2']);
    const dropped = await request(rig.sb.baseUrl).get(`/_sandbox/notifications?PaymentID=${p.ID}&State=dropped`);
    expect(dropped.body.Notifications.map((n: any) => [n.StatusID, n.State, n.NextAttempt, n.Delivered, n.Fault, n.Attempts])).toEqual([
      [9, 'dropped', null, null, 'dropped by fault 1', []],
    ]);
    expect(rig.sb.notifications.list({ PaymentID: p.ID, State: 'dropped' }).Notifications).toHaveLength(1);

    // Redelivered by hand, it goes out (a fault shapes a notification once).
    await request(rig.sb.baseUrl).post(`/_sandbox/notifications/${dropped.body.Notifications[0].ID}/redeliver`);
    await advance(rig.sb, 0);
    expect(labels(rig.rx)).toEqual(['P2', 'P9']);
  });

  it('a wait for a notification ends when a fault drops it (dropped is final), unless it insists on delivery', async () => {
    rig = await boot();
    await addFault(rig, { Channel: 'notifications', Match: { StatusID: 9 }, Action: { Drop: true } });
    const p = await createPayment(rig.sb, { scenario: 'two-step' });
    const waiting = rig.sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 9 }, 5000);
    const overHttp = request(rig.sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&StatusID=9&TimeoutMs=5000`);
    const insisting = request(rig.sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&StatusID=9&TimeoutMs=300&Delivered=true`);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the HTTP waits have arrived
    let state: string | undefined;
    void waiting.then((n) => (state = n.State));
    await advance(rig.sb, 2);
    // Told at once, not found when its 5 s run out.
    for (let i = 0; i < 20 && state === undefined; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(state).toBe('dropped');
    const http = await overHttp;
    expect(http.status).toBe(200);
    expect([http.body.Notification.State, http.body.Notification.Fault]).toEqual(['dropped', 'dropped by fault 1']);
    expect((await insisting).status).toBe(408);
    expect(labels(rig.rx)).toEqual([]);
  });

  it('a rule for one marketplace never touches another’s notifications', async () => {
    rig = await boot({ notifyUrl: undefined });
    const other = await startReceiver();
    try {
      const mk = async (url: string) => (await request(rig!.sb.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 1, NotificationURL: url })).body.Merchant;
      const a = await mk(rig.rx.url);
      const b = await mk(other.url);
      await addFault(rig, { Channel: 'notifications', Match: { SiteID: a.SiteID }, Action: { Drop: true } });
      for (const m of [a, b]) {
        const body = paymentBody({ MethodID: 2, Splits: [{ SiteID: m.LinkedSiteIDs[0], Amount: '500', MerchantTransactionID: 's' }] });
        const res = await request(rig.sb.baseUrl).post('/v1/payments').set('Authorization', basic(m.SiteID, m.APIKey)).set('X-Sandbox-Scenario', 'one-step').send(body);
        expect(res.status).toBe(201);
      }
      await advance(rig.sb, 5);
      expect(rig.rx.received).toEqual([]);
      expect(labels(other)).toEqual(['P2']);
      expect(rig.sb.notifications.list({ State: 'dropped', SortDirection: 'asc' }).Notifications.map((n) => n.SiteID)).toEqual([a.SiteID]);
    } finally {
      await other.close();
    }
  });

  it('PaymentID: only the named payment’s notifications', async () => {
    rig = await boot();
    const first = await createPayment(rig.sb, { scenario: 'one-step', overrides: { MethodID: 2 } });
    const second = await createPayment(rig.sb, { scenario: 'one-step', overrides: { MethodID: 2 } });
    await addFault(rig, { Channel: 'notifications', Match: { PaymentID: second.ID }, Action: { Drop: true } });
    await advance(rig.sb, 5);
    expect(rig.rx.received.map((r) => r.body.Payment.ID)).toEqual([first.ID]);
    expect(rig.sb.notifications.list({ State: 'dropped', SortDirection: 'asc' }).Notifications.map((n) => n.PaymentID)).toEqual([second.ID]);
  });

  it('Probability: the same seed drops the same notifications, twice', async () => {
    const dropped = async (seed: number) => {
      rig = await boot({ seed });
      await addFault(rig, { Channel: 'notifications', Action: { Drop: true }, Probability: 0.5 });
      for (let i = 0; i < 12; i++) await createPayment(rig.sb, { scenario: 'one-step', overrides: { MethodID: 2, MerchantTransactionID: `o-${i}` } });
      await advance(rig.sb, 5);
      const ids = rig.sb.notifications.list({ State: 'dropped', SortDirection: 'asc' }).Notifications.map((n) => n.PaymentID);
      expect(rig.rx.received.map((r) => r.body.Payment.ID).sort()).toEqual(rig.sb.notifications.list({ State: 'delivered', SortDirection: 'asc' }).Notifications.map((n) => n.PaymentID).sort());
      await shutdown(rig);
      rig = undefined;
      return ids;
    };
    const first = await dropped(5);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(12);
    expect(await dropped(5)).toEqual(first);
  });
});

describe('a held notification with the real clock', () => {
  beforeEach(() => jest.useFakeTimers({ now: START, doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('sets the scheduler’s timer for the end of its delay, and is picked again when it fires', async () => {
    const hanging = createServer(() => {}); // accepts and never answers
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
    const { port } = hanging.address() as AddressInfo;
    const store = Store.open(':memory:');
    const config = { ...DEFAULT_CONFIG, clock: 'real' as const, quiet: true, notifyUrl: `http://127.0.0.1:${port}/n` };
    const services = createServices(config, store);
    const scheduler = createLifecycle(config, services, () => 'http://sandbox.test', silentLogger);
    try {
      // Shorter than the scenario's first step (2 s), so that the timer is set for it.
      services.faults!.add({ Channel: 'notifications', Action: { Delay: '1500ms' } });
      const p = create(services, store.sites.get(30201)!, paymentBody() as never).payment;
      applyPaymentEvent(services, p.id, 'authorize');
      scheduler.worker.send(); // picks it: held until START + 1.5 s
      const [n] = store.notifications.list({ paymentId: p.id });
      expect([n!.held, n!.nextAttemptAt, n!.fault]).toEqual([true, START + 1500, 'delayed 1500ms by fault 1']);
      jest.advanceTimersByTime(0); // the wake after the hold arms the timer
      expect((scheduler as unknown as { timerAt: number }).timerAt).toBe(START + 1500);
      await jest.advanceTimersByTimeAsync(1499);
      expect(store.notifications.get(n!.id)!.held).toBe(true);
      await jest.advanceTimersByTimeAsync(1);
      // Back in its queue and on the wire (to a receiver that never answers; stopping aborts it).
      expect(store.notifications.get(n!.id)!.held).toBe(false);
      expect((scheduler.worker as unknown as { inFlight: Set<number> }).inFlight.has(p.id)).toBe(true);
      await scheduler.stop();
    } finally {
      store.close();
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});
