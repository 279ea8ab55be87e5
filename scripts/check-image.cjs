'use strict';
// Checks the container image as CI and QA use it: built once from the Dockerfile, then run with ports
// published on loopback. Health on the published port, a payment created with the fixture
// credentials, RedirectURL on the published address (SANDBOX_PUBLIC_URL), the control API through
// SANDBOX_CONTROL_TOKEN, refused by default and opened by SANDBOX_CONTROL_FROM=private, the image's
// HEALTHCHECK, a non-root process, data kept in the /data volume, a clean stop on SIGTERM.
// Every step has a time limit; the containers, the volume and the image it made are removed.
// `npm run check:image`; .ci/run runs it after the tests. With ../shared/container beside the
// repository (podman, see its README) it builds and runs with podman; otherwise with `docker`.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TOOLS = process.env.SANDBOX_CONTAINER_TOOLS || path.resolve(ROOT, '..', 'shared', 'container');
const PODMAN = path.join(TOOLS, 'podman.sh');
const usePodman = fs.existsSync(PODMAN);
const NAME = `split-sandbox-check-${process.pid}`;
/** `--keep-image <tag>`: the image built here stays, under that tag, for the tests that run it next (.ci/run removes it). */
const keepAt = process.argv.indexOf('--keep-image');
const KEEP = keepAt === -1 ? null : process.argv[keepAt + 1];
const IMAGE = `localhost/split-sandbox:check-${process.pid}`;
const VOLUME = `${NAME}-data`;
const TOKEN = 'ci-control-token';
const AUTH = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
/** SIGTERM to exit: the sandbox itself stops within a second; the rest is the engine's own work. */
const STOP_LIMIT_MS = 3000;

const step = (what) => console.log(`check-image: ${what}`);
function check(ok, what) {
  if (!ok) throw new Error(what);
}

/** The container engine, with a time limit. */
function engine(args, timeout = 120_000, opts = {}) {
  const [cmd, ...pre] = usePodman ? [PODMAN] : ['docker'];
  return execFileSync(cmd, [...pre, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout, cwd: ROOT, ...opts });
}

function quietly(args) {
  try {
    engine(args, 60_000);
  } catch {
    // Already gone.
  }
}

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

async function call(method, url, { auth, token, body } = {}) {
  const headers = {};
  if (auth) headers.Authorization = AUTH;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body && JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Starts a container of the image with ports published on loopback; resolves once it is healthy. */
async function start(suffix, env) {
  const api = await freePort();
  const card = await freePort();
  const name = `${NAME}-${suffix}`;
  const envArgs = Object.entries(env(api, card)).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  engine(['run', '-d', '--name', name, '-p', `127.0.0.1:${api}:8080`, '-p', `127.0.0.1:${card}:8081`, '-v', `${VOLUME}:/data`, ...envArgs, IMAGE], 120_000);
  const base = `http://127.0.0.1:${api}`;
  // The sandbox's own wait command, from the host, as a CI step would.
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'bin', 'split-sandbox'), 'wait', '--base-url', base, '--timeout', '60s'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 90_000,
    });
  } catch (e) {
    let logs = '';
    try {
      logs = engine(['logs', name], 30_000);
    } catch {
      // No logs either.
    }
    throw new Error(`${name} did not become healthy: ${e.stderr || e.message}\n${logs}`);
  }
  return { name, base, card: `http://127.0.0.1:${card}` };
}

/** SIGTERM through the engine; the time it took and the exit code. */
function stop(name) {
  const t0 = Date.now();
  engine(['stop', '-t', '10', name], 60_000);
  const ms = Date.now() - t0;
  const code = Number(engine(['inspect', '--format', '{{.State.ExitCode}}', name], 30_000).trim());
  return { ms, code };
}

async function main() {
  const started = Date.now();
  try {
    if (usePodman && fs.existsSync(path.join(TOOLS, 'debian-base.sh'))) {
      step('the debian:trixie-slim base image (debian-base.sh)');
      execFileSync(path.join(TOOLS, 'debian-base.sh'), [], { stdio: 'inherit', timeout: 900_000 });
    }
    step(`building ${IMAGE} (once)`);
    const t0 = Date.now();
    engine(['build', ...(usePodman ? ['--format', 'docker'] : []), '-t', IMAGE, '.'], 2_400_000, { stdio: ['ignore', 'ignore', 'pipe'] });
    const bytes = Number(engine(['image', 'inspect', '--format', '{{.Size}}', IMAGE], 30_000).trim());
    step(`built in ${((Date.now() - t0) / 1000).toFixed(0)} s; ${(bytes / 1e6).toFixed(0)} MB`);

    // 1. As a CI job runs it: the published address and a control token.
    const a = await start('token', (api, card) => ({
      SANDBOX_PUBLIC_URL: `http://127.0.0.1:${api}`,
      SANDBOX_PUBLIC_CARD_URL: `http://127.0.0.1:${card}`,
      SANDBOX_CONTROL_TOKEN: TOKEN,
    }));
    step(`healthy on ${a.base}`);
    const health = await call('GET', `${a.base}/_sandbox/health`);
    check(health.status === 200 && health.body.BaseURL === a.base && health.body.CardBaseURL === a.card && health.body.Payments === 0,
      `health: ${JSON.stringify(health)}`);
    const created = await call('POST', `${a.base}/v1/payments`, {
      auth: true,
      body: {
        Payment: { MerchantTransactionID: 'image-1', Amount: '1000', Currency: 'EUR', MethodID: 42, ReturnURL: 'https://shop.example/return',
          Splits: [{ SiteID: 30202, Amount: '600', MerchantTransactionID: 'image-1-a' }, { SiteID: 30203, Amount: '400', MerchantTransactionID: 'image-1-b' }] },
      },
    });
    check(created.status === 201, `create answered ${created.status}: ${JSON.stringify(created.body)}`);
    const id = created.body.Payment.ID;
    check(created.body.Payment.RedirectURL.startsWith(`${a.base}/Home?PaymentToken=`), `RedirectURL ${created.body.Payment.RedirectURL}`);
    const page = await fetch(created.body.Payment.RedirectURL, { signal: AbortSignal.timeout(10_000) });
    check(page.status === 200 && /text\/html/.test(page.headers.get('content-type') ?? ''), `the payment page answered ${page.status}`);
    await page.text();
    check((await call('GET', `${a.card}/v1/payments`, { auth: true })).status === 200, 'the card API');
    step(`payment ${id} created; RedirectURL on the published address`);
    check((await call('GET', `${a.base}/_sandbox/merchants`)).status === 401, 'the control API without its token');
    check((await call('GET', `${a.base}/_sandbox/merchants`, { token: TOKEN })).status === 200, 'the control API with its token');
    step('control API: 401 without the token, 200 with it');
    if (usePodman) {
      engine(['healthcheck', 'run', a.name], 60_000);
      step('HEALTHCHECK passes');
    }
    const status = engine(['exec', a.name, 'cat', '/proc/1/status'], 30_000);
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)[1]);
    check(uid !== 0, 'PID 1 runs as root');
    check(/node/.test(engine(['exec', a.name, 'cat', '/proc/1/cmdline'], 30_000)), 'PID 1 is not node');
    check(/split-sandbox\.db/.test(engine(['exec', a.name, 'ls', '/data'], 30_000)), 'no database in /data');
    step(`PID 1 is node as uid ${uid}; the database is in /data`);
    const s1 = stop(a.name);
    check(s1.code === 0, `exit code ${s1.code} after SIGTERM`);
    check(s1.ms < STOP_LIMIT_MS, `stopping took ${s1.ms} ms`);
    step(`SIGTERM: stopped in ${s1.ms} ms (engine included), exit code 0`);

    // 2. Defaults on the same volume: the data is still there; the control API refuses the host.
    const b = await start('default', () => ({}));
    check((await call('GET', `${b.base}/v1/payments/${id}`, { auth: true })).status === 200, 'the payment did not survive in the volume');
    const refused = await call('GET', `${b.base}/_sandbox/merchants`);
    check(refused.status === 403, `the control API answered the host ${refused.status} by default`);
    // No public URL: the answers name the address the request came in on (the published port).
    check((await call('GET', `${b.base}/_sandbox/health`)).body.BaseURL === b.base, 'default BaseURL');
    step('defaults: the payment kept in the volume; control API 403 to the host; BaseURL the published address reached');
    stop(b.name);

    // 3. A trusted network, explicitly: the control API answers without a token.
    const c = await start('private', () => ({ SANDBOX_CONTROL_FROM: 'private' }));
    const opened = await call('GET', `${c.base}/_sandbox/merchants`);
    check(opened.status === 200, `SANDBOX_CONTROL_FROM=private: the control API answered ${opened.status}`);
    step('SANDBOX_CONTROL_FROM=private: control API 200 without a token');
    stop(c.name);
    if (KEEP) {
      engine(['tag', IMAGE, KEEP], 60_000);
      step(`kept as ${KEEP}`);
    }
    console.log(`check-image: ok (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    for (const suffix of ['token', 'default', 'private']) quietly(['rm', '-f', `${NAME}-${suffix}`]);
    quietly(['volume', 'rm', '-f', VOLUME]);
    // A kept image loses only this run's own tag.
    quietly(KEEP ? ['rmi', IMAGE] : ['rmi', '-f', IMAGE]);
  }
}

main().catch((e) => {
  console.error(`check-image: FAILED: ${e.message}${e.stderr ? `\n${e.stderr}` : ''}`);
  process.exit(1);
});
