// The CI recipes of examples/ci, run as their CI would run them: each job's commands as written,
// read from the YAML, against the image (a service container) and the npm package. What the test
// stands in for: the runner (this machine, Node 20), `actions/*` steps (the project is a folder
// with the stand-in suite below), the registry (the service's image is SANDBOX_IMAGE). On a shared
// machine the published host ports 8080/8081 become free ones, in the ports and in the commands.
// Skipped, saying why, where there is no engine or no image (.ci/run runs them).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { type Engine, describeOnEngine, startEngine } from '../helpers/container-engine';

const ROOT = resolve(__dirname, '..', '..');
const RECIPES = join(ROOT, 'examples', 'ci');


/** The project's own suite in the recipes (`npm test`): what an integration does with the sandbox. */
const SUITE = `'use strict';
const base = process.env.PAYMENTS_API_URL;
const auth = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
const control = process.env.SANDBOX_CONTROL_TOKEN ? { Authorization: 'Bearer ' + process.env.SANDBOX_CONTROL_TOKEN } : {};
const json = { 'Content-Type': 'application/json' };
async function create(mtid) {
  const res = await fetch(base + '/v1/payments', {
    method: 'POST',
    headers: { Authorization: auth, ...json },
    body: JSON.stringify({ Payment: { MerchantTransactionID: mtid, Amount: '1000', Currency: 'EUR', MethodID: 42,
      ReturnURL: 'https://shop.example/return', Splits: [{ SiteID: 30202, Amount: '1000', MerchantTransactionID: mtid + '-a' }] } }),
  });
  if (res.status !== 201) throw new Error('create answered ' + res.status + ': ' + (await res.text()));
  const p = (await res.json()).Payment;
  if (!p.RedirectURL.startsWith(base + '/Home?PaymentToken=')) throw new Error('RedirectURL ' + p.RedirectURL + ' is not on ' + base);
  return p;
}
async function statusOf(id) {
  return (await (await fetch(base + '/v1/payments/' + id, { headers: { Authorization: auth } })).json()).Payment.Status.Info;
}
async function main() {
  // A payer opens the page and authorizes (an open page holds the scenario until the payer acts).
  const a = await create('ci-page');
  const page = await fetch(a.RedirectURL);
  const html = await page.text();
  const form = /action="([^"]+authorize)"><input type="hidden" name="PaymentToken" value="([^"]+)"/.exec(html);
  if (page.status !== 200 || !form) throw new Error('the payment page answered ' + page.status);
  const pressed = await fetch(new URL(form[1], a.RedirectURL), { method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'PaymentToken=' + encodeURIComponent(form[2]) });
  if (pressed.status !== 303 || (await statusOf(a.ID)) !== 'Authorized') throw new Error('the page did not authorize payment ' + a.ID);
  // Time moves on the control API: the scenario authorizes another.
  const b = await create('ci-clock');
  const advanced = await fetch(base + '/_sandbox/clock/advance', { method: 'POST', headers: { ...control, ...json }, body: '{"Seconds":2}' });
  if (advanced.status !== 200) throw new Error('clock/advance answered ' + advanced.status + ': ' + (await advanced.text()));
  if ((await statusOf(b.ID)) !== 'Authorized') throw new Error('payment ' + b.ID + ' is not Authorized after clock/advance');
  console.log('suite: payment ' + a.ID + ' authorized on its page at ' + a.RedirectURL.split('?')[0] + ', payment ' + b.ID + ' by clock/advance');
}
main().catch((e) => { console.error('suite: ' + e.message); process.exit(1); });
`;

/** A project folder as `actions/checkout` leaves it: package.json (+ lock) and the suite. */
function project(devDependencies: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-ci-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', private: true, scripts: { test: 'node suite.cjs' }, devDependencies }, null, 2));
  writeFileSync(join(dir, 'suite.cjs'), SUITE);
  // The lock a project commits; without installing (that is the recipe's own `npm ci`).
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore', timeout: 300_000 });
  return dir;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** One command of a job, as the runner runs it (GitHub: `bash -e {0}` with pipefail; GitLab: each line of the script). */
function run(command: string, cwd: string, env: Record<string, string>, wrap: (argv: string[]) => string[] = (a) => a): string {
  const argv = wrap(['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c', command]);
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) throw new Error(`\`${command}\` exited ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const stringsOf = (o: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, String(v)]));

describeOnEngine('CI recipes (examples/ci), their commands as written', () => {
  let engine: Engine;
  const made: string[] = [];
  const containers: string[] = [];
  const networks: string[] = [];

  beforeAll(async () => {
    engine = await startEngine();
  }, 60_000);

  afterAll(async () => {
    for (const c of containers) quietly(['rm', '-f', c]);
    for (const n of networks) quietly(['network', 'rm', '-f', n]);
    for (const d of made) rmSync(d, { recursive: true, force: true });
    await engine?.stop();
  }, 120_000);

  /** Cleanups that must not throw. */
  const quietly = (args: string[]) => {
    try {
      engine?.cli(args, 60_000);
    } catch {
      // Already gone.
    }
  };

  /** Polls the service's HEALTHCHECK as the runner does before the first step (Podman here has no timer to run it). */
  function untilHealthy(name: string): void {
    const deadline = Date.now() + 90_000;
    for (;;) {
      let status = '';
      try {
        engine.cli(['healthcheck', 'run', name], 30_000);
        status = 'healthy';
      } catch {
        try {
          status = engine.cli(['inspect', '--format', '{{.State.Health.Status}}', name], 30_000).trim();
        } catch {
          // Not yet.
        }
      }
      if (status === 'healthy') return;
      if (Date.now() > deadline) throw new Error(`${name} did not become healthy: ${engine.cli(['logs', name])}`);
      execFileSync('sleep', ['1']);
    }
  }

  test('GitHub Actions, with-image: the image as a service container with its health check', async () => {
    const job = parse(readFileSync(join(RECIPES, 'github-actions.yml'), 'utf8')).jobs['with-image'];
    const service = job.services.sandbox;
    const ports = new Map<string, string>();
    for (const p of service.ports as string[]) ports.set(p.split(':')[0]!, String(await freePort()));
    const local = (s: string) => s.replace(/localhost:(\d+)/g, (m, port: string) => (ports.has(port) ? `localhost:${ports.get(port)}` : m));
    const name = `split-sandbox-gha-${process.pid}`;
    containers.push(name);
    engine.cli([
      'run', '-d', '--name', name,
      ...(service.ports as string[]).flatMap((p) => ['-p', `${ports.get(p.split(':')[0]!)}:${p.split(':')[1]}`]),
      ...Object.entries(stringsOf(service.env)).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      ...String(service.options).split(/\s+/).filter(Boolean),
      process.env.SANDBOX_IMAGE!,
    ]);
    untilHealthy(name);
    const dir = project();
    made.push(dir);
    const jobEnv = Object.fromEntries(Object.entries(stringsOf(job.env)).map(([k, v]) => [k, local(v)]));
    const outputs: string[] = [];
    for (const step of job.steps as { uses?: string; run?: string; env?: Record<string, unknown> }[]) {
      if (step.run === undefined) continue; // actions/checkout, actions/setup-node: the folder and this Node stand in
      outputs.push(run(local(step.run), dir, { ...jobEnv, ...stringsOf(step.env) }));
    }
    const health = JSON.parse(outputs[0]!);
    // CardBaseURL: here the container's own, as the host ports were moved (the sandbox cannot know the
    // card's mapped port); with the recipe's 8080:8080 and 8081:8081 on a runner, http://localhost:8081.
    expect(health).toMatchObject({ Status: 'ok', BaseURL: `http://localhost:${ports.get('8080')}`, CardBaseURL: 'http://127.0.0.1:8081' });
    expect(outputs.join('\n')).toContain(`on its page at http://localhost:${ports.get('8080')}/Home, payment`);
  }, 300_000);

  test('GitHub Actions, with-package: start --ready-file in the background, then wait --ready-file', async () => {
    const job = parse(readFileSync(join(RECIPES, 'github-actions.yml'), 'utf8')).jobs['with-package'];
    const waitHelp = spawnSync(process.execPath, [join(ROOT, 'bin', 'split-sandbox'), 'wait', '--help'], { encoding: 'utf8' }).stdout;
    if (!/^\s+--ready-file\b/m.test(waitHelp)) {
      console.warn('with-package recipe skipped: this build of `split-sandbox wait` has no --ready-file yet');
      return;
    }
    const packDir = mkdtempSync(join(tmpdir(), 'split-sandbox-pack-'));
    made.push(packDir);
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 }))[0];
    const dir = project({ 'split-sandbox': `file:${join(packDir, packed.filename)}` });
    made.push(dir);
    const outputs: string[] = [];
    try {
      for (const step of job.steps as { uses?: string; run?: string; if?: string; env?: Record<string, unknown> }[]) {
        if (step.run === undefined || step.if === 'failure()') continue;
        outputs.push(run(step.run, dir, stringsOf(step.env)));
      }
      const ready = JSON.parse(readFileSync(join(dir, '.sandbox.json'), 'utf8'));
      expect(outputs.join('\n')).toContain(`on its page at ${ready.BaseURL}/Home, payment`);
    } finally {
      // The background start of the recipe: its PID is in the ready file (a clean stop removes the file).
      const file = join(dir, '.sandbox.json');
      if (existsSync(file)) process.kill(JSON.parse(readFileSync(file, 'utf8')).PID, 'SIGTERM');
    }
  }, 1_200_000);

  test('GitLab CI: the image as a service, reached by its alias from the job', async () => {
    const doc = parse(readFileSync(join(RECIPES, 'gitlab-ci.yml'), 'utf8'));
    const job = doc.test;
    const service = job.services[0];
    // The job's network, with the service on it under its alias.
    const network = `split-sandbox-gl-${process.pid}`;
    const name = `split-sandbox-gl-${process.pid}`;
    engine.cli(['network', 'create', network]);
    networks.push(network);
    containers.push(name);
    engine.cli([
      'run', '-d', '--name', name, '--network', network, '--network-alias', service.alias,
      ...Object.entries(stringsOf(service.variables)).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      process.env.SANDBOX_IMAGE!,
    ]);
    const ip = engine.cli(['inspect', '--format', `{{(index .NetworkSettings.Networks "${network}").IPAddress}}`, name]).trim();
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // The job's container resolves the alias: here a private /etc/hosts for the script's commands only.
    const dir = project();
    made.push(dir);
    const hosts = join(dir, '.hosts');
    writeFileSync(hosts, `${readFileSync('/etc/hosts', 'utf8')}\n${ip} ${service.alias}\n`);
    const inJob = (argv: string[]) => ['unshare', '--mount', 'sh', '-c', `mount --bind "$0" /etc/hosts && exec "$@"`, hosts, ...argv];
    const outputs = (job.script as string[]).map((line) => run(line, dir, stringsOf(job.variables), inJob));
    expect(JSON.parse(outputs[0]!.trim().split('\n').pop()!)).toMatchObject({ Status: 'ok', BaseURL: 'http://sandbox:8080', CardBaseURL: 'http://sandbox:8081' });
    expect(outputs.join('\n')).toContain('on its page at http://sandbox:8080/Home, payment');
  }, 300_000);
});
