// docs/journal.md's "What did my integration send?": its curl lines and its test, run as written.
import { execFile } from 'node:child_process';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { block } from './readme';
import { stripTypes } from './strip-types';

const SECTION = 'What did my integration send?';
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...env }, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe(`docs/journal.md's "${SECTION}"`, () => {
  let sb: Sandbox | undefined;
  afterEach(() => sb?.stop());

  it('curl: counts the two captures, the one refused with 17, lists the payment’s requests and the near miss', async () => {
    const auth = /export AUTH="([^"]+)"/.exec(block('docs/fixtures.md', 'Fixture credentials', 'bash'))![1]!;
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const created = await request(sb.baseUrl).post('/v1/payments').set('Authorization', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey)).set('X-Sandbox-Scenario', 'payer-decides').send(paymentBody());
    const id = created.body.Payment.ID as number;
    const run = await bash(block('docs/journal.md', SECTION, 'bash'), { API: sb.baseUrl, AUTH: auth, ID: String(id) });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const [captures, refused, mine, misses] = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(captures).toEqual({ Count: 2 });
    expect(refused).toEqual({ Count: 1 });
    expect(mine.Requests.map((r: { Method: string; Route: string; Status: number; ReasonCodes: number[] }) => [r.Route, r.Status, r.ReasonCodes])).toEqual([
      ['/v1/payments', 201, []],
      ['/v1/payments/{id}/capture', 200, []],
      ['/v1/payments/{id}/capture', 400, [17]],
    ]);
    expect(misses.Requests.map((r: { NearMiss: string }) => r.NearMiss)).toEqual(['POST /v1/payment: no such route; nearest POST /v1/payments']);
  });

  it('the test in it runs as written and passes, and would fail on a second capture', async () => {
    const code = block('docs/journal.md', SECTION, 'ts');
    const js = stripTypes(code);
    const tests: { name: string; fn: () => Promise<void> }[] = [];
    new AsyncFunction('test', 'startSandbox', 'expect', js)((name: string, fn: () => Promise<void>) => tests.push({ name, fn }), startSandbox, expect);
    expect(tests.map((t) => t.name)).toEqual(['the shop captures once, with the split amounts']);
    await tests[0]!.fn();

    // The same test against a shop that captures twice fails where it should.
    const twice = code.replace(/(\n  await call\(`\/v1\/payments\/\$\{Payment\.ID\}\/capture`[^\n]+)/, '$1$1');
    expect(twice).not.toBe(code);
    const failing: { fn: () => Promise<void> }[] = [];
    const stops: Sandbox[] = [];
    const tracked = async (...a: Parameters<typeof startSandbox>) => {
      const s = await startSandbox(...a);
      stops.push(s);
      return s;
    };
    new AsyncFunction('test', 'startSandbox', 'expect', stripTypes(twice))(
      (_: string, fn: () => Promise<void>) => failing.push({ fn }),
      tracked,
      expect,
    );
    await expect(failing[0]!.fn()).rejects.toThrow(/toHaveLength/);
    await Promise.all(stops.map((s) => s.stop()));
  });
});
