// docs/card-payments.md's disputed card payment with curl, run as written in bash against a sandbox: the payment
// ends Captured with a refund taken from its capture and a lost dispute; a payout and a cancelled token.
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

describe("docs/card-payments.md's disputed card payment with curl", () => {
  let sb: Sandbox;
  afterEach(() => sb?.stop());

  it('runs as written: captured, refunded from its capture, disputed and lost; a payout; a token made and cancelled', async () => {
    const auth = /export AUTH="([^"]+)"/.exec(block('docs/fixtures.md', 'Fixture credentials', 'bash'))![1]!;
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const run = await bash(block('docs/card-payments.md', 'A disputed card payment with curl', 'bash'), { API: sb.baseUrl, CARD: sb.cardBaseUrl, AUTH: auth });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

    const cards = (await request(sb.cardBaseUrl).get('/v1/payments').set('Authorization', AUTH)).body.Payments;
    expect(cards.map((p: { MerchantTransactionID: string }) => p.MerchantTransactionID)).toEqual(['card-disputed-1']);
    const id = cards[0].ID;
    const view = (await request(sb.baseUrl).get(`/_sandbox/payments/${id}`)).body;
    expect(view.Payment.Status.ID).toBe(11);
    expect(view.Refunds).toMatchObject([{ Amount: '1000', Status: { ID: 2 } }]);
    expect(view.Disputes).toMatchObject([{ PaymentID: id, Amount: '9000', Status: { ID: 24, Info: 'DisputeLost' } }]);
    const refund = (await request(sb.cardBaseUrl).get(`/v1/payments/${id}/refunds`).set('Authorization', AUTH)).body.Refunds[0];
    expect(refund.CaptureID).toBe(view.Captures[0].ID);
    expect(run.stdout).toContain('"Status":{"ID":1,"Info":"Open","Reasons":null}');
    expect(run.stdout).toContain('"Status":{"ID":3,"Info":"Canceled","Reasons":[]}');
    const payouts = (await request(sb.cardBaseUrl).get('/v1/payouts').set('Authorization', AUTH)).body.Payouts;
    expect(payouts).toMatchObject([{ MerchantTransactionID: 'payout-1', Status: { ID: 2 } }]);
  });
});
