// Never its own victim: no notification URL may reach the sandbox's own listeners (refused where it is
// given, failed unsent where it was stored before), and the control API refuses what the sandbox sends.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import type { Config } from '../../src/config';
import { EventEmitter } from 'node:events';
import { networkInterfaces } from 'node:os';
import { isThisMachine, madeByThisProcess, noteOutgoing } from '../../src/notifications/own-listeners';
import { postJson } from '../../src/notifications/post';
import { MARKETPLACE, PLAIN, START, basic, paymentBody } from '../helpers/world';

const base = { port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 7, quiet: true } as const;

describe('notification URLs that reach the sandbox itself', () => {
  let sb: Sandbox;
  const start = async (extra: Partial<Config> = {}) => (sb = await startSandbox({ ...base, ...extra }));
  afterEach(async () => sb?.stop());

  const portOf = (url: string) => new URL(url).port;

  it('are refused by PATCH and POST /_sandbox/merchants with 400 naming why, every spelling of this machine', async () => {
    await start({ publicUrl: 'https://sandbox.example.test', publicCardUrl: 'https://card.example.test:8443' });
    const api = portOf(sb.listening.baseUrl);
    const card = portOf(sb.listening.cardBaseUrl);
    const own = [
      `http://127.0.0.1:${api}/_sandbox/reset`,
      `http://127.0.0.1:${card}/anything`,
      `http://localhost:${api}/`,
      `http://LOCALHOST.:${api}/x`,
      `http://[::1]:${api}/_sandbox/reset`,
      `http://127.0.0.2:${api}/_sandbox/reset`,
      `http://0.0.0.0:${card}/x`,
      `http://[::ffff:127.0.0.1]:${api}/x`,
      `http://2130706433:${api}/x`,
      'https://sandbox.example.test/_sandbox/reset',
      'https://card.example.test:8443/hook',
    ];
    for (const url of own) {
      const patch = await request(sb.listening.baseUrl).patch(`/_sandbox/merchants/${PLAIN.SiteID}`).send({ NotificationURL: url });
      expect([url, patch.status]).toEqual([url, 400]);
      expect(patch.body.Message).toMatch(/^NotificationURL: .* is this sandbox's own (card )?API address.*sends no notification to itself$/);
      const create = await request(sb.listening.baseUrl).post('/_sandbox/merchants').send({ NotificationURL: url });
      expect([url, create.status]).toEqual([url, 400]);
    }
    // Nothing was changed or made.
    const merchants = (await request(sb.listening.baseUrl).get('/_sandbox/merchants')).body.Merchants as { SiteID: number; NotificationURL: string | null }[];
    expect(merchants.map((m) => [m.SiteID, m.NotificationURL])).toEqual([
      [MARKETPLACE.SiteID, null],
      [PLAIN.SiteID, null],
    ]);
    // Another port of this machine is somebody else's receiver: accepted.
    const other = await request(sb.listening.baseUrl).patch(`/_sandbox/merchants/${PLAIN.SiteID}`).send({ NotificationURL: 'http://127.0.0.1:9/hook' });
    expect(other.status).toBe(200);
  });

  it('is refused by the dashboard settings page with the reason on the page', async () => {
    await start();
    const agent = request.agent(sb.baseUrl);
    await agent.post('/dashboard/login').type('form').send({ SiteID: String(PLAIN.SiteID), APIKey: PLAIN.APIKey }).expect(303);
    const page = await agent.get('/dashboard/settings');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const url = `http://127.0.0.1:${portOf(sb.listening.baseUrl)}/_sandbox/reset`;
    const res = await agent.post('/dashboard/settings').type('form').send({ csrf, NotificationURL: url, DefaultScenario: '' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('sends no notification to itself');
    expect(sb.services.store.sites.get(PLAIN.SiteID)!.notificationUrl).toBeNull();
  });

  it('as --notify-url stops the start with the reason', async () => {
    // Port 0 is unknown before listening; a public URL is known at once.
    await expect(startSandbox({ ...base, publicUrl: 'http://sandbox.example.test:8080', notifyUrl: 'http://sandbox.example.test:8080/hook' })).rejects.toThrow(
      /^--notify-url refused: http:\/\/sandbox\.example\.test:8080\/hook is this sandbox's own API address \(its public URL\)/,
    );
  });

  it('stored before (an older database, a snapshot): the reset-through-notification empties nothing, journaled failed unsent', async () => {
    await start({ scenario: 'one-step' });
    const resetUrl = `http://127.0.0.1:${portOf(sb.listening.baseUrl)}/_sandbox/reset`;
    // As an older database holds it: written past the checks.
    sb.services.store.sites.setNotificationUrl(PLAIN.SiteID, resetUrl);
    const plain = basic(PLAIN.SiteID, PLAIN.APIKey);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(sb.baseUrl).post('/v1/payments').set('Authorization', plain).send(paymentBody({ MethodID: 1, Splits: undefined }));
      expect(res.status).toBe(201);
      ids.push(res.body.Payment.ID);
    }
    await sb.clock.advance(2);
    const n = await sb.notifications.waitFor({ PaymentID: ids[0]!, StatusID: 2 }, 5000);
    expect(n.State).toBe('failed');
    expect(n.Attempts).toHaveLength(1);
    expect(n.Attempts[0]).toMatchObject({ URL: resetUrl, HTTPStatus: null });
    expect(n.Attempts[0]!.Error).toMatch(/is this sandbox's own API address .*sends no notification to itself/);
    const list = await request(sb.baseUrl).get('/v1/payments').set('Authorization', plain);
    expect(list.body.Payments.map((p: { ID: number }) => p.ID).sort()).toEqual([...ids].sort());
  });

  it('the control API refuses a request the sandbox made itself, even from loopback with a merchant\'s credentials', async () => {
    await start({ scenario: 'one-step' });
    const plain = basic(PLAIN.SiteID, PLAIN.APIKey);
    await request(sb.baseUrl).post('/v1/payments').set('Authorization', plain).send(paymentBody({ MethodID: 1, Splits: undefined })).expect(201);
    // As the notification worker sends (its own connection), past the URL check.
    const sent = await postJson(`${sb.listening.baseUrl}/_sandbox/reset`, '{}', { 'Content-Type': 'application/json', Authorization: plain }, 5000, new AbortController().signal);
    expect(sent).toEqual({ status: 403, error: null });
    const list = await request(sb.baseUrl).get('/v1/payments').set('Authorization', plain);
    expect(list.body.Payments).toHaveLength(1);
    // A client of this machine is still trusted.
    expect((await request(sb.baseUrl).get('/_sandbox/merchants')).status).toBe(200);
  });

  it("a client that sends from the local port of a notification to somebody else is not the sandbox (Linux shares a port among connections to different addresses)", () => {
    // A notification's connection: from port 40001 to a receiver on port 5555.
    const socket = Object.assign(new EventEmitter(), { localPort: 40001, remotePort: 5555 });
    noteOutgoing(socket);
    expect(madeByThisProcess({ remoteAddress: '127.0.0.1', remotePort: 40001, localPort: 5555 })).toBe(true);
    // A test's client, given port 40001 too, calling the sandbox on its port 8080.
    expect(madeByThisProcess({ remoteAddress: '127.0.0.1', remotePort: 40001, localPort: 8080 })).toBe(false);
    expect(madeByThisProcess({ remoteAddress: '192.0.2.7', remotePort: 40001, localPort: 5555 })).toBe(false);
    // Two notifications from one port to two listeners; each is forgotten once closed.
    const other = Object.assign(new EventEmitter(), { localPort: 40001, remotePort: 8080 });
    noteOutgoing(other);
    expect(madeByThisProcess({ remoteAddress: '::ffff:127.0.0.1', remotePort: 40001, localPort: 8080 })).toBe(true);
    socket.emit('close');
    expect(madeByThisProcess({ remoteAddress: '127.0.0.1', remotePort: 40001, localPort: 5555 })).toBe(false);
    expect(madeByThisProcess({ remoteAddress: '127.0.0.1', remotePort: 40001, localPort: 8080 })).toBe(true);
    other.emit('close');
    expect(madeByThisProcess({ remoteAddress: '127.0.0.1', remotePort: 40001, localPort: 8080 })).toBe(false);
  });
});

describe('is this me? decided on the address actually connected to', () => {
  let sb: Sandbox;
  afterEach(async () => sb?.stop());
  const plain = basic(PLAIN.SiteID, PLAIN.APIKey);

  /** An address of this machine beyond loopback (a container's own), or loopback when it has none. */
  const ownInterface = (): string => {
    for (const list of Object.values(networkInterfaces())) {
      for (const i of list ?? []) if (i.family === 'IPv4' && !i.internal) return i.address;
    }
    return '127.0.0.1';
  };

  it("a connection from this machine's own address in IPv4-mapped form is the sandbox's own, in any spelling", () => {
    const iface = ownInterface();
    for (const a of [iface, `::ffff:${iface}`, `::FFFF:${iface}`, `0:0:0:0:0:ffff:${iface}`, '::ffff:7f00:1']) expect([a, isThisMachine(a)]).toEqual([a, true]);
    expect(isThisMachine('::ffff:192.0.2.254')).toBe(iface === '192.0.2.254');
    expect(isThisMachine('fe80::1%eth0')).toBe(false);
    const socket = Object.assign(new EventEmitter(), { localPort: 40002, remotePort: 5556 });
    noteOutgoing(socket);
    expect(madeByThisProcess({ remoteAddress: `::ffff:${iface}`, remotePort: 40002, localPort: 5556 })).toBe(true);
    socket.emit('close');
  });

  it('with --host :: an IPv4-mapped address of this machine is refused where given, and one stored before resets nothing', async () => {
    const iface = ownInterface();
    sb = await startSandbox({ ...base, host: '::', scenario: 'one-step', controlFrom: ['loopback', `${iface}/32`] });
    const port = new URL(sb.listening.baseUrl).port;
    const at = `http://127.0.0.1:${port}`;
    for (const host of [`::ffff:${iface}`, '::ffff:127.0.0.1', `0:0:0:0:0:ffff:${iface}`]) {
      const url = `http://[${host}]:${port}/_sandbox/reset`;
      const patch = await request(at).patch(`/_sandbox/merchants/${PLAIN.SiteID}`).send({ NotificationURL: url });
      expect([url, patch.status]).toEqual([url, 400]);
      expect(patch.body.Message).toMatch(/is this sandbox's own API address .*sends no notification to itself$/);
    }
    // As an older database or a snapshot holds it: written past the checks.
    const resetUrl = `http://[::ffff:${iface}]:${port}/_sandbox/reset`;
    sb.services.store.sites.setNotificationUrl(PLAIN.SiteID, resetUrl);
    const created = await request(at).post('/v1/payments').set('Authorization', plain).send(paymentBody({ MethodID: 1, Splits: undefined }));
    expect(created.status).toBe(201);
    await sb.clock.advance(2);
    const n = await sb.notifications.waitFor({ PaymentID: created.body.Payment.ID, StatusID: 2 }, 5000);
    expect(n.State).toBe('failed');
    expect(n.Attempts).toHaveLength(1);
    expect(n.Attempts[0]).toMatchObject({ URL: resetUrl, HTTPStatus: null });
    expect(n.Attempts[0]!.Error).toMatch(/is this sandbox's own API address .*sends no notification to itself/);
    const list = await request(at).get('/v1/payments').set('Authorization', plain);
    expect(list.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([created.body.Payment.ID]);
  });

  it('a name that resolves to this machine, aimed at /v1/payments/<id>/cancel: not sent (refused before connecting), and had it arrived, refused 403; the payment stays Open', async () => {
    sb = await startSandbox(base);
    const port = new URL(sb.listening.baseUrl).port;
    const created = await request(sb.baseUrl).post('/v1/payments').set('Authorization', plain).send(paymentBody({ MethodID: 1, Splits: undefined }));
    expect(created.status).toBe(201);
    const id = created.body.Payment.ID as number;
    const url = `http://localhost:${port}/v1/payments/${id}/cancel`;
    const headers = { 'Content-Type': 'application/json', Authorization: plain };

    // As the notification worker sends: the name resolves to this sandbox's listener, so no connection is made.
    const sent = await postJson(url, '{}', headers, 5000, new AbortController().signal, sb.services.ownAddress);
    expect(sent.status).toBeNull();
    expect(sent.own).toBe(true);
    expect(sent.error).toMatch(new RegExp(`^http://localhost:${port}/v1/payments/${id}/cancel \\((127\\.0\\.0\\.1|::1)\\) is this sandbox's own API address`));
    // Had a notification's connection arrived all the same, every route, /v1 included, refuses it.
    const arrived = await postJson(url, '{}', headers, 5000, new AbortController().signal);
    expect(arrived).toEqual({ status: 403, error: null });
    for (const path of [`/v1/payments/${id}`, '/_sandbox/health', '/dashboard/login']) {
      expect(await postJson(`${sb.listening.baseUrl}${path}`, '{}', headers, 5000, new AbortController().signal)).toEqual({ status: 403, error: null });
    }

    const read = await request(sb.baseUrl).get(`/v1/payments/${id}`).set('Authorization', plain);
    expect(read.body.Payment.Status.ID).toBe(1);
    // A client of this machine is still answered.
    expect((await request(sb.baseUrl).get(`/v1/payments/${id}`).set('Authorization', plain)).status).toBe(200);
  });
});
