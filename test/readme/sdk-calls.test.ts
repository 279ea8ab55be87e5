// docs/api.md's preapproval example, run as written in bash: a preapproval opened,
// charged once, listed with its payment and closed, and an exchange rate.
import { execFile } from 'node:child_process';
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

describe("docs/api.md's preapproval example", () => {
  let sb: Sandbox;
  afterEach(() => sb?.stop());

  it('runs as written: Open, a recurring payment under it, its payments, ClosedByCustomer, a rate', async () => {
    const auth = /export AUTH="([^"]+)"/.exec(block('docs/fixtures.md', 'Fixture credentials', 'bash'))![1]!;
    expect(auth).toBe(`Authorization: ${basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey)}`);
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const run = await bash(block('docs/api.md', 'Preapprovals and recurring payments', 'bash'), { API: sb.baseUrl, AUTH: auth });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // curl prints each answer with no newline after it: one JSON value after the other.
    const [opened, paid, payments, closed, rate] = run.stdout.trim().split(/(?<=\})(?=\{)/).map((l) => JSON.parse(l));
    expect(opened.Preapproval.Status).toEqual({ ID: 2, Info: 'Open', Reasons: null });
    expect(paid.Payment).toMatchObject({ MerchantTransactionID: 'subscription-1-month-2', PreapprovalID: opened.Preapproval.ID, Status: { ID: 2, Info: 'Success', Reasons: null } });
    expect(payments.Payments.map((p: { ID: number }) => p.ID)).toEqual([paid.Payment.ID]);
    expect(closed.Preapproval.Status).toEqual({ ID: 4, Info: 'ClosedByCustomer', Reasons: null });
    expect(rate).toEqual({ ExchangeRate: { From: 'EUR', To: 'USD', DateTime: '20260115100000', Rate: 1.0856 } });
  });
});
