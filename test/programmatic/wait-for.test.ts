// Waiting for a notification: it resolves once one matching reached its final state (delivered, or
// journaled unsent: no URL, retries given up), or only on a delivery when asked; a wait that times out
// says what it found instead.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import type { Config } from '../../src/config';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('notifications.waitFor() and GET /_sandbox/notifications/wait', () => {
  let sb: Sandbox;
  let rx: Receiver | undefined;
  const start = async (extra: Partial<Config> = {}) =>
    (sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 5, quiet: true, scenario: 'two-step', ...extra }));
  const create = async () => {
    const res = await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody());
    expect(res.status).toBe(201);
    return res.body.Payment.ID as number;
  };
  afterEach(async () => {
    await sb?.stop();
    await rx?.close();
    rx = undefined;
  });

  it('resolves for a notification journaled without a URL (the fixture merchant has none), before and after it is written', async () => {
    await start();
    const id = await create();
    const early = sb.notifications.waitFor({ PaymentID: id, StatusID: 9 }, 5000);
    await sb.clock.advance(2);
    const n = await early;
    expect(n).toMatchObject({ PaymentID: id, StatusID: 9, StatusInfo: 'Authorized', State: 'no-url', Attempts: [], Delivered: null });
    expect(n.Body).toMatchObject({ Payment: { ID: id, Status: { ID: 9, Info: 'Authorized', Reasons: null } } });
    // Once it is there, a wait resolves at once.
    expect(await sb.notifications.waitFor({ PaymentID: id, StatusID: 9 }, 5000)).toEqual(n);
    const http = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${id}&StatusID=9&TimeoutMs=5000`);
    expect(http.status).toBe(200);
    expect(http.body).toEqual({ Notification: n });
  });

  it('resolves for a notification given up after its last retry, and says so in its State', async () => {
    rx = await startReceiver();
    rx.fallback = 500;
    await start({ notifyUrl: rx.url, retry: { baseMs: 1000, capMs: 60_000, maxAttempts: 2 } });
    const id = await create();
    const waiting = sb.notifications.waitFor({ PaymentID: id, StatusID: 9 }, 5000);
    await sb.clock.advance(2); // the first attempt fails
    await sb.clock.advance(1); // the second, the last
    const n = await waiting;
    expect(n).toMatchObject({ StatusID: 9, State: 'failed', Delivered: null });
    expect(n.Attempts.map((a) => a.HTTPStatus)).toEqual([500, 500]);
  });

  it('with { delivered: true } waits for the 204: past a failed attempt, to the retry that is answered', async () => {
    rx = await startReceiver();
    rx.answers = [500];
    await start({ notifyUrl: rx.url });
    const id = await create();
    const waiting = sb.notifications.waitFor({ PaymentID: id, StatusID: 9 }, { delivered: true, timeoutMs: 5000 });
    await sb.clock.advance(2);
    expect(sb.notifications.list({ PaymentID: id }).Notifications[0]).toMatchObject({ State: 'pending' });
    await sb.clock.advance(1);
    const n = await waiting;
    expect(n).toMatchObject({ State: 'delivered', Delivered: '20260115100003' });
    expect(n.Attempts.map((a) => a.HTTPStatus)).toEqual([500, 204]);
    expect(rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([9, 9]); // the one answered 500, then again
  });

  it('times out naming what it found: a notification still pending, with its attempts and last error', async () => {
    rx = await startReceiver();
    rx.fallback = 500;
    await start({ notifyUrl: rx.url });
    const id = await create();
    await sb.clock.advance(2);
    await sb.clock.advance(1);
    await sb.clock.advance(2); // three attempts, all answered 500
    const [n] = sb.notifications.list({ PaymentID: id }).Notifications;
    await expect(sb.notifications.waitFor({ PaymentID: id, StatusID: 9 }, 30)).rejects.toThrow(
      `no notification matching {"PaymentID":${id},"StatusID":9} reached a final state within 30 ms: found notification ${n!.ID} (Authorized) still pending after 3 attempts (last: expected 204, got 500)`,
    );
    const http = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${id}&TimeoutMs=30`);
    expect(http.status).toBe(408);
    expect(http.body).toEqual({
      Message: `No matching notification reached a final state within 30 ms: found notification ${n!.ID} (Authorized) still pending after 3 attempts (last: expected 204, got 500).`,
    });
  });

  it('times out naming what it found: no notification at all, or none with that status', async () => {
    await start();
    const id = await create();
    await expect(sb.notifications.waitFor({ PaymentID: id }, 20)).rejects.toThrow(
      `no notification matching {"PaymentID":${id}} reached a final state within 20 ms: no notification for payment ${id} at all`,
    );
    await sb.clock.advance(2);
    const [n] = sb.notifications.list({ PaymentID: id }).Notifications;
    await expect(sb.notifications.waitFor({ PaymentID: id, StatusID: 2 }, 20)).rejects.toThrow(
      `within 20 ms: no notification with StatusID 2 for payment ${id}; it has 1: ${n!.ID} Authorized (no-url)`,
    );
  });

  it('with delivered insisted on, a notification journaled without a URL times out, and the message says why', async () => {
    await start();
    const id = await create();
    await sb.clock.advance(2);
    const [n] = sb.notifications.list({ PaymentID: id }).Notifications;
    const why = `found notification ${n!.ID} (Authorized) journaled without being sent: its merchant has no notification URL`;
    await expect(sb.notifications.waitFor({ PaymentID: id, StatusID: 9 }, { delivered: true, timeoutMs: 20 })).rejects.toThrow(
      `no notification matching {"PaymentID":${id},"StatusID":9} was delivered within 20 ms: ${why}`,
    );
    const http = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${id}&StatusID=9&Delivered=true&TimeoutMs=20`);
    expect(http.status).toBe(408);
    expect(http.body).toEqual({ Message: `No matching notification was delivered within 20 ms: ${why}.` });
    const bad = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${id}&Delivered=maybe`);
    expect(bad.status).toBe(400);
  });

  it('counts only what is committed: a notification of a change whose commit failed never resolves a wait', async () => {
    await start();
    const id = await create();
    const store = sb.services.store as unknown as { stmt: { commit: { run(): unknown } } };
    const real = store.stmt.commit;
    const waiting = sb.notifications.waitFor({ PaymentID: id }, 200);
    store.stmt.commit = {
      run: () => {
        throw new Error('database or disk is full');
      },
    };
    try {
      const refused = await request(sb.baseUrl).post(`/_sandbox/payments/${id}/events`).send({ Event: 'authorize' });
      expect(refused.status).toBe(503);
    } finally {
      store.stmt.commit = real;
    }
    await expect(waiting).rejects.toThrow(`no notification for payment ${id} at all`);
    expect(sb.notifications.list({ PaymentID: id }).TotalCount).toBe(0);
  });
});
