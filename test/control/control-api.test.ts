// Control API additions: merchants made at run time, payment history, and who may use it.
import type { Request, Response } from 'express';
import request from 'supertest';
import { controlGuard } from '../../src/http/control/guard';
import { basic, createPayment, event, makeWorld, paymentBody, snapshot } from '../helpers/world';

describe('POST /_sandbox/merchants, GET /_sandbox/merchants/{SiteID}', () => {
  it('creates a marketplace with linked sites and generated credentials that work at once', async () => {
    const w = makeWorld();
    try {
      const res = await request(w.api).post('/_sandbox/merchants').send({ Name: 'Test market', LinkedSites: 2, DefaultScenario: 'failed' });
      expect(res.status).toBe(201);
      const m = res.body.Merchant;
      expect(m).toMatchObject({ SiteID: 30301, Name: 'Test market', LinkedSiteIDs: [30302, 30303], NotificationURL: null, DefaultScenario: 'failed' });
      expect(m.APIKey).toMatch(/^[A-Za-z0-9+/=]{40}$/);
      expect((await request(w.api).get(`/_sandbox/merchants/${m.SiteID}`)).body).toEqual({ Merchant: m });

      const auth = basic(m.SiteID, m.APIKey);
      const body = paymentBody({ Splits: [{ SiteID: 30302, Amount: '500', MerchantTransactionID: 'a' }] });
      const created = await request(w.api).post('/v1/payments').set('Authorization', auth).send(body);
      expect(created.status).toBe(201);
      // Isolated from the fixture marketplace, both ways.
      expect((await request(w.api).get(`/v1/payments/${created.body.Payment.ID}`).set('Authorization', w.auth)).status).toBe(404);
      const fixtureSplit = paymentBody({ Splits: [{ SiteID: 30202, Amount: '500', MerchantTransactionID: 'b' }] });
      expect((await request(w.api).post('/v1/payments').set('Authorization', auth).send(fixtureSplit)).body.Payment.Status.Reasons[0].Code).toBe(2);
    } finally {
      w.close();
    }
  });

  it('generates the same credentials for the same seed', async () => {
    const keys = [];
    for (let i = 0; i < 2; i++) {
      const w = makeWorld({ seed: 9 });
      keys.push((await request(w.api).post('/_sandbox/merchants').send({})).body.Merchant.APIKey);
      w.close();
    }
    expect(keys[1]).toBe(keys[0]);
  });

  it('refuses bad input with 400 and changes nothing; an unknown merchant is 404', async () => {
    const w = makeWorld();
    try {
      const before = snapshot(w.store);
      for (const body of [{ LinkedSites: -1 }, { LinkedSites: 99 }, { Name: 5 }, { DefaultScenario: 'nope' }, { Colour: 'red' }]) {
        const res = await request(w.api).post('/_sandbox/merchants').send(body);
        expect(res.status).toBe(400);
        expect(Object.keys(res.body)).toEqual(['Message']);
      }
      expect(snapshot(w.store)).toBe(before);
      expect((await request(w.api).get('/_sandbox/merchants/1')).status).toBe(404);
      expect((await request(w.api).get('/_sandbox/merchants/30202')).status).toBe(404); // a linked site is no merchant
    } finally {
      w.close();
    }
  });
});

describe('GET /_sandbox/payments/{id}/history', () => {
  it('lists every status with its sandbox time and cause', async () => {
    const w = makeWorld();
    try {
      const p = await createPayment(w);
      w.clock.advance(60_000);
      await event(w, p.ID, 'authorize');
      const res = await request(w.api).get(`/_sandbox/payments/${p.ID}/history`);
      expect(res.body).toEqual({
        History: [
          { At: '20260115100000', RefundID: null, StatusID: 1, StatusInfo: 'Open', Cause: 'created' },
          { At: '20260115100100', RefundID: null, StatusID: 9, StatusInfo: 'Authorized', Cause: 'event authorize' },
        ],
      });
      expect((await request(w.api).get('/_sandbox/payments/999/history')).status).toBe(404);
    } finally {
      w.close();
    }
  });
});

describe('who may use the control API', () => {
  it('with --control-token: only Authorization: Bearer <token>; health stays open', async () => {
    const w = makeWorld();
    w.ctx.controlToken = 's3cret';
    const { createApp } = await import('../../src/http/app');
    const app = createApp(w.ctx, 'api');
    try {
      expect((await request(app).get('/_sandbox/merchants')).status).toBe(401);
      expect((await request(app).get('/_sandbox/merchants').set('Authorization', 'Bearer wrong')).status).toBe(401);
      const ok = await request(app).get('/_sandbox/merchants').set('Authorization', 'Bearer s3cret');
      expect(ok.status).toBe(200);
      expect((await request(app).get('/_sandbox/health')).status).toBe(200);
      // The API itself is not affected.
      expect((await request(app).get('/v1/payments').set('Authorization', w.auth)).status).toBe(200);
    } finally {
      w.close();
    }
  });

  const call = (guard: ReturnType<typeof controlGuard>, remoteAddress: string, path = '/merchants', authorization?: string) => {
    let nextCalled = false;
    const req = { baseUrl: '/_sandbox', path, socket: { remoteAddress }, get: () => authorization } as unknown as Request;
    const res = { statusCode: 0, setHeader: () => res, end: () => res } as unknown as Response;
    guard(req, res, () => (nextCalled = true));
    return nextCalled ? 'next' : res.statusCode;
  };

  it('without a token: loopback clients only (403 for others), health open to all', () => {
    const guard = controlGuard(undefined);
    expect(call(guard, '127.0.0.1')).toBe('next');
    expect(call(guard, '::1')).toBe('next');
    expect(call(guard, '::ffff:127.0.0.1')).toBe('next');
    expect(call(guard, '10.1.2.3')).toBe(403);
    expect(call(guard, '192.0.2.7')).toBe(403);
    expect(call(guard, '192.0.2.7', '/health')).toBe('next');
    expect(call(controlGuard('t'), '192.0.2.7', '/merchants', 'Bearer t')).toBe('next');
  });

  it('--control-from opens it to the networks named, without a token; never by default', () => {
    const privateNets = controlGuard(undefined, ['private']);
    for (const a of ['127.0.0.1', '::1', '10.88.0.1', '172.17.0.1', '172.31.255.254', '192.168.1.20', '::ffff:10.88.0.1', 'fd00::7']) {
      expect([a, call(privateNets, a)]).toEqual([a, 'next']);
    }
    for (const a of ['172.32.0.1', '192.0.2.7', '8.8.8.8', '2001:db8::1', '::ffff:8.8.8.8', undefined]) {
      expect([a, call(privateNets, a as string)]).toEqual([a, 403]);
    }
    const ranges = controlGuard(undefined, ['192.0.2.0/24', '2001:db8::5']);
    expect(call(ranges, '192.0.2.7')).toBe('next');
    expect(call(ranges, '2001:db8::5')).toBe('next');
    expect(call(ranges, '127.0.0.1')).toBe(403); // the list is the list: loopback only when named
    expect(call(controlGuard(undefined, ['any']), '203.0.113.9')).toBe('next');
    expect(call(controlGuard(undefined, ['none']), '127.0.0.1')).toBe(403);
    // With a token as well: the networks named need none, everyone else needs it.
    const both = controlGuard('t', ['private']);
    expect(call(both, '10.1.2.3')).toBe('next');
    expect(call(both, '192.0.2.7')).toBe(401);
    expect(call(both, '192.0.2.7', '/merchants', 'Bearer t')).toBe('next');
    // A token alone: loopback needs it too, as before.
    expect(call(controlGuard('t'), '127.0.0.1')).toBe(401);
  });

  it('refuses a --control-from entry that is no network, naming it', () => {
    for (const bad of ['privat', '10.0.0.0/33', '10.0.0/8', '::1/129', '1.2.3.4/8/1', 'example.com']) {
      expect(() => controlGuard(undefined, [bad])).toThrow(`"${bad}" is not loopback, private, any, none, an IP address or a CIDR range`);
    }
  });
});

describe('POST /_sandbox/refunds/{id}/events and GET /_sandbox/scenarios', () => {
  it('lets an Open refund succeed or fail once, and refuses anything else', async () => {
    const w = makeWorld();
    try {
      const p = await createPayment(w, { MethodID: 2 });
      await event(w, p.ID, 'succeed');
      const refund = async () =>
        (await request(w.api).post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`).set('Authorization', w.auth).send({ Refund: { Amount: 10 } })).body.Refund;
      const a = await refund();
      const b = await refund();
      const ok = await request(w.api).post(`/_sandbox/refunds/${a.ID}/events`).send({ Event: 'succeed' });
      expect(ok.status).toBe(200);
      expect(ok.body.Refund).toMatchObject({ ID: a.ID, Status: { ID: 2, Info: 'Success', Reasons: null } });
      expect((await request(w.api).post(`/_sandbox/refunds/${b.ID}/events`).send({ Event: 'fail' })).body.Refund.Status.ID).toBe(4);
      const before = snapshot(w.store);
      const again = await request(w.api).post(`/_sandbox/refunds/${a.ID}/events`).send({ Event: 'fail' });
      expect(again.status).toBe(400);
      expect(again.body.Message).toMatch(/only an Open refund/);
      expect((await request(w.api).post(`/_sandbox/refunds/${a.ID}/events`).send({ Event: 'explode' })).status).toBe(400);
      expect((await request(w.api).post('/_sandbox/refunds/999999/events').send({ Event: 'succeed' })).status).toBe(404);
      expect(snapshot(w.store)).toBe(before);
    } finally {
      w.close();
    }
  });

  it('lists every scenario with its description and file', async () => {
    const w = makeWorld();
    try {
      const res = await request(w.api).get('/_sandbox/scenarios');
      expect(res.status).toBe(200);
      expect(res.body.Scenarios.map((s: { Name: string }) => s.Name)).toEqual([
        'cancelled-by-payer', 'expired', 'failed', 'one-step', 'partial-capture', 'payer-decides', 'refund-then-add-splits', 'two-step', 'two-step-capture-requested',
      ]);
      for (const s of res.body.Scenarios) {
        expect(s.Description.length).toBeGreaterThan(10);
        expect(s.Source).toMatch(new RegExp(`scenarios/${s.Name}\\.json$`));
      }
    } finally {
      w.close();
    }
  });
});

describe('which statuses a merchant is notified of', () => {
  it('PATCH NotifyStatuses limits the notifications written and sent; null brings all back', async () => {
    const { startSandbox } = await import('../../src/main');
    const { startReceiver } = await import('../helpers/receiver');
    const { START, MARKETPLACE } = await import('../helpers/world');
    const rx = await startReceiver();
    const sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, notifyUrl: rx.url });
    const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
    try {
      const patched = await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ NotifyStatuses: [2] });
      expect(patched.body.Merchant.NotifyStatuses).toEqual([2]);
      const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).set('X-Sandbox-Scenario', 'two-step').send(paymentBody())).body.Payment;
      await sb.clock.advance(2); // Authorized: not notified
      await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).expect(200);
      await sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 2 }, 5000);
      expect(sb.notifications.list({ PaymentID: p.ID }).Notifications.map((n) => n.StatusID)).toEqual([2]);
      expect(rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([2]);

      expect((await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ NotifyStatuses: [7] })).status).toBe(400);
      await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ NotifyStatuses: null }).expect(200);
      const q = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).set('X-Sandbox-Scenario', 'two-step').send(paymentBody())).body.Payment;
      await sb.clock.advance(2);
      expect(sb.notifications.list({ PaymentID: q.ID }).Notifications.map((n) => n.StatusID)).toEqual([9]);
    } finally {
      await sb.stop();
      await rx.close();
    }
  });
});
