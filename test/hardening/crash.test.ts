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

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

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
    const api = (await waitForOutput(first, /API  (\S+)\n/))[1]!;

    const created: { ID: number; body: unknown }[] = [];
    const captured: number[] = [];
    // Told by the clients (the 100th capture, or their end), not found by polling.
    let enough!: () => void;
    const enoughCaptured = new Promise<void>((resolve) => (enough = resolve));
    let stop = false;
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await request(api).post('/v1/payments').agent(clientsAgent).set('Authorization', auth).send(paymentBody({ MerchantTransactionID: `crash-${c}-${i}` }));
          if (res.status !== 201) continue;
          created.push({ ID: res.body.Payment.ID, body: res.body.Payment });
          await request(api).post(`/_sandbox/payments/${res.body.Payment.ID}/events`).agent(clientsAgent).send({ Event: 'authorize' });
          const cap = await request(api).post(`/v1/payments/${res.body.Payment.ID}/capture`).agent(clientsAgent).set('Authorization', auth);
          if (cap.status === 200 && captured.push(res.body.Payment.ID) >= 100) enough();
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
      // Each payment read once, eight at a time; a captured one is also checked captured.
      const wasCaptured = new Set(captured);
      // Each expectation is made when it does not hold (the failure reads the same): expect() builds its
      // whole set of matchers on each call, which hundreds of payments read feel.
      await inParallel(created, 8, async (c) => {
        const res = await request(api2).get(`/v1/payments/${c.ID}`).agent(checksAgent).set('Authorization', auth);
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
        const waited = await request(api2).get(`/_sandbox/notifications/wait?PaymentID=${id}&StatusID=2&TimeoutMs=10000`).agent(checksAgent);
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
