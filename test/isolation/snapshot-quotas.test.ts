// A marketplace's quotas of snapshots (count and bytes) and fault rules: over one, 409 naming it and
// nothing kept; another marketplace is not affected. A save or a restore goes in steps, and another
// marketplace's request is answered between two of them.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { byteSize } from '../../src/cli/options';
import { START, basic } from '../helpers/world';
import { payAs } from './pay';

interface Made {
  SiteID: number;
  LinkedSiteIDs: number[];
  auth: string;
}

const QUOTA_BYTES = 1024 * 1024;

describe("a marketplace's snapshot and fault rule quotas", () => {
  let sb: Sandbox;
  let dir: string;
  let db: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snapshot-quotas-'));
    db = join(dir, 'sandbox.db');
    sb = await startSandbox({
      port: 0,
      cardPort: 0,
      db,
      clock: 'manual',
      startTime: START,
      seed: 17,
      quiet: true,
      merchantSnapshots: 2,
      merchantSnapshotBytes: QUOTA_BYTES,
      merchantFaultRules: 2,
    });
  });
  afterEach(async () => {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const make = async (): Promise<Made> => {
    const res = await request(sb.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 1 });
    expect(res.status).toBe(201);
    const m = res.body.Merchant;
    return { SiteID: m.SiteID, LinkedSiteIDs: m.LinkedSiteIDs, auth: basic(m.SiteID, m.APIKey) };
  };
  const call = (m: Made, method: 'get' | 'post' | 'delete', path: string) => request(sb.baseUrl)[method](`/_sandbox/merchants/${m.SiteID}${path}`).set('Authorization', m.auth);
  const names = async (m: Made) => ((await call(m, 'get', '/snapshots')).body.Snapshots as { Name: string }[]).map((s) => s.Name);
  /** Requests of A with 64 KiB bodies: its journal's entries hold them. */
  const flood = async (m: Made, n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await request(sb.baseUrl)
        .post('/v1/payments')
        .set('Authorization', m.auth)
        .send({ Payment: { MerchantTransactionID: `big-${i}`, Description: 'x'.repeat(64 * 1024) } });
      expect(res.status).toBe(400);
    }
  };

  it('refuses a save past the count with 409 naming the quota; a same-name save replaces; B keeps its own count', async () => {
    const a = await make();
    const b = await make();
    await call(a, 'post', '/snapshots').send({ Name: 's1' }).expect(201);
    await call(a, 'post', '/snapshots').send({ Name: 's2' }).expect(201);
    const over = await call(a, 'post', '/snapshots').send({ Name: 's3' });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ Message: `SiteID ${a.SiteID} is at its snapshot quota of 2 snapshots: delete one first` });
    expect(await names(a)).toEqual(['s1', 's2']);
    await call(a, 'post', '/snapshots').send({ Name: 's1' }).expect(201);
    await call(b, 'post', '/snapshots').send({ Name: 's1' }).expect(201);
    await call(b, 'post', '/snapshots').send({ Name: 's2' }).expect(201);
    await call(a, 'delete', '/snapshots/s2').expect(204);
    await call(a, 'post', '/snapshots').send({ Name: 's3' }).expect(201);
  });

  it('refuses a save past the bytes with 409 naming the quota, keeps nothing of it, and B saves and restores as before', async () => {
    const a = await make();
    const b = await make();
    const paymentOfB = (await payAs(sb.baseUrl, b.auth, b.LinkedSiteIDs[0], 1)).ID;
    await call(a, 'post', '/snapshots').send({ Name: 'small' }).expect(201);
    await flood(a, 24);
    const over = await call(a, 'post', '/snapshots').send({ Name: 'big' });
    expect(over.status).toBe(409);
    expect(over.body.Message).toMatch(new RegExp(`^Snapshot big would pass SiteID ${a.SiteID}'s snapshot quota of ${QUOTA_BYTES} bytes \\(its other snapshots hold \\d+, this one had reached \\d+ when it was stopped\\): delete one first$`));
    // Nothing of it: no file, no scratch file left beside.
    expect(readdirSync(join(`${db}.merchant-snapshots`, String(a.SiteID)))).toEqual(['small.db']);
    expect(await names(a)).toEqual(['small']);
    const saved = await call(b, 'post', '/snapshots').send({ Name: 'of-b' });
    expect(saved.status).toBe(201);
    expect(saved.body.Snapshot.Payments).toBe(1);
    await call(b, 'post', '/snapshots/of-b/restore').expect(200);
    expect((await request(sb.baseUrl).get(`/v1/payments/${paymentOfB}`).set('Authorization', b.auth)).status).toBe(200);
    const health = (await request(sb.baseUrl).get('/_sandbox/health')).body;
    expect(health.MerchantSnapshots).toEqual({ Count: 2, Bytes: expect.any(Number), QuotaCount: 2, QuotaBytes: QUOTA_BYTES });
    expect(health.MerchantSnapshots.Bytes).toBeGreaterThan(0);
    expect(health.MerchantSnapshots.Bytes).toBeLessThan(QUOTA_BYTES);
  });

  it('refuses a fault rule past the count with 409 naming the quota; B adds its own', async () => {
    const a = await make();
    const b = await make();
    const rule = { Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments/{id}' }, Action: { Status: 503 } };
    await call(a, 'post', '/faults').send(rule).expect(201);
    await call(a, 'post', '/faults').send(rule).expect(201);
    const over = await call(a, 'post', '/faults').send(rule);
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ Message: `SiteID ${a.SiteID} is at its fault rule quota of 2 rules: delete one first` });
    expect((await call(a, 'get', '/faults')).body.Faults).toHaveLength(2);
    await call(b, 'post', '/faults').send(rule).expect(201);
    // The sandbox's own rules have no quota.
    for (let i = 0; i < 3; i++) await request(sb.baseUrl).post('/_sandbox/faults').send(rule).expect(201);
    expect((await request(sb.baseUrl).get('/_sandbox/health')).body.MerchantFaultRules).toEqual({ Count: 3, Quota: 2 });
  });

  it("answers B's request between two steps of A's save and of A's restore", async () => {
    const a = await make();
    const b = await make();
    // Enough journal entries for more than one step.
    for (let i = 0; i < 40; i++) await request(sb.baseUrl).get('/v1/payments').set('Authorization', a.auth).expect(200);
    let steps = 0;
    let seen: { status: number; aDone: boolean } | null = null;
    let aDone = false;
    sb.services.betweenSteps = async (site) => {
      if (site !== a.SiteID) return;
      steps++;
      if (steps === 2) {
        const res = await request(sb.baseUrl).get('/v1/payments').set('Authorization', b.auth);
        seen = { status: res.status, aDone };
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    };
    const saved = await call(a, 'post', '/snapshots').send({ Name: 'steps' });
    aDone = true;
    expect(saved.status).toBe(201);
    expect(seen).toEqual({ status: 200, aDone: false });
    expect(steps).toBeGreaterThan(2);

    steps = 0;
    seen = null;
    aDone = false;
    const restored = await call(a, 'post', '/snapshots/steps/restore');
    aDone = true;
    expect(restored.status).toBe(200);
    expect(seen).toEqual({ status: 200, aDone: false });
    expect(steps).toBeGreaterThan(2);
    // A's journal came back whole, B's untouched.
    expect(sb.requests.count({ SiteID: a.SiteID, Route: '/v1/payments' })).toBe(40);
    expect(sb.requests.count({ SiteID: b.SiteID, Route: '/v1/payments' })).toBe(2);
  });
});

// Tests with a sandbox of their own, or none: the file-backed one above is not started for them.
describe("a marketplace's snapshot and fault rule quotas", () => {
  it('keeps the quotas on an in-memory database too', async () => {
    const mem = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 17, quiet: true, merchantSnapshots: 1, merchantSnapshotBytes: QUOTA_BYTES });
    try {
      const made = (await request(mem.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 1 }).expect(201)).body.Merchant;
      const auth = basic(made.SiteID, made.APIKey);
      const save = (name: string) => request(mem.baseUrl).post(`/_sandbox/merchants/${made.SiteID}/snapshots`).set('Authorization', auth).send({ Name: name });
      expect((await save('one')).status).toBe(201);
      expect((await save('two')).body).toEqual({ Message: `SiteID ${made.SiteID} is at its snapshot quota of 1 snapshot: delete one first` });
      for (let i = 0; i < 24; i++) {
        await request(mem.baseUrl)
          .post('/v1/payments')
          .set('Authorization', auth)
          .send({ Payment: { MerchantTransactionID: `big-${i}`, Description: 'x'.repeat(64 * 1024) } })
          .expect(400);
      }
      const over = await save('one');
      expect(over.status).toBe(409);
      expect(over.body.Message).toContain(`snapshot quota of ${QUOTA_BYTES} bytes`);
      expect((await request(mem.baseUrl).get(`/_sandbox/merchants/${made.SiteID}/snapshots`).set('Authorization', auth)).body.Snapshots.map((x: { Name: string }) => x.Name)).toEqual(['one']);
    } finally {
      await mem.stop();
    }
  });

  it('reads sizes for --merchant-snapshot-bytes', () => {
    expect(byteSize(1)('256MiB')).toBe(256 * 1024 * 1024);
    expect(byteSize(1)('256MB')).toBe(256_000_000);
    expect(byteSize(1)('64KiB')).toBe(65536);
    expect(byteSize(1)('1gb')).toBe(1e9);
    expect(byteSize(1)('1000')).toBe(1000);
    expect(() => byteSize(1)('0')).toThrow('expected a size of at least 1 bytes');
    expect(() => byteSize(1)('12 parsecs')).toThrow('expected a size of at least 1 bytes');
  });
});
