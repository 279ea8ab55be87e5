// split-sandbox/testcontainers against the image, through a real engine (Podman's Docker-compatible
// socket, or Docker), as a test suite uses it: random host ports on loopback, no Ryuk, a receiver in
// this process for the notifications. Skipped, saying why, where there is no engine or no image.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ts from 'typescript';
import type { NotificationView, StartedSplitSandboxContainer } from 'split-sandbox/testcontainers';
import { type Engine, describeOnEngine, startEngine } from '../helpers/container-engine';
import { block } from '../readme/readme';

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;


interface Got {
  path: string;
  authorization: string | undefined;
  body: any;
}

describeOnEngine('SplitSandboxContainer on the image', () => {
  let engine: Engine;
  let receiver: Server;
  const received: Got[] = [];
  let sandbox: StartedSplitSandboxContainer;
  let notifyUrl: string;

  beforeAll(async () => {
    engine = await startEngine();
    process.env.DOCKER_HOST = engine.dockerHost;
    process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    // On every address: the container comes in through its bridge (host.containers.internal / host-gateway).
    receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', authorization: req.headers.authorization, body: raw ? JSON.parse(raw) : null });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '0.0.0.0', r));
    // Loaded once the engine is chosen: Testcontainers reads DOCKER_HOST when it first connects.
    const { SplitSandboxContainer, notificationUrlOnHost } = await import('split-sandbox/testcontainers');
    notifyUrl = await notificationUrlOnHost((receiver.address() as AddressInfo).port, '/notify');
    const t0 = performance.now();
    sandbox = await new SplitSandboxContainer(process.env.SANDBOX_IMAGE).withScenario('two-step').withClock('manual').withNotifyUrl(notifyUrl).start();
    console.log(`SplitSandboxContainer: started and healthy in ${Math.round(performance.now() - t0)} ms`);
  }, 180_000);

  afterAll(async () => {
    await sandbox?.stop();
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
    await engine?.stop();
  }, 60_000);

  test('its addresses are the mapped ports on loopback, and health names them', async () => {
    expect(sandbox.getBaseUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.getCardBaseUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.getBaseUrl()).not.toBe('http://127.0.0.1:8080');
    const health: unknown = await (await fetch(`${sandbox.getBaseUrl()}/_sandbox/health`)).json();
    expect(health).toMatchObject({ Status: 'ok', BaseURL: sandbox.getBaseUrl() });
    const onCard: unknown = await (await fetch(`${sandbox.getCardBaseUrl()}/_sandbox/health`)).json();
    expect(onCard).toMatchObject({ Status: 'ok', CardBaseURL: sandbox.getCardBaseUrl() });
    expect(notifyUrl).toMatch(/^http:\/\/host\.(containers|docker)\.internal:\d+\/notify$/);
  });

  test('the control API answers the test through its generated token, and nobody without it', async () => {
    expect(sandbox.getControlToken()).toMatch(/^[0-9a-f]{32}$/);
    const bare = await fetch(`${sandbox.getBaseUrl()}/_sandbox/merchants`);
    expect(bare.status).toBe(401);
    await bare.text();
    expect(sandbox.getMerchants().map((m) => m.SiteID)).toContain(30201);
    expect(sandbox.getMerchant()).toMatchObject({ SiteID: 30201, LinkedSiteIDs: [30202, 30203, 30204] });
  });

  const createPayment = async (mtid: string) => {
    const created = await fetch(`${sandbox.getBaseUrl()}/v1/payments`, {
      method: 'POST',
      headers: { Authorization: sandbox.basicAuth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        Payment: {
          MerchantTransactionID: mtid,
          Amount: '1000',
          Currency: 'EUR',
          MethodID: 42,
          ReturnURL: 'https://shop.example/return',
          Splits: [
            { SiteID: 30202, Amount: '600', MerchantTransactionID: `${mtid}-a` },
            { SiteID: 30203, Amount: '400', MerchantTransactionID: `${mtid}-b` },
          ],
        },
      }),
    });
    expect(created.status).toBe(201);
    const payment = ((await created.json()) as { Payment: { ID: number; Status: unknown; RedirectURL: string } }).Payment;
    expect(payment.Status).toEqual({ ID: 1, Info: 'Open', Reasons: null });
    expect(payment.RedirectURL).toMatch(new RegExp(`^${sandbox.getBaseUrl()}/Home\\?PaymentToken=[0-9A-F]{32}\\.${payment.ID}$`));
    return payment;
  };

  const receivedFor = async (id: number, statusId: number) => {
    const n = await sandbox.notifications.waitFor({ PaymentID: id, StatusID: statusId }, { delivered: true, timeoutMs: 10_000 });
    expect(n).toMatchObject({ PaymentID: id, StatusID: statusId, State: 'delivered' });
    expect(n.Attempts[0]).toMatchObject({ URL: notifyUrl, HTTPStatus: 204 });
    const got = received.find((r) => r.body?.Payment?.ID === id && r.body.Payment.Status.ID === statusId);
    expect(got).toMatchObject({ path: '/notify', authorization: sandbox.basicAuth(), body: { Payment: { ID: id, Status: { ID: statusId } } } });
  };

  test('create a payment, follow its RedirectURL: the payer authorizes on the page; the notification is received', async () => {
    const payment = await createPayment('tc-page');
    const page = await fetch(payment.RedirectURL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('tc-page');
    // The page's Authorize button, pressed as a browser does: its form, relative to the page's address.
    const form = /<form method="post" action="([^"]+\/authorize)"><input type="hidden" name="PaymentToken" value="([^"]+)">/.exec(html)!;
    const pressed = await fetch(new URL(form[1]!, payment.RedirectURL), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ PaymentToken: form[2]!, action: 'authorize' }).toString(),
      redirect: 'manual',
    });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe('https://shop.example/return');
    await receivedFor(payment.ID, 9);
  });

  test('create a payment, advance the clock: the scenario authorizes it; the notification is received', async () => {
    const payment = await createPayment('tc-clock');
    const clock = await sandbox.clock.advance(2);
    expect(clock.Mode).toBe('manual');
    await receivedFor(payment.ID, 9);
    const page = await sandbox.notifications.list({ PaymentID: payment.ID });
    expect(page.TotalCount).toBe(1);
  });

  test('merchants.create and reset over HTTP, typed', async () => {
    const m = await sandbox.merchants.create({ Name: 'Container shop', LinkedSites: 2 });
    expect(m).toMatchObject({ Name: 'Container shop', NotificationURL: null });
    expect(m.LinkedSiteIDs).toHaveLength(2);
    expect((await sandbox.merchants.list()).map((x) => x.SiteID)).toContain(m.SiteID);
    await sandbox.reset();
    expect((await sandbox.merchants.list()).map((x) => x.SiteID)).not.toContain(m.SiteID);
    expect((await sandbox.notifications.list()).TotalCount).toBe(0);
    await expect(sandbox.clock.advance(-1)).rejects.toThrow(/answered 400/);
  });

  test("docs/testing.md's Testcontainers snippet runs as written (on this image)", async () => {
    const code = block('docs/testing.md', 'Testcontainers', 'ts');
    const imports = ["import { createServer } from 'node:http';", "import { SplitSandboxContainer, notificationUrlOnHost } from 'split-sandbox/testcontainers';"];
    for (const line of imports) expect(code).toContain(line);
    const js = ts.transpileModule(imports.reduce((c, line) => c.replace(line, ''), code), { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
    const mod = await import('split-sandbox/testcontainers');
    const seen: { started?: StartedSplitSandboxContainer; waited?: NotificationView; stopped?: boolean } = {};
    // The snippet's image is the one `docker build -t split-sandbox .` makes; here, the one under test.
    class OnThisImage extends mod.SplitSandboxContainer {
      constructor() {
        super(process.env.SANDBOX_IMAGE);
      }
      override async start() {
        const started = await super.start();
        seen.started = started;
        const waitFor = started.control.notifications.waitFor;
        started.control.notifications.waitFor = async (...a) => (seen.waited = await waitFor(...a));
        return started;
      }
    }
    try {
      await new AsyncFunction('createServer', 'SplitSandboxContainer', 'notificationUrlOnHost', js)(createServer, OnThisImage, mod.notificationUrlOnHost);
      seen.stopped = true;
    } finally {
      // Without Ryuk nothing else removes it: a snippet that failed half-way leaves its container to us.
      if (!seen.stopped) await seen.started?.stop().catch(() => undefined);
    }
    expect(seen.waited).toMatchObject({ StatusID: 9, State: 'delivered', Attempts: [{ HTTPStatus: 204 }] });
    expect(seen.waited!.Attempts[0]!.URL).toMatch(/^http:\/\/host\.(containers|docker)\.internal:\d+\/notify$/);
    // Stopped: its mapped port answers no more.
    await expect(fetch(`${seen.started!.getBaseUrl()}/_sandbox/health`)).rejects.toThrow();
  }, 120_000);
});
