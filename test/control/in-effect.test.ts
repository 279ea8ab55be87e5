// What is in effect for a merchant, and where it comes from: the merchant's own NotificationURL and
// default scenario, else the sandbox's (--notify-url, --scenario); shown by the merchant API and the
// dashboard's settings page as the sandbox acts on them. And a redelivery with nowhere to send to.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, START, type World, basic, paymentBody } from '../helpers/world';
import { signedIn, submit } from '../dashboard/helpers';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('settings in effect', () => {
  let sb: Sandbox;
  let rx: Receiver;
  afterEach(async () => {
    await sb?.stop();
    await rx?.close();
  });

  it("with --notify-url and --scenario: the merchant API and the settings page show the sandbox's values, which the payments follow", async () => {
    rx = await startReceiver();
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, notifyUrl: rx.url, scenario: 'two-step' });
    const merchant = (await request(sb.baseUrl).get('/_sandbox/merchants/30201')).body.Merchant;
    // The merchant's own settings stay what they are (none), beside what applies.
    expect(merchant).toMatchObject({ NotificationURL: null, DefaultScenario: null });
    expect(merchant.InEffect).toEqual({
      NotificationURL: { Value: rx.url, From: 'sandbox', SandboxDefault: rx.url },
      DefaultScenario: { Value: 'two-step', From: 'sandbox', SandboxDefault: 'two-step' },
    });
    expect((await request(sb.baseUrl).get('/_sandbox/merchants')).body.Merchants[0].InEffect).toEqual(merchant.InEffect);

    // As shown: a one-step method's payment follows two-step, and its Authorized goes to the receiver.
    const created = await request(sb.baseUrl).post('/v1/payments').set('Authorization', AUTH).send(paymentBody({ MethodID: 1 }));
    expect(created.status).toBe(201);
    expect((await request(sb.baseUrl).get(`/_sandbox/payments/${created.body.Payment.ID}`)).body.Scenario).toBe('two-step');
    await sb.clock.advance(2);
    expect(rx.received.map((r) => r.body.Payment.Status.Info)).toEqual(['Authorized']);

    const agent = await signedIn({ api: sb.baseUrl } as unknown as World);
    const page = (await agent.get('/dashboard/settings')).text;
    expect(page).toContain(`<th>Notifications go to</th><td data-from="sandbox">${rx.url} (the sandbox&#39;s default, from its start: --notify-url)</td>`);
    expect(page).toContain(`<th>Default scenario</th><td data-from="sandbox">two-step (the sandbox&#39;s default, from its start: --scenario)</td>`);
    // The empty choice of the dropdown names what applies when it is chosen: the sandbox's default.
    expect(page).toContain('<option value="">(none: the sandbox&#39;s default, two-step, from --scenario)</option>');
    expect(page).toContain(`Empty fields take the sandbox&#39;s defaults: notifications go to ${rx.url} (--notify-url); payments follow two-step (--scenario).`);
    expect(page).not.toContain('no notifications are sent');

    // The merchant's own values take their place, and say so; the sandbox's stay shown as the default.
    expect((await submit(agent, '/dashboard/settings', { NotificationURL: 'http://127.0.0.1:9/own', DefaultScenario: 'failed' })).status).toBe(303);
    expect((await request(sb.baseUrl).get('/_sandbox/merchants/30201')).body.Merchant).toMatchObject({
      NotificationURL: 'http://127.0.0.1:9/own',
      DefaultScenario: 'failed',
      InEffect: {
        NotificationURL: { Value: 'http://127.0.0.1:9/own', From: 'merchant', SandboxDefault: rx.url },
        DefaultScenario: { Value: 'failed', From: 'merchant', SandboxDefault: 'two-step' },
      },
    });
    const own = (await agent.get('/dashboard/settings')).text;
    expect(own).toContain('<td data-from="merchant">http://127.0.0.1:9/own (the merchant&#39;s own)</td>');
    expect(own).toContain('<td data-from="merchant">failed (the merchant&#39;s own)</td>');
  });

  it('without them: no URL (journaled as no-url) and the method\'s flow, in both places', async () => {
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const patched = await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ DefaultScenario: 'one-step' });
    expect(patched.body.Merchant.InEffect).toEqual({
      NotificationURL: { Value: null, From: 'none', SandboxDefault: null },
      DefaultScenario: { Value: 'one-step', From: 'merchant', SandboxDefault: null },
    });
    await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ DefaultScenario: null });
    expect((await request(sb.baseUrl).get('/_sandbox/merchants/30201')).body.Merchant.InEffect.DefaultScenario).toEqual({ Value: null, From: 'method', SandboxDefault: null });
    const page = (await (await signedIn({ api: sb.baseUrl } as unknown as World)).get('/dashboard/settings')).text;
    expect(page).toContain('<td data-from="none">none: notifications are journaled as no-url, not sent');
    expect(page).toContain('<td data-from="method">none: each payment follows its method&#39;s flow');
    expect(page).toContain('<option value="">(none: each payment follows its method&#39;s flow)</option>');
    expect(page).toContain('Empty fields take the sandbox&#39;s defaults: no notifications are sent (they are journaled as no-url); payments follow their method&#39;s flow.');
  });
});

describe('POST /_sandbox/notifications/{id}/redeliver', () => {
  let sb: Sandbox;
  afterEach(() => sb?.stop());

  it('refuses, with 400 saying why, a notification whose merchant has no URL: no attempt, nothing changed', async () => {
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const created = await request(sb.baseUrl).post('/v1/payments').set('Authorization', AUTH).send(paymentBody());
    await sb.clock.advance(2);
    const [n] = sb.notifications.list({ PaymentID: created.body.Payment.ID }).Notifications;
    expect(n).toMatchObject({ ID: 1, State: 'no-url', Attempts: [] });

    const res = await request(sb.baseUrl).post('/_sandbox/notifications/1/redeliver');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      Message:
        'Notification 1 cannot be redelivered: merchant 30201 has no notification URL, and the sandbox none for it (--notify-url). ' +
        'Set one with PATCH /_sandbox/merchants/30201 {"NotificationURL": "…"} first.',
    });
    await sb.clock.advance(600);
    expect(sb.notifications.list({ PaymentID: created.body.Payment.ID }).Notifications[0]).toEqual(n);

    // Given a URL, the same call queues it again.
    await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ NotificationURL: 'http://127.0.0.1:9/hook' });
    const again = await request(sb.baseUrl).post('/_sandbox/notifications/1/redeliver');
    expect(again.status).toBe(202);
    expect(again.body.Notification).toMatchObject({ ID: 1, State: 'pending' });
  });
});
