// README's drift block and docs/drift.md's "Running it" block and embedded snippet, run as written: the
// example upstream is a sandbox started here, the merchants file a real one, ports free ones. A
// payment follows docs/api.md's curl walkthrough through the proxy; the report file and `drift report`'s
// exit codes are what the blocks say.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Sandbox, startDrift, startSandbox } from 'split-sandbox';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, START, basic } from '../helpers/world';
import { BIN, appears, ensureBuilt } from '../cli/process';
import { ROOT, block } from './readme';

const EXAMPLE_API = 'https://paytest.example/api';
const EXAMPLE_CARD = 'https://securetest.example';
const EXAMPLE_NOTIFY = 'http://127.0.0.1:3000/payments/notify';
const AUTH = `Authorization: ${basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey)}`;
// `npx split-sandbox …` and `split-sandbox …` as the package's bin: the built code of this checkout.
const PRELUDE = `npx() { if [ "$1" = split-sandbox ]; then shift; node "$BIN" "$@"; else command npx "$@"; fi; }\nsplit-sandbox() { node "$BIN" "$@"; }\n`;

/** `text` with `from` replaced by `to`; the example must be there, or the block has changed under the test. */
function swap(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the block no longer holds ${from}:\n${text}`);
  return text.split(from).join(to);
}

function bash(script: string, cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-euo', 'pipefail', '-c', PRELUDE + script], { cwd, env: { ...process.env, BIN, ...env }, timeout: 90_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A merchants file made from fixtures/merchants.json as docs/drift.md says: the real account, its key and linked sites. */
function myAccount(dir: string): void {
  const fixture = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'merchants.json'), 'utf8'));
  const { SiteID, APIKey, Name, LinkedSites } = fixture.Merchants[0];
  writeFileSync(join(dir, 'my-account.json'), JSON.stringify({ Merchants: [{ SiteID, APIKey, Name, LinkedSites }] }));
}

describe('the drift blocks of README.md and docs/drift.md, run', () => {
  let tmp: string;
  let upstream: Sandbox;
  let integration: Receiver;
  let proxy: ChildProcess | null = null;

  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'readme-drift-'));
    myAccount(tmp);
    upstream = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    integration = await startReceiver();
  });
  afterEach(async () => {
    if (proxy && proxy.exitCode === null && proxy.signalCode === null) process.kill(-proxy.pid!, 'SIGKILL');
    proxy = null;
    await upstream.stop();
    await integration.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * The proxy command, its examples swapped for this test's, started in the background; resolves with
   * its addresses once its ready file is there (written once both listeners are up). `wait` and `stop`
   * on a proxy's ready file, as processes, are test/cli/drift-proxy.test.ts's.
   */
  async function startProxy(command: string, ports: (c: string) => string): Promise<{ api: string; card: string }> {
    let c = swap(swap(swap(command, EXAMPLE_API, upstream.baseUrl), EXAMPLE_CARD, upstream.cardBaseUrl), EXAMPLE_NOTIFY, integration.url);
    c = `${ports(c)} --ready-file ready.json`;
    proxy = spawn('bash', ['-euo', 'pipefail', '-c', PRELUDE + c], { cwd: tmp, env: { ...process.env, BIN, DRIFT_TOKEN: 'drift-secret' }, stdio: 'ignore', detached: true });
    await appears(join(tmp, 'ready.json'), { child: proxy, stderr: () => '(the proxy\'s output is not kept)' });
    const ready = JSON.parse(readFileSync(join(tmp, 'ready.json'), 'utf8')) as { BaseURL: string; CardBaseURL: string };
    // The real account's notification URL is the proxy's hook.
    await request(upstream.baseUrl).patch(`/_sandbox/merchants/${MARKETPLACE.SiteID}`).send({ NotificationURL: `${ready.BaseURL}/_drift/notify` }).expect(200);
    return { api: ready.BaseURL, card: ready.CardBaseURL };
  }

  /** docs/api.md's curl walkthrough through the proxy; its provider events (the control API) go to the upstream, as they would to the real service's test tools. */
  async function walkthrough(at: { api: string; card: string }): Promise<void> {
    const script = swap(block('docs/api.md', 'A split payment with curl, from creation to refund', 'bash'), '$API/_sandbox/', '$UPSTREAM/_sandbox/');
    const run = await bash(script, tmp, { API: at.api, CARD: at.card, AUTH, UPSTREAM: upstream.baseUrl });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    await upstream.scheduler.worker.deliverDue();
    // What the proxy reports as it runs, with the token the block gives it.
    const live = await fetch(`${at.api}/_sandbox/drift`, { headers: { Authorization: 'Bearer drift-secret' } });
    expect(live.status).toBe(200);
    expect((await fetch(`${at.api}/_sandbox/drift`)).status).toBe(401);
    expect(integration.received.length).toBeGreaterThan(0);
  }

  /** Stops the proxy as `stop` does, with SIGTERM to the PID of its ready file; it ends cleanly, its ready file removed. */
  async function stopProxy(): Promise<void> {
    const running = proxy!;
    const ended = new Promise<number | null>((resolve) => (running.exitCode !== null || running.signalCode !== null ? resolve(running.exitCode) : running.once('exit', (code) => resolve(code))));
    process.kill((JSON.parse(readFileSync(join(tmp, 'ready.json'), 'utf8')) as { PID: number }).PID, 'SIGTERM');
    expect(await ended).toBe(0);
    expect(existsSync(join(tmp, 'ready.json'))).toBe(false);
  }

  const report = () => JSON.parse(readFileSync(join(tmp, 'drift.json'), 'utf8')) as { Differences: { Kind: string }[] };

  /** The `drift report` line as written, on a report file with one difference of `kind` (none when null): its exit code. */
  async function exitOn(line: string, kind: string | null): Promise<number> {
    const Differences = kind === null ? [] : [{ Kind: kind, Route: 'GET /v1/payments/{id}', Field: 'Payment.Status.ID', Upstream: 9, Shadow: 35, Count: 1, Call: { Method: 'GET', Path: '/v1/payments/1', JournalID: 1, At: '' } }];
    writeFileSync(join(tmp, 'drift.json'), JSON.stringify({ Differences }));
    const run = await bash(line, tmp);
    expect(run.stderr).toBe('');
    return run.code;
  }

  /**
   * The `drift report` line's exit code on a report file with one difference of each kind (none for
   * null), for many kinds at once: the arguments bash makes of the line as written, given in turn to
   * the built CLI in one Node process (a process per kind spent most of this file's time starting
   * Node). Each line also runs as a process of its own, passing on the run's file (passesOnTheRun)
   * and failing through exitOn.
   */
  async function exitCodes(line: string, kinds: (string | null)[]): Promise<[string | null, number, string][]> {
    const args = await bash(line.replace(/^(npx )?split-sandbox /, 'printf "%s\\0" '), tmp);
    expect(args.code).toBe(0);
    const argv = args.stdout.split('\0').slice(0, -1);
    expect(argv.slice(0, 2)).toEqual(['drift', 'report']);
    const cases = kinds.map((kind) => ({ kind, report: JSON.stringify({ Differences: kind === null ? [] : [{ Kind: kind, Route: 'GET /v1/payments/{id}', Field: 'Payment.Status.ID', Upstream: 9, Shadow: 35, Count: 1, Call: { Method: 'GET', Path: '/v1/payments/1', JournalID: 1, At: '' } }] }) }));
    writeFileSync(join(tmp, 'cases.json'), JSON.stringify({ argv, cases }));
    const script = `
      const fs = require('node:fs');
      const { run } = require(${JSON.stringify(join(ROOT, 'dist', 'cli', 'program.js'))});
      const { argv, cases } = JSON.parse(fs.readFileSync('cases.json', 'utf8'));
      process.stdout.setMaxListeners(0);
      process.stderr.setMaxListeners(0);
      (async () => {
        const results = [];
        const [out, err] = [process.stdout.write, process.stderr.write];
        for (const { kind, report } of cases) {
          fs.writeFileSync('drift.json', report);
          let stderr = '';
          process.stdout.write = () => true;
          process.stderr.write = (chunk) => ((stderr += chunk), true);
          process.exitCode = undefined;
          try {
            await run(['node', 'split-sandbox', ...argv]);
          } finally {
            [process.stdout.write, process.stderr.write] = [out, err];
          }
          results.push([kind, process.exitCode ?? 0, stderr]);
        }
        process.exitCode = 0;
        fs.writeFileSync('results.json', JSON.stringify(results));
      })();`;
    const ran = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, ['-e', script], { cwd: tmp, timeout: 90_000 }, (err, _stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr })),
    );
    expect(ran).toEqual({ code: 0, stderr: '' });
    return JSON.parse(readFileSync(join(tmp, 'results.json'), 'utf8'));
  }

  /** The line as written on the run's own file: it prints that there is nothing, and passes. */
  async function passesOnTheRun(line: string): Promise<void> {
    const run = await bash(line, tmp);
    expect(run.stdout).toContain('No differences');
    expect(run.code).toBe(0);
  }

  it("README's block: the proxy as written, a payment through it, no difference, and drift report's exit codes", async () => {
    const text = block('README.md', 'Is the sandbox right for my integration?', 'bash');
    const lines = text.split('\n');
    const comment = lines.findIndex((l) => l.startsWith('#'));
    expect(comment).toBeGreaterThan(0);
    // Without --port the proxy takes 8080 and 8081, as the comment says; here, free ones.
    expect(lines[comment]).toContain('http://127.0.0.1:8080 (API) and :8081 (card API)');
    const at = await startProxy(lines.slice(0, comment).join('\n'), (c) => `${c} --port 0 --card-port 0`);
    await walkthrough(at);
    await stopProxy();
    expect(report()).toEqual({ Differences: [] });
    const reportLine = lines.slice(comment + 1).join('\n');
    expect(reportLine).toMatch(/drift report --in drift\.json --fail-on /);
    await passesOnTheRun(reportLine);
    // As a process, failing (passing, it just did); then every kind.
    expect(await exitOn(reportLine, 'http status')).toBe(1);
    const failing = ['http status', 'status', 'reason', 'missing field', 'type', 'status path', 'notification'];
    const passing = ['extra field', 'null', 'value', 'notification order', null];
    expect(await exitCodes(reportLine, [...failing, ...passing])).toEqual([...failing.map((k) => [k, 1, '']), ...passing.map((k) => [k, 0, ''])]);
  }, 180_000);

  it('docs/drift.md\'s "Running it" block: the proxy as written, a payment through it, no difference, no story', async () => {
    const text = block('docs/drift.md', 'Running it', 'bash');
    const at = await startProxy(text, (c) => swap(c, '--port 8080 --card-port 8081', '--port 0 --card-port 0'));
    await walkthrough(at);
    await stopProxy();
    expect(report()).toEqual({ Differences: [] });
    // --stories: written on stop, only for payments that differed.
    expect(readdirSync(join(tmp, 'drift-stories'))).toEqual([]);
    const ci = block('docs/drift.md', 'In CI: `drift report --fail-on`', 'bash').split('\n');
    for (const line of ci) await passesOnTheRun(line);
    // The plain line never fails; `any` fails on every kind; the lists on theirs, quoted or hyphenated.
    expect(ci).toHaveLength(4);
    expect(await exitOn(ci[0]!, 'status')).toBe(0);
    expect(await exitOn(ci[1]!, 'value')).toBe(1);
    for (const line of ci.slice(2)) {
      // As a process, failing (passing, it did on the run's file); then every kind.
      expect(await exitOn(line, 'http status')).toBe(1);
      const failing = ['http status', 'status', 'reason', 'missing field', 'type'];
      const passing = ['value', 'extra field', 'status path'];
      expect(await exitCodes(line, [...failing, ...passing])).toEqual([...failing.map((k) => [k, 1, '']), ...passing.map((k) => [k, 0, ''])]);
    }
  }, 180_000);

  it("docs/drift.md's embedded snippet runs as written", async () => {
    let snippet = block('docs/drift.md', 'Running it', 'ts');
    snippet = swap(swap(swap(snippet, `'${EXAMPLE_API}'`, 'upstream.baseUrl'), `'${EXAMPLE_CARD}'`, 'upstream.cardBaseUrl'), "'my-account.json'", 'merchants');
    snippet = swap(snippet, "import { startDrift } from 'split-sandbox';\n", '');
    // The integration's part: one payment, as the walkthrough begins.
    snippet = swap(
      snippet,
      '// … point the integration at drift.apiUrl and drift.cardUrl, run it …',
      "await request(drift.apiUrl).post('/v1/payments').set('Authorization', auth).send(payment).expect(201);",
    );
    const logged: unknown[] = [];
    const console = { log: (v: unknown) => logged.push(v) };
    const body = { Payment: { MerchantTransactionID: 'order-1', Amount: '1000', Currency: 'EUR', MethodID: 42, ReturnURL: 'https://shop.example/return', Splits: [{ SiteID: 30202, Amount: '1000', MerchantTransactionID: 'order-1-a' }] } };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
    await new AsyncFunction('startDrift', 'upstream', 'merchants', 'request', 'auth', 'payment', 'console', snippet)(
      startDrift,
      upstream,
      join(tmp, 'my-account.json'),
      request,
      basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey),
      body,
      console,
    );
    expect(logged).toEqual([[], {}]);
  }, 60_000);
});
