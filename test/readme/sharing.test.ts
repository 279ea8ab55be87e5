// docs/sharing.md's "Sharing one instance": its curl flow run as written in bash against a sandbox that
// needs a control token (the token once, then only the marketplace's credentials), and its embedded
// snippet run as written.
import { execFile } from 'node:child_process';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { MARKETPLACE, START, basic } from '../helpers/world';
import { block } from './readme';
import { stripTypes } from './strip-types';

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...env }, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("docs/sharing.md's Sharing one instance", () => {
  let sb: Sandbox | undefined;
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
  });

  it('runs the curl flow as written: the token once, then only the credentials; the fixture marketplace is untouched', async () => {
    const token = 'qa-secret-token';
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, controlToken: token });
    const fixture = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
    await request(sb.baseUrl).post('/v1/payments').set('Authorization', fixture).send({
      Payment: { MerchantTransactionID: 'theirs', Amount: '500', Currency: 'EUR', MethodID: 42, ReturnURL: 'https://shop.example/return' },
    });
    const theirs = (await request(sb.baseUrl).get('/v1/payments').set('Authorization', fixture)).text;

    const run = await bash(block('docs/sharing.md', 'Sharing one instance', 'bash'), { API: sb.baseUrl, TOKEN: token });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const answers = run.stdout.split(/(?<=\})(?=\{)/).map((line) => JSON.parse(line));
    expect(answers[0]).toEqual({ Snapshot: { Name: 'empty', Created: '20260115100000', OwnClock: true, Payments: 0 } });
    expect(answers[1].Payment.Status).toEqual({ ID: 1, Info: 'Open', Reasons: null });
    expect(answers[2]).toMatchObject({ Mode: 'manual', Own: true, Now: '20260115100002' });
    expect(answers[3]).toMatchObject({ TotalCount: 1, Notifications: [{ PaymentID: answers[1].Payment.ID, StatusID: 9, State: 'no-url' }] });
    expect(answers[4].Fault).toMatchObject({ Channel: 'api', Action: { Status: 503 }, Times: 1 });
    expect(answers[5]).toMatchObject({ Snapshot: { Name: 'empty' }, Clock: { Own: true, Now: '20260115100000' } });
    expect(answers[6]).toMatchObject({ Status: 'reset' });
    expect(answers).toHaveLength(7);
    // Removed: its credentials are worth nothing now; the sandbox's own marketplace kept its payment.
    const site = answers[6].SiteID as number;
    expect((await request(sb.baseUrl).get(`/_sandbox/merchants/${site}`).set('Authorization', `Bearer ${token}`)).status).toBe(404);
    expect((await request(sb.baseUrl).get('/v1/payments').set('Authorization', fixture)).text).toBe(theirs);
  });

  it('runs the embedded snippet as written', async () => {
    const code = block('docs/sharing.md', 'Sharing one instance', 'ts');
    const importLine = "import { startSandbox } from 'split-sandbox';";
    expect(code.startsWith(importLine)).toBe(true);
    const js = stripTypes(code.replace(importLine, ''));
    const seen: { waited?: unknown; site?: number; stopped?: boolean } = {};
    const watched = async (...args: Parameters<typeof startSandbox>) => {
      const s = await startSandbox(...args);
      const startedAt = s.clock.now();
      const create = s.merchants.create;
      s.merchants.create = async (...a) => {
        const m = await create(...a);
        seen.site = m.SiteID;
        const waitFor = m.notifications.waitFor;
        m.notifications.waitFor = async (...w) => (seen.waited = await waitFor(...w));
        return m;
      };
      const stop = s.stop;
      s.stop = async () => {
        // What the snippet left: its marketplace removed, the sandbox's own time unmoved.
        expect(s.services.store.sites.get(seen.site!)).toBeUndefined();
        expect(s.clock.now()).toBe(startedAt);
        await stop();
        seen.stopped = true;
      };
      return s;
    };
    await new AsyncFunction('startSandbox', js)(watched);
    expect(seen.waited).toMatchObject({ StatusID: 9, StatusInfo: 'Authorized', State: 'no-url' });
    expect(seen.stopped).toBe(true);
  });
});
