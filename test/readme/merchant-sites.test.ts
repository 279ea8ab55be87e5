// docs/api.md's "Merchant sites" example, run as written in bash: a site made for marketplace 30201,
// then the marketplace's list with it.
import { execFile } from 'node:child_process';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { LINKED, MARKETPLACE, START } from '../helpers/world';
import { block } from './readme';

function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...env }, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("docs/api.md's merchant sites example", () => {
  let sb: Sandbox;
  afterEach(() => sb?.stop());

  it('runs as written: a new site with its own key, then the marketplace and its sites', async () => {
    const auth = /export AUTH="([^"]+)"/.exec(block('docs/fixtures.md', 'Fixture credentials', 'bash'))![1]!;
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const run = await bash(block('docs/api.md', 'Merchant sites', 'bash'), { API: sb.baseUrl, AUTH: auth });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [made, list] = run.stdout.trim().split(/(?<=\})(?=\{)/).map((l) => JSON.parse(l));
    expect(made.MerchantSite).toMatchObject({ MerchantID: MARKETPLACE.SiteID, URL: 'https://seller.example', Active: true, Alias: 'Seller shop', Details: { Name: 'Seller B.V.', City: 'Amsterdam' } });
    expect(list.MerchantSites.map((s: { ID: number }) => s.ID)).toEqual([MARKETPLACE.SiteID, ...LINKED, made.MerchantSite.ID]);
    expect(made.MerchantSite.ApiKey).toMatch(/^[A-Za-z0-9+/]{40}$/);
  });
});
