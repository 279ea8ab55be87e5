// kill -9 in the middle of a load: after a restart on the same file, every request that was answered
// 2xx is there, whole, and the sandbox carries on.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { MARKETPLACE, basic, paymentBody } from '../helpers/world';
import { ensureBuilt, run, waitForOutput } from '../cli/process';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { plainRequest } from '../helpers/plain-http';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

/**
 * The port of a sandbox process's API address, for the load's requests: sent as supertest sends them
 * and their answers checked against the OpenAPI document as supertest's are, on node:http alone
 * (superagent cost the clients about as much as the answers cost the sandbox).
 */
function portOf(url: string): number {
  const { hostname, port } = new URL(url);
  expect(hostname).toBe('127.0.0.1');
  return Number(port);
}
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

/** Each of `items` through `check`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, check: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await check(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

describe('a crash under load', () => {
  let dir: string;
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'split-sandbox-crash-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  let rx: Receiver;
  beforeEach(async () => (rx = await startReceiver()));
  afterEach(async () => rx.close());

  it('keeps every payment whose create or capture was answered 2xx, and delivers every notification after the restart', async () => {
    const db = join(dir, 'crash.db');
    const args = ['start', '--port', '0', '--card-port', '0', '--db', db, '--quiet', '--scenario', 'two-step', '--notify-url', rx.url];
    // Clients keep their connections open between requests, as an SDK's would.
    const clientsAgent = new Agent({ keepAlive: true, maxSockets: 8 });
    const first = run(args);
    const api = portOf((await waitForOutput(first, /API  (\S+)\n/))[1]!);

    const created: { ID: number; body: unknown }[] = [];
    const captured: number[] = [];
    // Told by the clients (the 100th capture, or their end), not found by polling.
    let enough!: () => void;
    const enoughCaptured = new Promise<void>((resolve) => (enough = resolve));
    let stop = false;
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await plainRequest(api, clientsAgent, 'api', {
            method: 'post',
            path: '/v1/payments',
            headers: [['Authorization', auth], JSON_TYPE],
            body: JSON.stringify(paymentBody({ MerchantTransactionID: `crash-${c}-${i}` })),
          });
          const made = res.body as { Payment: { ID: number } };
          if (res.status !== 201) continue;
          created.push({ ID: made.Payment.ID, body: made.Payment });
          await plainRequest(api, clientsAgent, 'api', { method: 'post', path: `/_sandbox/payments/${made.Payment.ID}/events`, headers: [JSON_TYPE], body: JSON.stringify({ Event: 'authorize' }) });
          const cap = await plainRequest(api, clientsAgent, 'api', { method: 'post', path: `/v1/payments/${made.Payment.ID}/capture`, headers: [['Authorization', auth]] });
          if (cap.status === 200 && captured.push(made.Payment.ID) >= 100) enough();
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 8 }, (_, c) => client(c))).finally(enough);
    try {
      // Bounded: if the clients stop early (the server died on its own), the test fails below instead of waiting.
      await enoughCaptured;
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
      stop = true;
      await clients;
      clientsAgent.destroy();
    }
    expect(captured.length).toBeGreaterThanOrEqual(100);

    const second = run(args);
    const checksAgent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const api2 = (await waitForOutput(second, /API  (\S+)\n/))[1]!;
      const port2 = portOf(api2);
      // Each payment read once, eight at a time; a captured one is also checked captured.
      const wasCaptured = new Set(captured);
      // Each expectation is made when it does not hold (the failure reads the same): expect() builds its
      // whole set of matchers on each call, which hundreds of payments read feel.
      await inParallel(created, 8, async (c) => {
        const res = (await plainRequest(port2, checksAgent, 'api', { method: 'get', path: `/v1/payments/${c.ID}`, headers: [['Authorization', auth]] })) as { status: number; body: any };
        if (res.status !== 200) expect(res.status).toBe(200);
        if (res.body.Payment.Splits?.length !== 3) expect(res.body.Payment.Splits).toHaveLength(3);
        const mtid = (c.body as { MerchantTransactionID: string }).MerchantTransactionID;
        if (res.body.Payment.MerchantTransactionID !== mtid) expect(res.body.Payment.MerchantTransactionID).toBe(mtid);
        if (!wasCaptured.has(c.ID)) return;
        if (res.body.Payment.Status.ID !== 2) expect(res.body.Payment.Status.ID).toBe(2);
        const states = res.body.Payment.Splits.map((s: { StateDetails: { ID: number } }) => s.StateDetails.ID);
        if (!isDeepStrictEqual(states, [2, 2, 2])) expect(states).toEqual([2, 2, 2]);
      });
      expect(captured.every((id) => created.some((c) => c.ID === id))).toBe(true);
      // Every captured payment's Success notification arrives, at least once, after the restart too.
      await inParallel(captured, 8, async (id) => {
        const waited = await plainRequest(port2, checksAgent, 'api', { method: 'get', path: `/_sandbox/notifications/wait?PaymentID=${id}&StatusID=2&TimeoutMs=10000` });
        if (waited.status !== 200) expect(waited.status).toBe(200);
      });
      // And it goes on working.
      await request(api2).post('/v1/payments').set('Authorization', auth).send(paymentBody()).expect(201);
    } finally {
      checksAgent.destroy();
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 60_000);
});
