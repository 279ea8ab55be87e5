// `split-sandbox drift report` spawned as a process: what it prints, and its exit codes for CI.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Ran, ensureBuilt, run, runInOne } from './process';

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
  // Every report below runs in one Node process, on files written once (a process per report spent
  // most of this file's time starting Node). Some also run as real processes, which must print and
  // exit the same: a report, a failing --fail-on (exit 1) and a file it cannot read (exit 2).
  let tmp: string;
  let file: string;
  let reports: Promise<Ran[]> | undefined;
  const argvs: string[][] = [];
  beforeAll(() => {
    ensureBuilt();
    tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-drift-'));
    file = join(tmp, 'drift.json');
    writeFileSync(file, JSON.stringify({ Differences: differences }));
    writeFileSync(join(tmp, 'empty.json'), JSON.stringify({ Differences: [] }));
    writeFileSync(join(tmp, 'bad.json'), 'not json');
  }, 120_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const asked = [
    () => ['--in', file],
    () => ['--in', file, '--fail-on', 'any'],
    () => ['--in', file, '--fail-on', 'http status,missing field'],
    () => ['--in', file, '--fail-on', 'http status,type'],
    () => ['--in', join(tmp, 'empty.json'), '--fail-on', 'any'],
    () => ['--in', file, '--fail-on', 'http-status,missing-field'],
    () => ['--in', file, '--fail-on', 'http-status,type,status-path'],
    () => ['--help'],
    () => ['--in', file, '--fail-on', 'status,colour'],
    () => ['--in', join(tmp, 'none.json'), '--fail-on', 'any'],
    () => ['--in', join(tmp, 'bad.json')],
  ];
  async function report(args: string[]): Promise<Ran> {
    if (argvs.length === 0) argvs.push(...asked.map((a) => ['drift', 'report', ...a()]));
    const i = argvs.findIndex((a) => a.join('\0') === ['drift', 'report', ...args].join('\0'));
    expect(i).toBeGreaterThanOrEqual(0);
    return (await (reports ??= runInOne(argvs)))[i]!;
  }
  async function real(args: string[]): Promise<Ran> {
    const r = run(['drift', 'report', ...args]);
    const { code } = await r.exited;
    const ran = { code, out: r.stdout(), err: r.stderr() };
    expect(ran).toEqual(await report(args));
    return ran;
  }

  it('prints each difference with its kind, route, field, both values, count and call', async () => {
    const { code, out } = await real(['--in', file]);
    expect(code).toBe(0);
    expect(out).toContain('reason: POST /v1/payments/{id}/capture  Payment.Status.Reasons\n  upstream [200]\n  shadow   [201]\n  seen 2 times, first on POST /v1/payments/3005042/capture (journal entry 12) at 20260115100000');
    expect(out).toContain('missing field: GET /v1/payments/{id}  Payment.Fraud\n  upstream null\n  shadow   (absent)\n  seen 5 times');
    expect(out).toContain('2 differences: 1 reason, 1 missing field');
  });

  it('exits 1 when a kind asked for is present, 0 when none is', async () => {
    expect((await real(['--in', file, '--fail-on', 'any'])).code).toBe(1);
    expect((await report(['--in', file, '--fail-on', 'http status,missing field'])).code).toBe(1);
    expect((await report(['--in', file, '--fail-on', 'http status,type'])).code).toBe(0);
    const empty = await report(['--in', join(tmp, 'empty.json'), '--fail-on', 'any']);
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
    const missing = await real(['--in', join(tmp, 'none.json'), '--fail-on', 'any']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot read .*none\.json: no such file/);
    const bad = await report(['--in', join(tmp, 'bad.json')]);
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
