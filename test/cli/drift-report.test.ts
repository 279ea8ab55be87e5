// `split-sandbox drift report` spawned as a process: what it prints, and its exit codes for CI.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, run } from './process';

const differences = [
  {
    Kind: 'reason',
    Route: 'POST /v1/payments/{id}/capture',
    Field: 'Payment.Status.Reasons',
    Upstream: [200],
    Shadow: [201],
    Count: 2,
    Call: { Method: 'POST', Path: '/v1/payments/3005042/capture', JournalID: 12, At: '20260115100000' },
  },
  { Kind: 'missing field', Route: 'GET /v1/payments/{id}', Field: 'Payment.Fraud', Upstream: null, Count: 5, Call: { Method: 'GET', Path: '/v1/payments/3005042', JournalID: null, At: '' } },
];

describe('split-sandbox drift report (built code)', () => {
  let tmp: string;
  let file: string;
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-drift-'));
    file = join(tmp, 'drift.json');
    writeFileSync(file, JSON.stringify({ Differences: differences }));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  async function report(args: string[]) {
    const r = run(['drift', 'report', ...args]);
    const { code } = await r.exited;
    return { code, out: r.stdout(), err: r.stderr() };
  }

  it('prints each difference with its kind, route, field, both values, count and call', async () => {
    const { code, out } = await report(['--in', file]);
    expect(code).toBe(0);
    expect(out).toContain('reason: POST /v1/payments/{id}/capture  Payment.Status.Reasons\n  upstream [200]\n  shadow   [201]\n  seen 2 times, first on POST /v1/payments/3005042/capture (journal entry 12) at 20260115100000');
    expect(out).toContain('missing field: GET /v1/payments/{id}  Payment.Fraud\n  upstream null\n  shadow   (absent)\n  seen 5 times');
    expect(out).toContain('2 differences: 1 reason, 1 missing field');
  });

  it('exits 1 when a kind asked for is present, 0 when none is', async () => {
    expect((await report(['--in', file, '--fail-on', 'any'])).code).toBe(1);
    expect((await report(['--in', file, '--fail-on', 'http status,missing field'])).code).toBe(1);
    expect((await report(['--in', file, '--fail-on', 'http status,type'])).code).toBe(0);
    writeFileSync(file, JSON.stringify({ Differences: [] }));
    const empty = await report(['--in', file, '--fail-on', 'any']);
    expect(empty.code).toBe(0);
    expect(empty.out).toMatch(/No differences/);
  });

  it('takes the kinds with hyphens, unquoted, as the help shows', async () => {
    expect((await report(['--in', file, '--fail-on', 'http-status,missing-field'])).code).toBe(1);
    expect((await report(['--in', file, '--fail-on', 'http-status,type,status-path'])).code).toBe(0);
    expect((await report(['--help'])).out).toContain('--fail-on http-status,status,reason,missing-field,type');
  });

  it('exits 2 with a clear message on an unknown kind or a file it cannot read', async () => {
    const kind = await report(['--in', file, '--fail-on', 'status,colour']);
    expect(kind.code).toBe(2);
    expect(kind.err).toMatch(/unknown kind "colour"/);
    const missing = await report(['--in', join(tmp, 'none.json'), '--fail-on', 'any']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot read .*none\.json: no such file/);
    writeFileSync(file, 'not json');
    const bad = await report(['--in', file]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/is not JSON/);
  });

  it('explains itself in --help, with examples', async () => {
    const { code, out } = await report(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/--fail-on <kinds>/);
    expect(out).toMatch(/Examples:\n\s+\$ split-sandbox drift report/);
  });
});
