// `split-sandbox drift` as a process (built code): it prints where it listens, writes its ready file,
// proxies a call to the upstream, and on SIGTERM leaves the report in --out. The upstream, whose process
// is not in question, is one sandbox for the file, started in a CLI session's process (loading the
// whole sandbox into the test's own process cost more than that process does).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { MARKETPLACE, START_STAMP, basic, paymentBody } from '../helpers/constants';
import { type Run, appears, run, sessionForTests, startIn, waitForOutput } from './process';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('split-sandbox drift (built code)', () => {
  let tmp: string;
  let upstream: { baseUrl: string; cardBaseUrl: string };
  const running: Run[] = [];

  const session = sessionForTests();
  beforeAll(async () => {
    const { api, card } = await startIn(session, ['--db', ':memory:', '--clock', 'manual', '--start-time', START_STAMP]);
    upstream = { baseUrl: api, cardBaseUrl: card };
  }, 120_000);
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-drift-'))));
  afterEach(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
      await r.exited;
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  it('listens on both addresses, forwards to the upstream, and leaves the report in --out when stopped', async () => {
    const ready = join(tmp, 'ready.json');
    const out = join(tmp, 'drift.json');
    const r = run(['drift', '--upstream', upstream.baseUrl, '--upstream-card', upstream.cardBaseUrl, '--port', '0', '--card-port', '0', '--out', out, '--ready-file', ready, '--quiet']);
    running.push(r);
    const [, api] = await waitForOutput(r, /^API {2}(http:\/\/127\.0\.0\.1:\d+)\nCard (http:\/\/127\.0\.0\.1:\d+)\n/m);
    await appears(ready, r);
    expect(JSON.parse(readFileSync(ready, 'utf8'))).toMatchObject({ BaseURL: api, PID: r.child.pid });
    expect(r.stdout()).toContain(`Hook ${api}/_drift/notify`);
    const made = await request(api!).post('/v1/payments').set('Authorization', AUTH).send(paymentBody());
    expect(made.status).toBe(201);
    // The payment is the upstream's.
    expect((await request(upstream.baseUrl).get(`/v1/payments/${made.body.Payment.ID}`).set('Authorization', AUTH)).status).toBe(200);
    r.child.kill('SIGTERM');
    await r.exited;
    expect(r.child.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ Differences: [] });
    expect(existsSync(ready)).toBe(false);
  });

  it('is waited for and stopped by its ready file, as `start` is', async () => {
    const ready = join(tmp, 'ready.json');
    const r = run(['drift', '--upstream', upstream.baseUrl, '--upstream-card', upstream.cardBaseUrl, '--port', '0', '--card-port', '0', '--control-token', 'secret', '--ready-file', ready, '--quiet']);
    running.push(r);
    const waited = run(['wait', '--ready-file', ready, '--timeout', '60s']);
    expect((await waited.exited).code).toBe(0);
    expect(waited.stdout()).toMatch(/is healthy/);
    const stopped = run(['stop', '--ready-file', ready]);
    const { code } = await stopped.exited;
    expect(stopped.stderr()).toBe('');
    expect(code).toBe(0);
    expect(stopped.stdout()).toContain(`split-sandbox PID ${r.child.pid} at`);
    expect((await r.exited).code).toBe(0);
    expect(existsSync(ready)).toBe(false);
  });

  it('refuses to start without the upstream addresses', async () => {
    const r = run(['drift', '--port', '0', '--card-port', '0']);
    running.push(r);
    await r.exited;
    expect(r.child.exitCode).toBe(1);
    expect(r.stderr()).toContain('--upstream and --upstream-card');
  });
});
