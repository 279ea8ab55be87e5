// The CLI, run as a real process from the built code (bin/split-sandbox → dist/). dist/ is built
// first when it is missing or older than src/, so this passes on a clean clone and after edits.
// The start test uses the real clock: it waits with /_sandbox/notifications/wait, never sleeps.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Run, run, sessionForTests, waitForOutput } from './process';
import request from 'supertest';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, basic, paymentBody } from '../helpers/constants';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const SHIPPED = [
  'cancelled-by-payer',
  'expired',
  'failed',
  'one-step',
  'partial-capture',
  'payer-decides',
  'refund-then-add-splits',
  'two-step',
  'two-step-capture-requested',
];

describe('split-sandbox CLI (built code)', () => {
  const running: Run[] = [];
  let rx: Receiver | undefined;

  // Outputs of given arguments, and a start whose process is not in question, run in one Node process
  // (the CLI session); `scenarios` also as a real process, compared, and the start on the real clock.
  const session = sessionForTests();
  afterEach(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null && r.child.signalCode === null) {
        r.child.kill('SIGKILL');
        await r.exited;
      }
    }
    await rx?.close();
    rx = undefined;
  });

  const spawnRun = (args: string[]) => {
    const r = run(args);
    running.push(r);
    return r;
  };

  const broken = mkdtempSync(join(tmpdir(), 'split-sandbox-cli-'));
  writeFileSync(join(broken, 'broken.json'), JSON.stringify({ Name: 'broken', Steps: [] }));
  afterAll(() => rmSync(broken, { recursive: true, force: true }));

  it('`split-sandbox scenarios` prints one line per shipped scenario', async () => {
    const r = spawnRun(['scenarios']);
    expect(await r.exited).toEqual({ code: 0, signal: null });
    expect(await session.run(['scenarios'])).toEqual({ code: 0, out: r.stdout(), err: r.stderr() });
    const lines = r.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(SHIPPED.length);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(SHIPPED);
    for (const l of lines) expect(l).toMatch(/^[a-z-]+ +\S.*$/);
    expect(lines.find((l) => l.startsWith('two-step-capture-requested'))).toMatch(/CaptureRequested \(13\)/);
    expect(r.stderr()).toBe('');
  });

  it('`split-sandbox scenarios --scenarios <dir>` with a broken file exits 1, naming the file', async () => {
    const r = await session.run(['scenarios', '--scenarios', broken]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(join(broken, 'broken.json'));
    expect(r.out).toBe('');
  });

  it('`split-sandbox start`: prints its addresses, runs the scenario on the real clock, notifies, exits 0 on SIGTERM', async () => {
    rx = await startReceiver();
    const r = spawnRun(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--scenario', 'two-step', '--notify-url', rx.url]);
    const m = await waitForOutput(r, /^API {2}(http:\/\/127\.0\.0\.1:(\d+))\nCard (http:\/\/127\.0\.0\.1:(\d+))\nListening on .*\n/m);
    const api = m[1]!;
    const card = m[3]!;
    expect(m[2]).not.toBe(m[4]);
    expect(Number(m[2])).toBeGreaterThan(0);
    expect(m[0].split('\n')[2]).toBe(`Listening on ${api} (API) and ${card} (card API)`);

    expect((await request(api).get('/_sandbox/health')).body).toEqual({
      Status: 'ok',
      BaseURL: api,
      CardBaseURL: card,
      PID: r.child.pid,
      Payments: 0,
      RequestJournal: expect.objectContaining({ Entries: 0, StoredBytes: 0 }),
      DatabaseBytes: expect.any(Number),
      DatabaseFreeBytes: 0,
      MerchantSnapshots: { Count: 0, Bytes: 0, QuotaCount: 20, QuotaBytes: 268435456 },
      MerchantFaultRules: { Count: 0, Quota: 100 },
    });
    expect((await request(api).get('/_sandbox/clock')).body.Mode).toBe('real');
    expect((await request(card).get('/v1/payments').set('Authorization', AUTH)).status).toBe(200);

    // MethodID 1 is a one-step method: only --scenario two-step makes this payment authorize.
    const t0 = Date.now();
    const created = await request(api).post('/v1/payments').set('Authorization', AUTH).send(paymentBody({ MethodID: 1 }));
    expect(created.status).toBe(201);
    const id = created.body.Payment.ID;
    expect(created.body.Payment.Status.ID).toBe(1);
    expect((await request(api).get(`/_sandbox/payments/${id}`)).body.Scenario).toBe('two-step');

    const authorized = await request(api).get(`/_sandbox/notifications/wait?PaymentID=${id}&StatusID=9&TimeoutMs=6000`);
    const elapsed = Date.now() - t0;
    expect(authorized.status).toBe(200);
    // The step is due 2 s after creation; allow a second for scheduling and delivery.
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(3500);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.headers.authorization).toBe(AUTH);
    expect(rx.received[0]!.body.Payment).toMatchObject({ ID: id, Status: { ID: 9, Info: 'Authorized', Reasons: null } });
    expect(rx.received[0]!.body.Payment.Splits.map((s: any) => s.StateDetails.ID)).toEqual([9, 9, 9]);

    const captured = await request(api).post(`/v1/payments/${id}/capture`).set('Authorization', AUTH);
    expect(captured.status).toBe(200);
    expect(captured.body.Payment.Status.ID).toBe(2);
    const success = await request(api).get(`/_sandbox/notifications/wait?PaymentID=${id}&StatusID=2&TimeoutMs=5000`);
    expect(success.status).toBe(200);
    expect(rx.received.map((x) => x.body.Payment.Status.ID)).toEqual([9, 2]);
    expect(rx.received[1]!.headers.authorization).toBe(AUTH);
    expect(rx.received[1]!.body.Payment.Details).toMatchObject({ ReferenceNumber: `SBX-${id}` });

    r.child.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 0, signal: null });
  });

  it('`split-sandbox start --public-url` with port 0: prints the public addresses first, then the bound ones, labelled', async () => {
    // In the session, where it runs until the session ends: what it prints is what is tested.
    const r = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet', '--public-url', 'http://sandbox.test', '--public-card-url', 'http://card.sandbox.test']);
    expect(r.code).toBe(0);
    const m = /^API {2}http:\/\/sandbox\.test\nCard http:\/\/card\.sandbox\.test\nListening on (http:\/\/127\.0\.0\.1:\d+) \(API\) and (http:\/\/127\.0\.0\.1:\d+) \(card API\)\n$/.exec(r.out)!;
    const [api, card] = [m[1]!, m[2]!];
    expect(api).not.toBe(card);
    expect((await request(api).get('/_sandbox/health')).body).toEqual({
      Status: 'ok',
      BaseURL: 'http://sandbox.test',
      CardBaseURL: 'http://card.sandbox.test',
      PID: session.pid,
      Payments: 0,
      RequestJournal: expect.objectContaining({ Entries: 0, StoredBytes: 0 }),
      DatabaseBytes: expect.any(Number),
      DatabaseFreeBytes: 0,
      MerchantSnapshots: { Count: 0, Bytes: 0, QuotaCount: 20, QuotaBytes: 268435456 },
      MerchantFaultRules: { Count: 0, Quota: 100 },
    });
    const created = await request(api).post('/v1/payments').set('Authorization', AUTH).send(paymentBody());
    expect(created.body.Payment.RedirectURL).toMatch(/^http:\/\/sandbox\.test\/Home\?PaymentToken=/);
    expect((await request(card).get('/v1/payments').set('Authorization', AUTH)).status).toBe(200);
  });

  it('`split-sandbox start` with an unknown --scenario exits 1 with a message', async () => {
    const r = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--scenario', 'nope']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown scenario "nope"/);
  });

  it('`split-sandbox start --fixtures <dir>` checks fixture files that differ from the shipped ones: an invalid one exits 1, naming it', async () => {
    // The bundle holds the shipped files' texts as the build checked them; a text that differs is checked at the start.
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-fixtures-'));
    try {
      cpSync(join(__dirname, '..', '..', 'fixtures'), dir, { recursive: true });
      const file = join(dir, 'methods.json');
      const methods = JSON.parse(readFileSync(file, 'utf8')) as { Methods: { Flow: string }[] };
      methods.Methods[0]!.Flow = 'teleport';
      writeFileSync(file, JSON.stringify(methods, null, 2) + '\n');
      const r = spawnRun(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--fixtures', dir]);
      expect(await r.exited).toEqual({ code: 1, signal: null });
      expect(r.stderr()).toContain(`fixture ${file} is invalid: Methods[0].Flow is invalid`);
      expect(r.stdout()).not.toContain('Listening on');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`split-sandbox start` with a --notify-url that is its own address exits 1 and says why', async () => {
    const r = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--public-url', 'http://qa-sandbox.internal:8080', '--notify-url', 'http://qa-sandbox.internal:8080/_sandbox/reset']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "split-sandbox: --notify-url refused: http://qa-sandbox.internal:8080/_sandbox/reset is this sandbox's own API address (its public URL); the sandbox sends no notification to itself\n",
    );
  });

  it('`split-sandbox start` on a taken port exits 1 and says how to choose another', async () => {
    const blocker = createServer();
    await new Promise<void>((res) => blocker.listen(0, '127.0.0.1', res));
    try {
      const port = String((blocker.address() as AddressInfo).port);
      const r = await session.run(['start', '--port', port, '--card-port', '0', '--db', ':memory:', '--quiet']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/port is taken/);
    } finally {
      await new Promise<void>((res) => blocker.close(() => res()));
    }
  });
});
