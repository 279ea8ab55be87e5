// docs/card-payments.md's fraud challenge with curl, run as written in bash against a sandbox: one payment held by
// the challenge e-mail and accepted, another held through the control API and rejected.
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

describe("docs/card-payments.md's fraud challenge with curl", () => {
  let sb: Sandbox;
  afterEach(() => sb?.stop());

  it('runs as written: the held payment accepted (Authorized), the other held and rejected (Cancelled, answered with code 118)', async () => {
    const auth = /export AUTH="([^"]+)"/.exec(block('docs/fixtures.md', 'Fixture credentials', 'bash'))![1]!;
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const run = await bash(block('docs/card-payments.md', 'A fraud challenge with curl', 'bash'), { API: sb.baseUrl, CARD: sb.cardBaseUrl, AUTH: auth });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const cards = (await request(sb.cardBaseUrl).get('/v1/payments').set('Authorization', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey))).body.Payments;
    expect(cards.map((p: any) => [p.MerchantTransactionID, p.Status.ID, p.Fraud?.Status ?? null])).toEqual([
      ['card-challenged-2', 3, 'Challenge'],
      ['card-challenged-1', 9, 'Challenge'],
    ]);
    expect(run.stdout).toContain('"Status":{"ID":9,"Info":"Authorized","Reasons":[]}');
    expect(run.stdout).toContain('"Status":{"ID":30,"Info":"PendingChallengeConfirmation","Reasons":[]}');
    expect(run.stdout).toContain('"Status":{"ID":3,"Info":"Cancelled","Reasons":[{"Code":118,"Info":"Challenge rejected"}]}');
  });
});
