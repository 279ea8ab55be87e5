// The README's "Getting started" and docs/cli.md's "The npm package" snippets, run as written: in bash, in a folder
// where `npx split-sandbox` finds the package as it does once installed (the README's start through
// npx, every other command through the bin npx finds), and the test file as jest runs it.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sandboxPackage from 'split-sandbox';
import { ROOT, ensureBuilt } from '../cli/process';
import { block, blocks } from './readme';
import { stripTypes } from './strip-types';

/** A port nothing listens on (taken from the system, then let go). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A folder with the package installed as npm would link it: node_modules/split-sandbox and its bin. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-guide-'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'split-sandbox'));
  symlinkSync(join('..', 'split-sandbox', 'bin', 'split-sandbox'), join(dir, 'node_modules', '.bin', 'split-sandbox'));
  return dir;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The README's `npx split-sandbox start` runs through npx, as written: npx finds the package's bin in
 * the folder and starts the sandbox under npm's wrapper, in the background (what the README warns of).
 * The commands after it run that same bin, node_modules/.bin/split-sandbox, without npm (a second of
 * a core each, npm's start and its search, to find again what the start found).
 */
const THROUGH_NPX = 'npx() { if [ "$1" = split-sandbox ] && [ "$2" != start ]; then shift; node_modules/.bin/split-sandbox "$@"; else command npx "$@"; fi; }\n';
/**
 * docs/cli.md's block, in a folder made alike: its start too runs the bin npx finds (the README's
 * start shows npx finding it), as its other commands do.
 */
const THROUGH_BIN = 'npx() { if [ "$1" = split-sandbox ]; then shift; node_modules/.bin/split-sandbox "$@"; else command npx "$@"; fi; }\n';

/**
 * Runs a script in bash in its own process group, which is ended afterwards: the script leaves what it
 * started in the background (the sandbox, the receiver) running, as it would in a terminal.
 */
function bash(prelude: string, script: string, cwd: string, groups: ChildProcess[]): Promise<Ran> {
  return new Promise((resolve) => {
    // Offline: should npx not find the package here, it fails instead of looking in the registry.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', prelude + script], { cwd, detached: true, env: { ...process.env, npm_config_offline: 'true' } });
    groups.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    // 'exit', not 'close': the background processes keep the pipes open.
    child.on('exit', (code) => setImmediate(() => resolve({ code, stdout, stderr })));
  });
}

/** What stderr says besides npm's own warnings and the sandbox's log lines (info: one per request). */
const npmNoise = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('npm warn') && !/^\d\d:\d\d:\d\d\.\d{3} info /.test(l));

describe("the README's guide, and the npm package in docs/cli.md", () => {
  const groups: ChildProcess[] = [];
  const dirs: string[] = [];
  // The two scripts run side by side from the start, each in a folder and on ports of its own: most of
  // what each spends is waiting (for npx, for the sandbox, for the provider's 2 s); each test reads its own.
  let payment: Promise<{ script: string; port: number; dir: string; ran: Ran }>;
  let npmPackage: Promise<{ install: string | undefined; dir: string; ran: Ran }>;
  beforeAll(() => {
    ensureBuilt();
    payment = (async () => {
      const script = block('README.md', 'A payment and its notification', 'bash');
      const port = await freePort();
      const dir = project();
      dirs.push(dir);
      return { script, port, dir, ran: await bash(THROUGH_NPX, script.replaceAll('9999', String(port)), dir, groups) };
    })();
    npmPackage = (async () => {
      const [install, script] = blocks('docs/cli.md', 'The npm package', 'bash');
      const dir = project();
      dirs.push(dir);
      return { install, dir, ran: await bash(THROUGH_BIN, script!, dir, groups) };
    })();
    // Read by one test each; a failure is that test's, not an unhandled rejection.
    payment.catch(() => undefined);
    npmPackage.catch(() => undefined);
  }, 120_000);
  afterAll(() => {
    for (const g of groups.splice(0)) {
      try {
        process.kill(-g.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('"A payment and its notification": the receiver prints the Authorized notification of the payment created', async () => {
    const { script, port, dir, ran } = await payment;
    // The receiver's port is the one thing changed: 9999 may be taken on the machine running the tests.
    expect(script.match(/9999/g)).toHaveLength(2);
    expect(npmNoise(ran.stderr)).toEqual([]);
    expect(ran.code).toBe(0);

    const lines = ran.stdout.split('\n').filter((l) => l.startsWith('{'));
    const created = lines.map((l) => JSON.parse(l)).find((o) => o.Payment?.Status?.ID === 1).Payment;
    expect(created).toMatchObject({ MerchantTransactionID: 'order-1', Amount: '1000', Status: { ID: 1, Info: 'Open' } });
    expect(created.RedirectURL).toMatch(/\/Home\?PaymentToken=/);
    // The receiver's line: the notification body as it was POSTed to the hook.
    const received = lines.map((l) => JSON.parse(l)).filter((o) => o.Payment?.Status?.ID === 9);
    expect(received).toEqual([expect.objectContaining({ Payment: expect.objectContaining({ ID: created.ID, Status: { ID: 9, Info: 'Authorized', Reasons: null } }) })]);
    // The wait's answer: delivered to the receiver's hook, answered 204.
    const waited = lines.map((l) => JSON.parse(l)).find((o) => o.Notification !== undefined)?.Notification;
    expect(waited).toMatchObject({ PaymentID: created.ID, StatusID: 9, State: 'delivered', Attempts: [{ URL: `http://127.0.0.1:${port}/hook`, HTTPStatus: 204 }] });
    // Both stopped as written, in this non-interactive shell (no job control): nothing answers any more.
    expect(ran.stdout).toMatch(/^split-sandbox PID \d+ at http:\/\/127\.0\.0\.1:\d+ stopped$/m);
    expect(existsSync(join(dir, '.sandbox.json'))).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', body: '{}' })).rejects.toThrow();
  }, 60_000);

  it('"A test": the test file passes as jest runs it, and fails when what it expects is not so', async () => {
    const code = block('README.md', 'A test', 'ts');
    const importLine = "import { startSandbox, type Sandbox } from 'split-sandbox';";
    expect(code.startsWith(importLine)).toBe(true);
    const js = stripTypes(code, 'cjs');

    // jest's hooks as the file registers them, run in jest's order.
    const runFile = async (pkg: typeof sandboxPackage) => {
      const before: (() => unknown)[] = [];
      const after: (() => unknown)[] = [];
      const tests: [string, () => unknown][] = [];
      const exports = {};
      const fn = new Function('require', 'exports', 'beforeAll', 'afterAll', 'test', 'expect', js);
      fn((name: string) => (name === 'split-sandbox' ? pkg : require(name)), exports, (f: () => unknown) => before.push(f), (f: () => unknown) => after.push(f),
        (name: string, f: () => unknown) => tests.push([name, f]), expect);
      expect(tests.map(([name]) => name)).toEqual(['a PayPal payment is authorized 2 s after its creation, and notified']);
      try {
        for (const f of before) await f();
        for (const [, f] of tests) await f();
      } finally {
        for (const f of after) await f();
      }
    };
    let seen: unknown;
    await runFile({
      ...sandboxPackage,
      startSandbox: async (o) => {
        const sb = await sandboxPackage.startSandbox(o);
        const { waitFor } = sb.notifications;
        sb.notifications.waitFor = async (...a) => (seen = await waitFor(...a));
        return sb;
      },
    });
    expect(seen).toMatchObject({ StatusID: 9, StatusInfo: 'Authorized', State: 'no-url' });

    // A sandbox whose clock does not move: the authorization never comes and the test fails.
    await expect(
      runFile({
        ...sandboxPackage,
        startSandbox: async (o) => {
          const sb = await sandboxPackage.startSandbox(o);
          sb.clock.advance = async () => {};
          const { waitFor } = sb.notifications;
          sb.notifications.waitFor = (f) => waitFor(f, 50);
          return sb;
        },
      }),
    ).rejects.toThrow(/no notification matching/);
  });

  it('"The npm package": start --ready-file in the background, then wait --ready-file, works as written', async () => {
    const { install, dir, ran } = await npmPackage;
    // The install line is what the folder below stands for.
    expect(install).toBe('npm install --save-dev ./split-sandbox-0.1.0.tgz');
    expect(npmNoise(ran.stderr)).toEqual([]);
    expect(ran.code).toBe(0);
    const health = JSON.parse(ran.stdout.split('\n').find((l) => l.startsWith('{'))!);
    expect(health).toMatchObject({ Status: 'ok', BaseURL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), Payments: 0 });
    expect(ran.stdout).toContain(`split-sandbox at ${health.BaseURL} is healthy\n`);
    // Stopped as written, in this non-interactive shell: the process is gone, and so is its file.
    expect(ran.stdout).toContain(`split-sandbox PID ${health.PID} at ${health.BaseURL} stopped\n`);
    expect(existsSync(join(dir, '.sandbox.json'))).toBe(false);
    await expect(fetch(`${health.BaseURL}/_sandbox/health`)).rejects.toThrow();
  }, 60_000);
});
