// Notification delivery to a real HTTP receiver: retries with backoff under the manual clock,
// timeouts, refused connections, giving up, per-payment order, the journal, redelivery and wait.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DEFAULT_RETRY } from '../../src/notifications/backoff';
import { START } from '../helpers/world';
import { AUTH, RETRY, type Rig, advance, boot, createPayment, journal, labels, shutdown, stamp } from './harness';

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('notification delivery', () => {
  let rig: Rig | undefined;
  const extra: Server[] = [];
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
    for (const s of extra.splice(0)) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it('500 then 204: delivered on the 2nd attempt, when the clock passes the 1 s backoff', async () => {
    // The default policy: the first retry comes 1 s after the failure.
    expect(DEFAULT_RETRY.baseMs).toBe(1000);
    rig = await boot({ retry: DEFAULT_RETRY });
    const { sb, rx } = rig;
    rx.answers = [500];
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    expect(rx.received).toHaveLength(1);
    let [n] = await journal(sb, p.ID);
    expect(n).toMatchObject({ State: 'pending', StatusID: 2, NextAttempt: stamp(3000), Delivered: null });
    expect(n.Attempts).toEqual([{ At: stamp(2000), URL: rx.url, HTTPStatus: 500, Error: 'expected 204, got 500', DurationMs: expect.any(Number) }]);

    await advance(sb, 0.999);
    expect(rx.received).toHaveLength(1);
    await advance(sb, 0.001);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.body).toEqual(rx.received[0]!.body);
    expect(rx.received[1]!.headers.authorization).toBe(AUTH);
    [n] = await journal(sb, p.ID);
    expect(n).toMatchObject({ State: 'delivered', NextAttempt: null, Delivered: stamp(3000) });
    expect(n.Body).toEqual(rx.received[1]!.body);
    expect(n.Attempts.map((a: any) => [a.At, a.HTTPStatus, a.Error])).toEqual([
      [stamp(2000), 500, 'expected 204, got 500'],
      [stamp(3000), 204, null],
    ]);
    for (const a of n.Attempts) expect(a.DurationMs).toBeGreaterThanOrEqual(0);
    await advance(sb, 60);
    expect(rx.received).toHaveLength(2);
  });

  it('the backoff doubles: 1 s, 2 s, 4 s, … (capped)', async () => {
    rig = await boot({ retry: { baseMs: 1000, capMs: 3000, maxAttempts: 10 } });
    const { sb, rx } = rig;
    rx.answers = [500, 503, 404, 200];
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 30);
    const [n] = await journal(sb, p.ID);
    // 2 s; +1 s; +2 s; +3 s (capped from 4); +3 s (capped from 8).
    expect(n.Attempts.map((a: any) => [a.At, a.HTTPStatus])).toEqual([
      [stamp(2000), 500],
      [stamp(3000), 503],
      [stamp(5000), 404],
      [stamp(8000), 200],
      [stamp(11000), 204],
    ]);
    expect(n.Attempts[3].Error).toBe('expected 204, got 200');
    expect(n.State).toBe('delivered');
  });

  it('a hanging receiver: the attempt ends at notifyTimeoutMs with an error, and the retry is delivered', async () => {
    rig = await boot({ notifyTimeoutMs: 200 });
    const { sb, rx } = rig;
    rx.answers = ['hang'];
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    let [n] = await journal(sb, p.ID);
    expect(n.State).toBe('pending');
    expect(n.Attempts).toHaveLength(1);
    expect(n.Attempts[0]).toMatchObject({ At: stamp(2000), HTTPStatus: null, Error: 'no answer within 200 ms' });
    expect(n.Attempts[0].DurationMs).toBeGreaterThanOrEqual(150);
    expect(rx.received).toHaveLength(0);
    await advance(sb, 1);
    [n] = await journal(sb, p.ID);
    expect(n.State).toBe('delivered');
    expect(n.Attempts.map((a: any) => [a.HTTPStatus, a.Error === null])).toEqual([
      [null, false],
      [204, true],
    ]);
    expect(labels(rx)).toEqual(['P2']);
  });

  it('a connection reset is a failed attempt with an error, retried', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    rx.answers = ['reset'];
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    let [n] = await journal(sb, p.ID);
    expect(n.State).toBe('pending');
    expect(n.Attempts[0].HTTPStatus).toBeNull();
    expect(n.Attempts[0].Error).toEqual(expect.any(String));
    expect(n.Attempts[0].Error.length).toBeGreaterThan(0);
    await advance(sb, 1);
    [n] = await journal(sb, p.ID);
    expect(n.State).toBe('delivered');
    expect(labels(rx)).toEqual(['P2']);
  });

  it('a refused connection is journaled and retried; delivered once a receiver is up at that URL', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/hook`;
    rig = await boot({ notifyUrl: url });
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    let [n] = await journal(sb, p.ID);
    expect(n.State).toBe('pending');
    expect(n.Attempts).toEqual([{ At: stamp(2000), URL: url, HTTPStatus: null, Error: 'ECONNREFUSED', DurationMs: expect.any(Number) }]);
    await advance(sb, 1);
    [n] = await journal(sb, p.ID);
    expect(n.Attempts.map((a: any) => a.Error)).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
    expect(n.NextAttempt).toBe(stamp(5000));

    // The merchant's server comes up at that very address.
    const got: { path: string; auth: string | undefined; body: any }[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        got.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw) });
        res.statusCode = 204;
        res.end();
      });
    });
    extra.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await advance(sb, 1.999);
    expect(got).toHaveLength(0);
    await advance(sb, 0.001);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ path: '/hook', auth: AUTH });
    expect(got[0]!.body.Payment.ID).toBe(p.ID);
    [n] = await journal(sb, p.ID);
    expect(n.State).toBe('delivered');
    expect(n.Attempts.map((a: any) => [a.At, a.HTTPStatus, a.Error])).toEqual([
      [stamp(2000), null, 'ECONNREFUSED'],
      [stamp(3000), null, 'ECONNREFUSED'],
      [stamp(5000), 204, null],
    ]);
  });

  it('a refused connection, then the merchant URL is changed with PATCH: the retry goes to the new URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    rig = await boot({ notifyUrl: url });
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    const patched = await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ NotificationURL: rx.url });
    expect(patched.status).toBe(200);
    expect(patched.body.Merchant.NotificationURL).toBe(rx.url);
    await advance(sb, 1);
    expect(labels(rx)).toEqual(['P2']);
    const [n] = await journal(sb, p.ID);
    expect(n.State).toBe('delivered');
    expect(n.Attempts.map((a: any) => [a.URL, a.HTTPStatus, a.Error])).toEqual([
      [url, null, 'ECONNREFUSED'],
      [rx.url, 204, null],
    ]);
  });

  it(`after maxAttempts (${RETRY.maxAttempts}) failures the notification is 'failed' and no longer tried`, async () => {
    rig = await boot();
    const { sb, rx } = rig;
    rx.fallback = 500;
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 120);
    let [n] = await journal(sb, p.ID);
    expect(n).toMatchObject({ State: 'failed', NextAttempt: null, Delivered: null });
    // 2 s, then +1, +2, +4.
    expect(n.Attempts.map((a: any) => [a.At, a.HTTPStatus])).toEqual([
      [stamp(2000), 500],
      [stamp(3000), 500],
      [stamp(5000), 500],
      [stamp(9000), 500],
    ]);
    expect(rx.received).toHaveLength(RETRY.maxAttempts);
    const failed = await request(sb.baseUrl).get(`/_sandbox/notifications?PaymentID=${p.ID}&State=failed`);
    expect(failed.body.Notifications.map((x: any) => x.ID)).toEqual([n.ID]);

    // Redelivery puts it back in the queue; the merchant now answers 204.
    rx.fallback = 204;
    const re = await request(sb.baseUrl).post(`/_sandbox/notifications/${n.ID}/redeliver`);
    expect(re.status).toBe(202);
    expect(re.body.Notification).toMatchObject({ ID: n.ID, State: 'pending' });
    await advance(sb, 0);
    [n] = await journal(sb, p.ID);
    expect(n.State).toBe('delivered');
    expect(n.Attempts).toHaveLength(RETRY.maxAttempts + 1);
    expect(rx.received).toHaveLength(RETRY.maxAttempts + 1);
  });

  it('a given-up notification does not block the next one of the same payment', async () => {
    rig = await boot({ retry: { baseMs: 1000, capMs: 1000, maxAttempts: 2 } });
    const { sb, rx } = rig;
    rx.answers = [500, 500];
    const p = await createPayment(sb, { scenario: 'two-step' });
    await advance(sb, 2);
    await advance(sb, 1);
    const cap = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH);
    expect(cap.status).toBe(200);
    await advance(sb, 0);
    const notes = await journal(sb, p.ID);
    expect(notes.map((x: any) => [x.StatusID, x.State])).toEqual([
      [9, 'failed'],
      [2, 'delivered'],
    ]);
    expect(labels(rx)).toEqual(['P9', 'P9', 'P2']);
  });

  it('order per payment: while the head notification fails, the later one of the same payment waits; other payments go on', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    rx.answers = [500];
    const a = await createPayment(sb, { scenario: 'two-step' });
    await advance(sb, 2);
    expect(labels(rx)).toEqual(['P9']); // attempt 1 of A's Authorized: 500
    // A is captured while its Authorized notification is still pending: Success is due now.
    const cap = await request(sb.baseUrl).post(`/v1/payments/${a.ID}/capture`).set('Authorization', AUTH);
    expect(cap.status).toBe(200);
    // Another payment's notification is not held up by A's.
    const b = await createPayment(sb, { scenario: 'failed' });
    // Checked before any advance: the scheduler waits for A's head (its retry at 3 s), not for the
    // Success queued behind it, which is "due" at 2 s but cannot go before the head (counting it
    // once made advance() spin forever).
    expect(sb.services.store.notifications.earliestDue()).toBe(START + 3000);
    await advance(sb, 0.5);
    let notes = await journal(sb, a.ID);
    expect(notes.map((x: any) => [x.StatusID, x.State, x.Attempts.length])).toEqual([
      [9, 'pending', 1],
      [2, 'pending', 0],
    ]);
    expect(rx.received.map((r) => r.body.Payment.ID)).toEqual([a.ID]);
    await advance(sb, 0.499);
    expect(rx.received).toHaveLength(1);
    await advance(sb, 0.001); // A's retry is due at 3 s: Authorized, then Success right after it
    expect(rx.received.map((r) => [r.body.Payment.ID, r.body.Payment.Status.ID])).toEqual([
      [a.ID, 9],
      [a.ID, 9],
      [a.ID, 2],
    ]);
    notes = await journal(sb, a.ID);
    expect(notes.map((x: any) => [x.StatusID, x.State, x.Delivered])).toEqual([
      [9, 'delivered', stamp(3000)],
      [2, 'delivered', stamp(3000)],
    ]);
    await advance(sb, 1.5); // B fails at 2.5 s + 2 s = 4.5 s
    expect(rx.received.map((r) => [r.body.Payment.ID, r.body.Payment.Status.ID])).toEqual([
      [a.ID, 9],
      [a.ID, 9],
      [a.ID, 2],
      [b.ID, 4],
    ]);
  });

  it('order per payment holds with several queued behind a failing head (real ids, nothing lost)', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    rx.answers = [500, 500];
    const p = await createPayment(sb, { scenario: 'refund-then-add-splits' });
    // Success at 2 s fails twice (retries at 3 s and 5 s); the refund's Success (4 s) queues behind it.
    await advance(sb, 4.5);
    let notes = await journal(sb, p.ID);
    expect(notes.map((x: any) => [x.StatusID, x.RefundID === null ? 'P' : 'R', x.State])).toEqual([
      [2, 'P', 'pending'],
      [2, 'R', 'pending'],
    ]);
    expect(labels(rx)).toEqual(['P2', 'P2']);
    await advance(sb, 0.5);
    expect(labels(rx)).toEqual(['P2', 'P2', 'P2', 'R2']);
    notes = await journal(sb, p.ID);
    expect(notes.every((x: any) => x.State === 'delivered')).toBe(true);
  });

  it('real clock: a failed head is retried after its backoff, and the one queued behind it follows in order', async () => {
    rig = await boot({ clock: 'real', startTime: undefined, retry: { baseMs: 300, capMs: 300, maxAttempts: 5 } });
    const { sb, rx } = rig;
    rx.answers = [500];
    const ticks = jest.spyOn(sb.scheduler, 'tick');
    const p = await createPayment(sb, { scenario: 'two-step' });
    // The provider authorizes at once (control API), the merchant captures right away.
    const ev = await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'authorize' });
    expect(ev.status).toBe(200);
    const cap = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH);
    expect(cap.status).toBe(200);
    const w = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&StatusID=2&TimeoutMs=5000`);
    expect(w.status).toBe(200);
    expect(labels(rx)).toEqual(['P9', 'P9', 'P2']);
    const notes = await journal(sb, p.ID);
    expect(notes.map((x: any) => [x.StatusID, x.State, x.Attempts.length])).toEqual([
      [9, 'delivered', 2],
      [2, 'delivered', 1],
    ]);
    // The timer waited for the head's retry; it did not fire again and again for the Success queued
    // behind it (which it once took as due at once: hundreds of ticks in those 300 ms).
    expect(ticks.mock.calls.length).toBeLessThan(10);
  });

  it('GET /_sandbox/notifications lists each notification with Body and Attempts; filters by PaymentID and StatusID', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const a = await createPayment(sb, { scenario: 'two-step' });
    const b = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    const all = await request(sb.baseUrl).get('/_sandbox/notifications');
    expect(all.status).toBe(200);
    expect(all.body.Notifications).toHaveLength(2);
    const onlyA = await journal(sb, a.ID);
    expect(onlyA).toHaveLength(1);
    expect(onlyA[0]).toEqual({
      ID: expect.any(Number),
      PaymentID: a.ID,
      RefundID: null,
      PreapprovalID: null,
      PayoutID: null,
      SiteID: 30201,
      StatusID: 9,
      StatusInfo: 'Authorized',
      State: 'delivered',
      Created: stamp(2000),
      NextAttempt: null,
      Delivered: stamp(2000),
      Fault: null,
      Body: rx.received.find((r) => r.body.Payment.ID === a.ID)!.body,
      Attempts: [{ At: stamp(2000), URL: rx.url, HTTPStatus: 204, Error: null, DurationMs: expect.any(Number) }],
    });
    const byStatus = await request(sb.baseUrl).get('/_sandbox/notifications?StatusID=2');
    expect(byStatus.body.Notifications.map((x: any) => x.PaymentID)).toEqual([b.ID]);
    const bad = await request(sb.baseUrl).get('/_sandbox/notifications?State=nope');
    expect(bad.status).toBe(400);
  });

  it('POST /_sandbox/notifications/{id}/redeliver sends a delivered notification again (202)', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    const [n] = await journal(sb, p.ID);
    expect(n.State).toBe('delivered');
    const re = await request(sb.baseUrl).post(`/_sandbox/notifications/${n.ID}/redeliver`);
    expect(re.status).toBe(202);
    expect(re.body.Notification).toMatchObject({ ID: n.ID, State: 'pending', NextAttempt: stamp(2000) });
    // The wait endpoint sees it delivered again.
    const w = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&TimeoutMs=2000`);
    expect(w.status).toBe(200);
    expect(w.body.Notification).toMatchObject({ ID: n.ID, State: 'delivered' });
    expect(w.body.Notification.Attempts).toHaveLength(2);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.body).toEqual(rx.received[0]!.body);
    expect(rx.received[1]!.headers.authorization).toBe(AUTH);
    const missing = await request(sb.baseUrl).post('/_sandbox/notifications/999999/redeliver');
    expect(missing.status).toBe(404);
  });

  it('GET /_sandbox/notifications/wait answers 408 after TimeoutMs when nothing matches, 200 when one is delivered', async () => {
    rig = await boot();
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'two-step' });
    const t0 = Date.now();
    const none = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&TimeoutMs=150`);
    expect(none.status).toBe(408);
    expect(none.body.Message).toMatch(/150 ms/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    // A waiter that is there before the delivery is answered by it.
    const waiting = request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&StatusID=9&TimeoutMs=5000`).then((r) => r);
    await new Promise((resolve) => setImmediate(resolve));
    await advance(sb, 2);
    const got = await waiting;
    expect(got.status).toBe(200);
    expect(got.body.Notification).toMatchObject({ PaymentID: p.ID, StatusID: 9, State: 'delivered' });
    // TimeoutMs must be a whole number of milliseconds.
    const bad = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?TimeoutMs=abc`);
    expect(bad.status).toBe(400);
  });

  it('a merchant without any notification URL gets nothing, but the journal shows what would have been sent', async () => {
    rig = await boot({ notifyUrl: undefined });
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'one-step' });
    await advance(sb, 2);
    const [n] = await journal(sb, p.ID);
    expect(n).toMatchObject({ State: 'no-url', StatusID: 2, Attempts: [] });
    expect(n.Body.Payment.Status.ID).toBe(2);
  });
});
