// docs/api.md's curl walkthrough, run as written in bash against a sandbox, top to bottom: the payment
// it follows ends PartiallyCaptured with a refund, and the "or instead" and refused calls say why.
import { execFile } from 'node:child_process';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { MARKETPLACE, START, basic } from '../helpers/world';
import { block } from './readme';

function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...env }, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("docs/api.md's curl walkthrough", () => {
  let sb: Sandbox;
  afterEach(() => sb?.stop());

  it('runs as written, from creation to refund, with the fixture credentials docs/fixtures.md gives', async () => {
    const auth = /export AUTH="([^"]+)"/.exec(block('docs/fixtures.md', 'Fixture credentials', 'bash'))![1]!;
    expect(auth).toBe(`Authorization: ${basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey)}`);
    // Nothing in the walkthrough waits for time: the manual clock keeps the run the same every time.
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const run = await bash(block('docs/api.md', 'A split payment with curl, from creation to refund', 'bash'), { API: sb.baseUrl, CARD: sb.cardBaseUrl, AUTH: auth });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    const { ID } = JSON.parse(run.stdout.split('\n')[0]!).Payment as { ID: number };
    expect(run.stdout).toContain(`${sb.baseUrl}/Home?PaymentToken=`);
    const get = (path: string) => request(sb.baseUrl).get(path).set('Authorization', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey));
    const payment = (await get(`/v1/payments/${ID}`)).body.Payment;
    expect(payment.Status).toEqual({ ID: 35, Info: 'PartiallyCaptured', Reasons: null });
    expect(payment.Splits.map((s: { CapturedAmount: string }) => s.CapturedAmount)).toEqual(['500', '']);
    const story = (await request(sb.baseUrl).get(`/_sandbox/payments/${ID}`)).body;
    expect(story.Scenario).toBe('payer-decides');
    expect(story.Refunds).toMatchObject([{ Amount: '200', Description: 'returned item' }]);
    // The second and third captures (17), the add-splits after a refund (11), the cancel (122).
    for (const code of [17, 11, 122]) expect(run.stdout).toContain(`{"Code":${code},`);
    expect(run.stdout.match(/\{"Code":17,/g)).toHaveLength(2);
    const cards = await request(sb.cardBaseUrl).get('/v1/payments').set('Authorization', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey));
    expect(cards.body.Payments.map((p: { MerchantTransactionID: string }) => p.MerchantTransactionID)).toEqual(['card-1']);
  });
});
