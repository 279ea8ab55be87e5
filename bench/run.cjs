'use strict';
// The split-sandbox benchmark: split-sandbox next to the bare express + better-sqlite3 limit, on this
// machine, in one run. Load comes from wrk in another process, bounded in time, on 127.0.0.1 only.
// Writes bench/results.md. Run with `npm run bench` (it builds first).
// It checks for its tools before it starts anything, listens only on free ports (port 0, then the port
// the server prints), and stops every process it started on any exit: the end, an error, Ctrl-C.
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const log = (...a) => console.error('[bench]', ...a);

// ONLY=neighbours: the good-neighbours row alone (bench/neighbours.cjs), which makes its load itself (no wrk).
if (process.env.ONLY === 'neighbours') {
  require('./neighbours.cjs');
  return;
}

/** Whether `cmd` can be run here at all (it may still exit non-zero: `wrk -v` does). */
function found(cmd, args) {
  return spawnSync(cmd, args, { stdio: 'ignore' }).error?.code !== 'ENOENT';
}

/** The tools, before anything starts: without wrk there is no load, so no benchmark. */
function checkTools() {
  if (!found('wrk', ['-v'])) {
    log('wrk is not installed: it makes the load. Install it (Debian, Ubuntu: sudo apt-get install -y wrk; macOS: brew install wrk), then run npm run bench again.');
    process.exit(2);
  }
  if (process.env.PIN !== '0' && !found('taskset', ['-V'])) {
    log('taskset is not installed (Debian, Ubuntu: sudo apt-get install -y util-linux): running without CPU pinning; results.md will say so.');
  }
}
checkTools();

// SANDBOX_ROOT measures another built copy of split-sandbox (an older commit's worktree) with this harness.
const ROOT = path.resolve(process.env.SANDBOX_ROOT || path.join(__dirname, '..'));
const BIN = path.join(ROOT, 'bin', 'split-sandbox');
// ONLY: some sections of the run alone, a comma list of cold, embedded, create, get, list, filtered, capture,
// notify, life (ONLY=create: the cold starts and the create runs, as before), printed and not written to a file.
const ONLY = process.env.ONLY || '';
const SECTION_NAMES = ['cold', 'embedded', 'create', 'get', 'list', 'filtered', 'capture', 'notify', 'life'];
const SECTIONS = ONLY === '' ? null : new Set(ONLY === 'create' ? ['cold', 'create'] : ONLY.split(',').map((x) => x.trim()).filter(Boolean));
for (const x of SECTIONS ?? []) {
  if (!SECTION_NAMES.includes(x)) {
    log(`ONLY: no section ${x} (the sections: ${SECTION_NAMES.join(', ')}, or neighbours alone)`);
    process.exit(2);
  }
}
// JOURNAL=on: skip the create run with the request journal off (--request-journal 0); by default both run, the
// journal's cost is the difference (on ≥ 0.95× off, p99 within 10%).
const JOURNAL = process.env.JOURNAL || 'both';
const JOURNAL_OFF = ['--request-journal', '0'];
const OUT = process.env.BENCH_OUT || path.join(__dirname, 'results.md');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-bench-'));
const DURATION = Number(process.env.DURATION || 10);
const WARMUP = Number(process.env.WARMUP || 2);
const CONNS = Number(process.env.CONNS || 32);
const RUNS = Number(process.env.RUNS || 7);
const PREFILL = Number(process.env.PREFILL || 100_000);
// The capture load captures each payment once: it needs an Authorized payment for every request it
// sends. Sized from the fastest read load of the same run (a capture writes, so it is no faster),
// with room to spare; CAPTURE_RPS sets the rate to size for instead.
const CAPTURE_RPS = Number(process.env.CAPTURE_RPS || 0);
const CAPTURE_HEADROOM = 1.5;
// OWN_CLOCKS=1000: before the create load, that many marketplaces are made each with its own manual
// clock (a shared instance's), to compare create throughput with and without them.
const OWN_CLOCKS = Number(process.env.OWN_CLOCKS || 0);
const PIN = process.env.PIN !== '0' && hasTaskset();
// NODE_FLAGS: node/V8 flags for every server under load, split-sandbox's and the bare limit's alike
// (not for the cold starts, which measure the default start).
const NODE_FLAGS = (process.env.NODE_FLAGS || '').split(/\s+/).filter(Boolean);
const KEY = '5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=';
const AUTH = 'Basic ' + Buffer.from(`30201:${KEY}`).toString('base64');

function hasTaskset() {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
}

/** Every process this run started and that has not exited: servers (own process group) and wrk. */
const children = new Set();

/** Servers run in their own process group (detached), so that a signal reaches taskset and node alike. */
const groups = new WeakSet();

function track(child, { group = false } = {}) {
  children.add(child);
  if (group) groups.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function signal(child, sig) {
  try {
    process.kill(groups.has(child) ? -child.pid : child.pid, sig);
  } catch {
    /* gone */
  }
}

/** Stops every process still running: SIGTERM, then SIGKILL after 5 s. */
async function stopAll() {
  await Promise.all([...children].map((c) => stopServer(c)));
}

// Whatever ends this run, nothing it started is left running, listening or on disk.
process.on('exit', () => {
  for (const c of children) signal(c, 'SIGKILL');
  fs.rmSync(TMP, { recursive: true, force: true });
});
let interrupted = false;
for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.once(sig, () => {
    interrupted = true;
    log(`${sig}: stopping the ${children.size} process(es) it started`);
    void stopAll().then(() => process.exit(code));
  });
}

/** The create body of every load (the peers harness's too): 3 splits, a customer, a billing address; {SEQ} made unique. */
const CREATE_BODY = fs.readFileSync(path.join(__dirname, 'create-body.json'), 'utf8').trim();
function createBody(seqToken) {
  return CREATE_BODY.replaceAll('{SEQ}', seqToken);
}

function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
  });
}

function request(method, url, body, headers = {}, agent) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'Content-Type': 'application/json', ...headers }, agent }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Starts a server command (args end with `--port 0`) pinned to CPU 0; resolves once its health path
 * answers 2xx, with the time it took and its address (the port it printed). `flags` go to node.
 */
async function startServer(args, flags = NODE_FLAGS) {
  const argv = [...flags, ...args];
  const cmd = PIN ? ['taskset', ['-c', '0', process.execPath, ...argv]] : [process.execPath, argv];
  const t0 = performance.now();
  const child = track(spawn(cmd[0], cmd[1], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true }), { group: true });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited ${child.exitCode ?? child.signalCode}: ${args.join(' ')}`);
    const m = /^API {2}(http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
    if (m) {
      try {
        const r = await get(`${m[1]}/_sandbox/health`);
        if (r.status >= 200 && r.status < 300) return { child, ms: performance.now() - t0, url: m[1] };
      } catch {
        /* not yet answering */
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  signal(child, 'SIGTERM');
  const timer = setTimeout(() => signal(child, 'SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function rssMb(child) {
  let status;
  try {
    status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  } catch {
    throw new Error(`server ${child.pid} is gone (exit ${child.exitCode ?? child.signalCode}): no memory figure to read`);
  }
  const m = /VmRSS:\s+(\d+)/.exec(status);
  if (!m) throw new Error(`server ${child.pid} shows no VmRSS in /proc (is it still running?)`);
  return Math.round(Number(m[1]) / 1024);
}

/** One wrk run, as a child process this run tracks (so that Ctrl-C or an error stops it too). */
function wrk(url, env, duration = DURATION) {
  const args = ['-t1', `-c${CONNS}`, `-d${duration}s`, '--latency', '-s', path.join(__dirname, 'wrk.lua'), url];
  const cmd = PIN ? ['taskset', ['-c', '1', 'wrk', ...args]] : ['wrk', args];
  return new Promise((resolve, reject) => {
    const child = track(spawn(cmd[0], cmd[1], { env: { ...process.env, CONNS: String(CONNS), ...env }, stdio: ['ignore', 'pipe', 'inherit'] }));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    const timer = setTimeout(() => signal(child, 'SIGKILL'), (duration + 30) * 1000);
    child.once('error', reject);
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      const m = /BENCH (\{.*\})/.exec(out);
      if (m) resolve(JSON.parse(m[1]));
      else reject(new Error(`wrk ended (${code ?? sig}) with no result:\n${out}`));
    });
  });
}

/** A warm-up run, then the measured one, whose latency distribution is printed under `label`. */
async function load(label, url, env) {
  if (WARMUP > 0) await wrk(url, { ...env, FIRST_N: env.WARM_N ?? env.FIRST_N ?? '1' }, WARMUP);
  const r = await wrk(url, env);
  const ms = (x) => x.toFixed(2);
  log(`${label}: ${Math.round(r.rps)} req/s; ms p50 ${ms(r.p50_ms)}, p90 ${ms(r.p90_ms)}, p99 ${ms(r.p99_ms)}, p99.9 ${ms(r.p999_ms)}, max ${ms(r.max_ms)}; ${r.non2xx} non-2xx, ${r.errors} socket errors`);
  return r;
}

/** Two runs of one load as one: rates and percentiles averaged, the slowest answer and the errors of both. */
function bothRuns(a, b) {
  const mean = (k) => (a[k] + b[k]) / 2;
  return {
    requests: a.requests + b.requests,
    rps: mean('rps'),
    p50_ms: mean('p50_ms'),
    p90_ms: mean('p90_ms'),
    p99_ms: mean('p99_ms'),
    p999_ms: mean('p999_ms'),
    max_ms: Math.max(a.max_ms, b.max_ms),
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    rss: Math.max(a.rss, b.rss),
    runs: [a, b],
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Fills a database file with `count` payments with 3 splits through the services; `authorized` of them Authorized. */
function prefill(file, count, authorized, prefix = 'prefill') {
  const { createServices } = require(path.join(ROOT, 'dist', 'main'));
  const { DEFAULT_CONFIG } = require(path.join(ROOT, 'dist', 'config'));
  const { Store } = require(path.join(ROOT, 'dist', 'store', 'store'));
  const { createPayment } = require(path.join(ROOT, 'dist', 'services', 'payments.service'));
  const { applyPaymentEvent } = require(path.join(ROOT, 'dist', 'services', 'events.service'));
  const store = Store.open(file);
  const ctx = createServices({ ...DEFAULT_CONFIG, seed: 1 }, store);
  ctx.scenarios = undefined; // no timers: the servers measured should do only what the load asks
  const site = store.sites.get(30201);
  const ids = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) ids.push(createPayment(ctx, site, JSON.parse(createBody(`${prefix}-${i}`))).payment.id);
  for (let i = 0; i < authorized; i++) applyPaymentEvent(ctx, ids[i], 'authorize');
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  log(`prefilled ${count} payments (${authorized} authorized) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return ids;
}

/**
 * How many Authorized payments the capture load needs: the warm-up's and the measured run's requests at
 * `rps` (the fastest read load of the run, or CAPTURE_RPS), with headroom. Too few, and the run ends
 * capturing payments already captured: refusals (17) counted as captures.
 */
function capturePlan(fastestRead) {
  const rps = (CAPTURE_RPS || fastestRead) * CAPTURE_HEADROOM;
  const warm = Math.ceil(rps * (WARMUP + 1));
  const measured = Math.ceil(rps * (DURATION + 1));
  return { rps, warm, measured, needed: warm + measured };
}

/** A notification receiver on 127.0.0.1 that notes when each payment's status arrived. */
function receiver() {
  const seen = new Map();
  const waiting = new Map();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const at = performance.now();
      const p = JSON.parse(raw).Payment;
      if (p) {
        const key = `${p.ID}:${p.Status.ID}`;
        seen.set(key, at);
        waiting.get(key)?.(at);
      }
      res.statusCode = 204;
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/notify`,
        count: () => seen.size,
        arrival: (id, status) =>
          seen.has(`${id}:${status}`) ? Promise.resolve(seen.get(`${id}:${status}`)) : new Promise((r) => waiting.set(`${id}:${status}`, r)),
        close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))),
      }),
    ),
  );
}

/** Makes `count` marketplaces, each with its own manual clock, through the control API (16 at a time). */
async function ownClocks(url, count) {
  const t0 = performance.now();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        next++;
        const r = await request('POST', `${url}/_sandbox/merchants`, '{"LinkedSites":0,"Clock":"manual"}', {}, agent);
        if (r.status !== 201) throw new Error(`marketplace with its own clock: ${r.status} ${r.body}`);
      }
    }),
  );
  agent.destroy();
  log(`${count} marketplaces with their own clocks made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** Whether a section of the run is asked for (ONLY: a comma list; empty: all of them, and results.md written). */
function wanted(section) {
  return SECTIONS === null || SECTIONS.has(section);
}

/**
 * Cold starts, spawn → first 200, on three databases: `:memory:`, a file that exists (made by one start
 * before, migrations and fixtures in it), and a fresh file each start. Each round starts split-sandbox,
 * the bare express + sqlite server and the bare node:http one in turn, so that a machine whose speed
 * drifts weighs on all three alike.
 */
async function coldStarts(ours, base, nodeHttp) {
  const kinds = ['memory', 'existing', 'fresh'];
  const servers = { ours, base, node: nodeHttp };
  const times = Object.fromEntries(kinds.map((k) => [k, { ours: [], base: [], node: [] }]));
  const existing = { ours: path.join(TMP, 'cold-ours-existing.db'), base: path.join(TMP, 'cold-base-existing.db'), node: path.join(TMP, 'cold-node-existing.db') };
  for (const [name, argsFor] of Object.entries(servers)) await stopServer((await startServer(argsFor(existing[name], true), [])).child);
  for (let i = 0; i < RUNS; i++) {
    for (const kind of kinds) {
      for (const [name, argsFor] of Object.entries(servers)) {
        const db = kind === 'memory' ? ':memory:' : kind === 'existing' ? existing[name] : path.join(TMP, `cold-${name}-${i}.db`);
        const { child, ms } = await startServer(argsFor(db, kind === 'existing'), []);
        times[kind][name].push(ms);
        await stopServer(child);
      }
    }
  }
  const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
  const out = {};
  for (const kind of kinds) {
    out[kind] = Object.fromEntries(Object.entries(times[kind]).map(([n, xs]) => [n, stats(xs)]));
    const r = out[kind];
    log(`cold start, ${kind}: split-sandbox ${r.ours.median.toFixed(0)} ms, bare express + sqlite ${r.base.median.toFixed(0)} ms (${(r.ours.median / r.base.median).toFixed(2)}×), bare node:http ${r.node.median.toFixed(0)} ms (${(r.ours.median / r.node.median).toFixed(2)}×)`);
  }
  return out;
}

/** An embedded start (bench/embedded-start.cjs: startSandbox() from its call to its resolved promise, in a plain Node process), median of RUNS. */
function embeddedStarts() {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const argv = [path.join(__dirname, 'embedded-start.cjs'), ROOT, ':memory:'];
    const out = PIN ? execFileSync('taskset', ['-c', '0', process.execPath, ...argv], { encoding: 'utf8' }) : execFileSync(process.execPath, argv, { encoding: 'utf8' });
    const m = /EMBEDDED (\{.*\})/.exec(out);
    if (!m) throw new Error(`embedded start printed no result:\n${out}`);
    runs.push(JSON.parse(m[1]));
  }
  const start = runs.map((r) => r.startMs);
  const r = { median: median(start), min: Math.min(...start), max: Math.max(...start), requireMs: median(runs.map((x) => x.requireMs)) };
  log(`embedded startSandbox(): ${r.median.toFixed(0)} ms (${r.min.toFixed(0)}–${r.max.toFixed(0)}); require of the package before it ${r.requireMs.toFixed(0)} ms`);
  return r;
}

/** The large database: PREFILL payments written through the services; with PREFILL_KEEP, made once and copied from there in later runs. */
function bigDatabase(file) {
  const keep = process.env.PREFILL_KEEP;
  if (keep && fs.existsSync(keep)) {
    fs.copyFileSync(keep, file);
    const ids = JSON.parse(fs.readFileSync(keep + '.ids.json', 'utf8'));
    log(`the prefilled database copied from ${keep}`);
    return ids;
  }
  const ids = prefill(file, PREFILL, Math.min(PREFILL, 80_000));
  if (keep) {
    fs.copyFileSync(file, keep);
    fs.writeFileSync(keep + '.ids.json', JSON.stringify(ids));
  }
  return ids;
}

async function main() {
  const ours = (db, _keep, extra = []) => [BIN, 'start', '--port', '0', '--card-port', '0', '--db', db, '--quiet', ...extra];
  const base = (db, keep) => [path.join(__dirname, 'baseline-express-sqlite.cjs'), '--port', '0', '--db', db, ...(keep ? ['--keep'] : [])];
  const nodeHttp = (db) => [path.join(__dirname, 'baseline-node-http.cjs'), '--port', '0', '--db', db];
  const r = {};

  if (wanted('cold')) {
    log('cold starts');
    r.cold = await coldStarts(ours, base, nodeHttp);
    r.coldNode = median(
      Array.from({ length: RUNS }, () => {
        const t = performance.now();
        execFileSync(process.execPath, ['-e', '0']);
        return performance.now() - t;
      }),
    );
  }
  if (wanted('embedded')) r.embedded = embeddedStarts();

  if (wanted('create')) {
    log(`create with 3 splits (durable file database), ${ROOT}`);
    const createRun = async (file, extra, label) => {
      const server = await startServer(ours(path.join(TMP, file), false, extra));
      if (OWN_CLOCKS > 0) await ownClocks(server.url, OWN_CLOCKS);
      const x = await load(label, `${server.url}/v1/payments`, { METHOD: 'POST', BODY: createBody('{SEQ}'), AUTH });
      // taskset execs node, so the server is the process spawned.
      const rss = rssMb(server.child);
      await stopServer(server.child);
      return { ...x, rss };
    };
    const onLabel = OWN_CLOCKS > 0 ? `create beside ${OWN_CLOCKS} own clocks` : 'create';
    r.createOff = null;
    if (JOURNAL === 'on') r.createOurs = await createRun('create.db', [], onLabel);
    else {
      // On, off, off, on: a machine whose speed drifts over the four runs weighs on both alike. The first
      // load after the cold starts ran slower than the three after it (by some 4% on average over nine
      // runs, whichever build), and "on" always came first: a load that is not counted goes before.
      log('create with the request journal on and off (--request-journal 0), in the order on, off, off, on, after a load not counted');
      const warm = await startServer(ours(path.join(TMP, 'create-warm.db'), false, JOURNAL_OFF));
      await wrk(`${warm.url}/v1/payments`, { METHOD: 'POST', BODY: createBody('{SEQ}'), AUTH, FIRST_N: '1' }, Math.max(WARMUP, 3));
      await stopServer(warm.child);
      const on1 = await createRun('create.db', [], onLabel);
      const off1 = await createRun('create-off.db', JOURNAL_OFF, 'create, journal off');
      const off2 = await createRun('create-off-2.db', JOURNAL_OFF, 'create, journal off (again)');
      const on2 = await createRun('create-2.db', [], `${onLabel} (again)`);
      r.createOurs = bothRuns(on1, on2);
      r.createOff = bothRuns(off1, off2);
    }
    r.rssAfterCreate = r.createOurs.rss;
  }

  const reads = ['get', 'list', 'filtered', 'capture'].filter(wanted);
  if (wanted('create') || wanted('get') || wanted('list')) {
    const s = await startServer(base(path.join(TMP, 'base.db')));
    if (wanted('create')) r.createBase = await load('bare create', `${s.url}/v1/payments`, { METHOD: 'POST', BODY: createBody('{SEQ}') });
    else for (let i = 0; i < 20; i++) await request('POST', `${s.url}/v1/payments`, createBody(`base-${i}`));
    if (wanted('get')) r.getBase = await load('bare get', `${s.url}/v1/payments/{N}`, { PATHS: '/v1/payments/1' });
    if (wanted('list')) r.listBase = await load('bare list', `${s.url}/v1/payments`, {});
    await stopServer(s.child);
  }

  if (reads.length > 0) {
    log(`prefill ${PREFILL} payments`);
    const big = path.join(TMP, 'big.db');
    const ids = bigDatabase(big);
    const getUrl = (url) => `${url}/v1/payments/${ids[PREFILL - 1]}`;
    const listUrl = (url) => `${url}/v1/payments?pageSize=10&pageIndex=2`;
    // Get and list with the journal on and off, in the order on, off, off, on (as create): each row the
    // mean of its two runs. The last server, journal on, then takes the filtered list and the capture load.
    const readRun = async (extra, label, last) => {
      const s = await startServer(ours(big, false, extra));
      const x = {};
      if (wanted('get')) x.get = await load(`get${label}`, getUrl(s.url), { AUTH });
      if (wanted('list')) x.list = await load(`list${label}`, listUrl(s.url), { AUTH });
      if (!last) await stopServer(s.child);
      else x.server = s;
      return x;
    };
    let s;
    if (JOURNAL === 'on' || !(wanted('get') || wanted('list'))) {
      const on = await readRun([], '', true);
      r.getOurs = on.get;
      r.listOurs = on.list;
      s = on.server;
    } else {
      // A read load not counted goes first, journal on, so that the first "on" server neither reads a
      // database the page cache has not seen nor journals into an empty file (every page new), where the
      // last one took the place of the oldest entries of a file at its quota. It did not make the two "on"
      // runs alike: one of them still reads at half to two thirds of the other's rate in some runs (the
      // first before, the last since), which is why each row is the mean of both.
      log('get and list with the request journal on and off, in the order on, off, off, on, after a read load not counted');
      const warm = await startServer(ours(big));
      await wrk(getUrl(warm.url), { AUTH, FIRST_N: '1' }, Math.max(WARMUP, 3));
      await stopServer(warm.child);
      const on1 = await readRun([], '', false);
      const off1 = await readRun(JOURNAL_OFF, ', journal off', false);
      const off2 = await readRun(JOURNAL_OFF, ', journal off (again)', false);
      const on2 = await readRun([], ' (again)', true);
      s = on2.server;
      if (wanted('get')) [r.getOurs, r.getOff] = [bothRuns(on1.get, on2.get), bothRuns(off1.get, off2.get)];
      if (wanted('list')) [r.listOurs, r.listOff] = [bothRuns(on1.list, on2.list), bothRuns(off1.list, off2.list)];
    }
    if (wanted('filtered')) r.listFiltered = await load('filtered list', `${s.url}/v1/payments?statusID=9&currency=EUR&pageSize=10&pageIndex=3`, { AUTH });
    if (wanted('capture')) {
      // Consecutive Authorized payments for the warm-up, then as many again for the measured run: the
      // prefill's when they are enough, else a block of new ones written after it.
      const plan = capturePlan(Math.max(r.getOurs?.rps ?? 0, r.listOurs?.rps ?? 0, r.listFiltered?.rps ?? 0, 1000));
      let block = ids;
      if (plan.needed > Math.min(PREFILL, 80_000)) {
        await stopServer(s.child);
        log(`capture: ${plan.needed} Authorized payments needed at up to ${Math.round(plan.rps)} req/s; writing them`);
        block = prefill(big, plan.needed, plan.needed, 'capture');
        s = await startServer(ours(big));
      }
      // wrk counts the payment IDs up one by one from its first: the block's IDs follow each other.
      if (block[plan.needed - 1] !== block[0] + plan.needed - 1) throw new Error('capture: the Authorized payments prepared do not have consecutive IDs');
      r.captureOurs = await load('capture', `${s.url}/`, {
        METHOD: 'POST',
        AUTH,
        PATHS: '/v1/payments/{N}/capture',
        WARM_N: String(block[0]),
        FIRST_N: String(block[plan.warm]),
      });
      r.captureOurs.sizedFor = { ...plan, at: block === ids ? PREFILL : PREFILL + plan.needed };
    }
    r.rssAt100k = rssMb(s.child);
    await stopServer(s.child);
  }

  if (wanted('notify') || wanted('life')) {
    const rx = await receiver();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    if (wanted('notify')) {
      log('notification latency');
      const s = await startServer(ours(path.join(TMP, 'notify.db'), false, ['--notify-url', rx.url]));
      const latencies = [];
      for (let i = 0; i < 500; i++) {
        const created = await request('POST', `${s.url}/v1/payments`, createBody(`n-${i}`), { Authorization: AUTH }, agent);
        const id = JSON.parse(created.body).Payment.ID;
        const t0 = performance.now();
        const arrived = rx.arrival(id, 9);
        await request('POST', `${s.url}/_sandbox/payments/${id}/events`, '{"Event":"authorize"}', {}, agent);
        latencies.push((await arrived) - t0);
      }
      await stopServer(s.child);
      const sorted = [...latencies].sort((a, b) => a - b);
      const pct = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
      r.notify = { p50: pct(0.5), p99: pct(0.99) };
    }
    if (wanted('life')) {
      log('1,000 two-step lifecycles under the manual clock');
      const s = await startServer(ours(path.join(TMP, 'life.db'), false, ['--notify-url', rx.url, '--clock', 'manual', '--scenario', 'two-step']));
      const lifeUrl = s.url;
      const before = rx.count();
      const t0 = performance.now();
      const lifeIds = [];
      const parallel = async (n, fn) => {
        let next = 0;
        await Promise.all(Array.from({ length: 16 }, async () => {
          while (next < n) await fn(next++);
        }));
      };
      await parallel(1000, async (i) => {
        const x = await request('POST', `${lifeUrl}/v1/payments`, createBody(`life-${i}`), { Authorization: AUTH }, agent);
        lifeIds[i] = JSON.parse(x.body).Payment.ID;
      });
      const tCreated = performance.now();
      await request('POST', `${lifeUrl}/_sandbox/clock/advance`, '{"Seconds":2}', {}, agent);
      const tAuthorized = performance.now();
      await parallel(1000, async (i) => {
        const x = await request('POST', `${lifeUrl}/v1/payments/${lifeIds[i]}/capture`, '', { Authorization: AUTH }, agent);
        if (x.status !== 200) throw new Error(`capture ${x.status} ${x.body}`);
      });
      await Promise.all(lifeIds.map((id) => rx.arrival(id, 2)));
      r.lifecycleMs = performance.now() - t0;
      log(`lifecycles: create ${(tCreated - t0).toFixed(0)} ms, advance ${(tAuthorized - tCreated).toFixed(0)} ms, capture and notify ${(performance.now() - tAuthorized).toFixed(0)} ms`);
      r.delivered = rx.count() - before;
      await stopServer(s.child);
    }
    await rx.close();
    agent.destroy();
  }

  if (SECTIONS === null) write(r);
  else summary(r);
}

/** A run of some sections only: its figures, printed and not written. */
function summary(r) {
  const ms = (x) => x.toFixed(1);
  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  const lines = [];
  if (r.cold) {
    for (const [kind, c] of Object.entries(r.cold)) {
      lines.push(`cold start, ${kind}: ${ms(c.ours.median)} ms; bare express + sqlite ${ms(c.base.median)} ms (${x(c.ours.median, c.base.median)}), bare node:http ${ms(c.node.median)} ms (${x(c.ours.median, c.node.median)})`);
    }
  }
  if (r.embedded) lines.push(`embedded startSandbox(): ${ms(r.embedded.median)} ms (${ms(r.embedded.min)}–${ms(r.embedded.max)}), require before it ${ms(r.embedded.requireMs)} ms`);
  if (r.createOurs) {
    lines.push(
      `create: ${Math.round(r.createOurs.rps)} req/s (${x(r.createOurs.rps, r.createBase.rps)} bare), p50 ${ms(r.createOurs.p50_ms)} / p99 ${ms(r.createOurs.p99_ms)} / max ${ms(r.createOurs.max_ms)} ms, RSS ${r.rssAfterCreate} MB; ` +
        `${OWN_CLOCKS > 0 ? `beside ${OWN_CLOCKS} marketplaces with their own clocks; ` : ''}bare: ${Math.round(r.createBase.rps)} req/s, p50 ${ms(r.createBase.p50_ms)} / p99 ${ms(r.createBase.p99_ms)} / max ${ms(r.createBase.max_ms)} ms`,
    );
    if (r.createOff) lines.push(`${onOff('create', r.createOurs, r.createOff)}; p50 ${ms(r.createOff.p50_ms)} / p99 ${ms(r.createOff.p99_ms)} ms off`);
  }
  for (const [name, on, off, bare] of [['get', r.getOurs, r.getOff, r.getBase], ['list', r.listOurs, r.listOff, r.listBase]]) {
    if (!on) continue;
    lines.push(`${name}: ${Math.round(on.rps)} req/s (${x(on.rps, bare.rps)} bare ${Math.round(bare.rps)}), p50 ${ms(on.p50_ms)} / p99 ${ms(on.p99_ms)} ms`);
    if (off) lines.push(`${onOff(name, on, off)}; off ${x(off.rps, bare.rps)} bare`);
  }
  if (r.listFiltered) lines.push(`filtered list: ${Math.round(r.listFiltered.rps)} req/s, p50 ${ms(r.listFiltered.p50_ms)} / p99 ${ms(r.listFiltered.p99_ms)} ms`);
  if (r.captureOurs) lines.push(`capture: ${Math.round(r.captureOurs.rps)} req/s, p50 ${ms(r.captureOurs.p50_ms)} / p99 ${ms(r.captureOurs.p99_ms)} ms`);
  if (r.rssAt100k !== undefined) lines.push(`RSS after the read${r.captureOurs ? ' and capture' : ''} load: ${r.rssAt100k} MB`);
  if (r.notify) lines.push(`notification latency p50 / p99: ${r.notify.p50.toFixed(2)} / ${r.notify.p99.toFixed(2)} ms`);
  if (r.lifecycleMs !== undefined) lines.push(`1,000 lifecycles: ${(r.lifecycleMs / 1000).toFixed(2)} s`);
  process.stdout.write(lines.join('\n') + '\n');
  failIfRefused({ createOurs: r.createOurs, createOff: r.createOff, createBase: r.createBase, getOurs: r.getOurs, getOff: r.getOff, getBase: r.getBase, listOurs: r.listOurs, listOff: r.listOff, listBase: r.listBase, listFiltered: r.listFiltered, captureOurs: r.captureOurs });
}

/** A load with the journal on against the same with it off: the ratio and the four runs in their order. */
function onOff(name, on, off) {
  return `${name}, request journal off: ${Math.round(off.rps)} req/s (journal on ${(on.rps / off.rps).toFixed(2)}× off, p99 ${(on.p99_ms / off.p99_ms).toFixed(2)}×); runs on, off, off, on: ${[on.runs[0], off.runs[0], off.runs[1], on.runs[1]].map((y) => Math.round(y.rps)).join(', ')} req/s`;
}

function write(r) {
  const f = (n, d = 0) => Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const lat = (x) => `${f(x.p50_ms, 2)} / ${f(x.p99_ms, 1)}`;
  const errs = (x) => x.non2xx + x.errors;
  // A run that counted refusals or socket errors measured something else than its operation: its row
  // says so instead of a verdict, and the benchmark exits 1.
  const refused = (...xs) => xs.filter((x) => x && errs(x) > 0);
  const verdict = (ok, ...runs) => {
    const bad = refused(...runs);
    if (bad.length > 0) return `**FAILED: ${bad.map((x) => `${f(x.non2xx)} non-2xx, ${f(x.errors)} socket errors`).join('; ')}**`;
    return ok ? 'met' : '**not met**';
  };
  const cpu = os.cpus();
  const wrkVersion = (() => {
    try {
      return execFileSync('wrk', ['-v'], { encoding: 'utf8' }).split('\n')[0];
    } catch (e) {
      return String(e.stdout || '').split('\n')[0] || 'wrk';
    }
  })();
  const ratio = r.createOurs.rps / r.createBase.rps;
  const rows = [
    ...Object.entries({ memory: '`:memory:`', existing: 'a file database that exists', fresh: 'a fresh file (migrations and fixtures)' }).map(([kind, what]) => {
      const c = r.cold[kind];
      const span = (x) => `${f(x.median)} (${f(x.min)}–${f(x.max)})`;
      const goal = kind === 'existing' ? ['≤ 0.8× bare express + sqlite', c.ours.median <= 0.8 * c.base.median] : kind === 'memory' ? ['≤ 1.3× bare node:http', c.ours.median <= 1.3 * c.node.median] : null;
      return [
        `cold start on ${what} (spawn → first 200 on /_sandbox/health), ms: median (min–max); bare node:http ${span(c.node)}`,
        span(c.ours),
        span(c.base),
        `${goal ? goal[0] + '; ' : ''}this run ${f(c.ours.median / c.base.median, 2)}× express, ${f(c.ours.median / c.node.median, 2)}× node:http`,
        goal ? verdict(goal[1]) : '',
      ];
    }),
    ['embedded `startSandbox()` on `:memory:` (its call → resolved promise, in a plain Node process), ms: median (min–max)', `${f(r.embedded.median)} (${f(r.embedded.min)}–${f(r.embedded.max)}); the require before it ${f(r.embedded.requireMs)}`, '', '', ''],
    ['create with 3 splits, req/s', f(r.createOurs.rps), f(r.createBase.rps), `≥ 0.8× bare (${f(0.8 * r.createBase.rps)}); this run ${f(ratio, 2)}×`, verdict(ratio >= 0.8, r.createOurs, r.createBase)],
    ['create p50 / p99 / max, ms', `${lat(r.createOurs)} / ${f(r.createOurs.max_ms, 1)}`, `${lat(r.createBase)} / ${f(r.createBase.max_ms, 1)}`, `p99 ≤ 1.2× bare's p99, max ≤ 100; this run ${f(r.createOurs.p99_ms / r.createBase.p99_ms, 2)}×`, verdict(r.createOurs.p99_ms <= 1.2 * r.createBase.p99_ms && r.createOurs.max_ms <= 100, r.createOurs, r.createBase)],
    ...(r.createOff
      ? [
          [
            'create with the request journal off (--request-journal 0), req/s (p50 / p99 ms); both rows the mean of two runs, in the order on, off, off, on',
            `${f(r.createOff.rps)} (${lat(r.createOff)}); runs ${[r.createOurs.runs[0], r.createOff.runs[0], r.createOff.runs[1], r.createOurs.runs[1]].map((x) => f(x.rps)).join(', ')}`,
            '',
            `journal on ≥ 0.95× off, p99 within 10%; this run ${f(r.createOurs.rps / r.createOff.rps, 2)}×, p99 ${f(r.createOurs.p99_ms / r.createOff.p99_ms, 2)}×`,
            verdict(r.createOurs.rps >= 0.95 * r.createOff.rps && r.createOurs.p99_ms <= 1.1 * r.createOff.p99_ms),
          ],
        ]
      : []),
    [`get one payment at ${f(PREFILL)}, req/s (p50 / p99 ms)`, `${f(r.getOurs.rps)} (${lat(r.getOurs)})`, `${f(r.getBase.rps)} (${lat(r.getBase)})`, `≥ 1.3× bare; this run ${f(r.getOurs.rps / r.getBase.rps, 2)}×`, verdict(r.getOurs.rps >= 1.3 * r.getBase.rps, r.getOurs, r.getBase)],
    [`list page at ${f(PREFILL)}, req/s (p50 / p99 ms)`, `${f(r.listOurs.rps)} (${lat(r.listOurs)})`, `${f(r.listBase.rps)} (${lat(r.listBase)})`, `≥ 2.6× bare, p50 ≤ 5 ms; this run ${f(r.listOurs.rps / r.listBase.rps, 2)}×`, verdict(r.listOurs.rps >= 2.6 * r.listBase.rps && r.listOurs.p50_ms <= 5, r.listOurs, r.listBase)],
    ...[['get', r.getOurs, r.getOff], ['list', r.listOurs, r.listOff]].filter(([, , off]) => off).map(([name, on, off]) => [
      `${name} with the request journal off, req/s (p50 / p99 ms); both rows the mean of two runs, in the order on, off, off, on`,
      `${f(off.rps)} (${lat(off)}); runs ${[on.runs[0], off.runs[0], off.runs[1], on.runs[1]].map((x) => f(x.rps)).join(', ')}`,
      '',
      `this run on ${f(on.rps / off.rps, 2)}× off, p99 ${f(on.p99_ms / off.p99_ms, 2)}×`,
      refused(off).length ? verdict(true, off) : '',
    ]),
    [`list filtered by status and currency at ${f(PREFILL)}, req/s (p50 / p99 ms)`, `${f(r.listFiltered.rps)} (${lat(r.listFiltered)})`, '', 'p50 ≤ 5 ms', verdict(r.listFiltered.p50_ms <= 5, r.listFiltered)],
    [`full capture at ${f(r.captureOurs.sizedFor.at)}, each request a payment still Authorized (${f(r.captureOurs.sizedFor.needed)} prepared for ${f(r.captureOurs.sizedFor.rps)} req/s), req/s (p50 / p99 ms)`, `${f(r.captureOurs.rps)} (${lat(r.captureOurs)})`, '', 'no refusal', verdict(true, r.captureOurs)],
    ['notification latency (state change → receiver), ms: p50 / p99', `${f(r.notify.p50, 2)} / ${f(r.notify.p99, 2)}`, '', 'p50 ≤ 10', verdict(r.notify.p50 <= 10)],
    ['1,000 two-step lifecycles (create, authorize, capture, 2,000 notifications), manual clock, s', f(r.lifecycleMs / 1000, 2), '', '≤ 3', verdict(r.lifecycleMs <= 3000)],
    [`RSS after the create run / with ${f(PREFILL)} payments after the read and capture load (journal at its default), MB`, `${r.rssAfterCreate} / ${r.rssAt100k}`, '', '≤ 130 / ≤ 130', verdict(Math.max(r.rssAfterCreate, r.rssAt100k) <= 130)],
    ['non-2xx or socket errors in every wrk run', String([r.createOurs, ...(r.createOff ? [r.createOff] : []), r.getOurs, r.listOurs, ...[r.getOff, r.listOff].filter(Boolean), r.listFiltered, r.captureOurs].reduce((n, x) => n + errs(x), 0)), String([r.createBase, r.getBase, r.listBase].reduce((n, x) => n + errs(x), 0)), '0', ''],
  ];
  const md = `# split-sandbox benchmark

Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` (bench/run.cjs), split-sandbox next to the bare
express 5 + better-sqlite3 limit (bench/baseline-express-sqlite.cjs: parse, insert, return the row; no validation,
splits or notifications) in one run.

Machine: ${cpu.length} × ${cpu[0].model}, ${f(os.totalmem() / 2 ** 30, 1)} GiB, ${os.type()} ${os.release()}, Node ${process.version}, ${wrkVersion}.
Load: wrk -t1 -c${CONNS}, ${WARMUP} s warm-up then ${DURATION} s measured, on 127.0.0.1; ${PIN ? 'server pinned to CPU 0 and wrk to CPU 1 (one core each)' : 'no CPU pinning'}${NODE_FLAGS.length ? `; servers under load run with node ${NODE_FLAGS.join(' ')}` : ''}.
Servers write to a durable SQLite file (WAL). Cold starts: median of ${RUNS}, split-sandbox, bare express + sqlite and bare node:http (bench/baseline-node-http.cjs: no framework, no database) started in turn; a bare \`node -e 0\` takes ${f(r.coldNode)} ms here.
The ${f(PREFILL)} payments (3 splits each) are written through the services before the server starts.

| measure | split-sandbox | bare express + sqlite | target | |
|---|---:|---:|---|---|
${rows.map((x) => `| ${x.join(' | ')} |`).join('\n')}

Notification latency: 500 payments one after another; the time from sending the authorize event until the receiver
has the Authorized notification. Lifecycles: 16 clients in parallel create 1,000 payments (scenario two-step), one
clock advance of 2 s authorizes them all (1,000 notifications), then every payment is captured (1,000 more); the time
runs until the receiver has all 2,000.

List pages are kept as JSON text until the next write (src/http/page-cache.ts). The list loads above are read-only,
so after its first request each answer is a kept page: this is the speed of a list polled between changes. A page
rendered afresh (after any write) costs a query, its items and their JSON: before pages were kept, the same list load
measured 2,141 req/s, p50 13.3 ms (2026-11-22, same machine).

Create latency across several runs, where the slowest answers go and what was tried: [create-latency.md](create-latency.md).
`;
  fs.writeFileSync(OUT, md);
  process.stdout.write(md);
  failIfRefused({ createOurs: r.createOurs, createOff: r.createOff, createBase: r.createBase, getOurs: r.getOurs, getOff: r.getOff, getBase: r.getBase, listOurs: r.listOurs, listOff: r.listOff, listBase: r.listBase, listFiltered: r.listFiltered, captureOurs: r.captureOurs });
}

/** Loudly: a load that counted non-2xx answers or socket errors measured refusals, not its operation. */
function failIfRefused(runs) {
  // A row of two runs (the journal's on, off, off, on) names the run that refused.
  const each = Object.entries(runs).flatMap(([name, x]) => (!x ? [] : x.runs ? x.runs.map((r, i) => [`${name} run (${i + 1} of ${x.runs.length})`, r]) : [[`${name} run`, x]]));
  const bad = each.filter(([, x]) => x.non2xx + x.errors > 0);
  if (bad.length === 0) return;
  for (const [name, x] of bad) process.stderr.write(`bench: FAILED: the ${name} counted ${x.non2xx} non-2xx answers and ${x.errors} socket errors: its figures are not the operation's\n`);
  process.exitCode = 1;
}

main()
  .catch((e) => {
    if (interrupted) return;
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    if (interrupted) return; // the signal's handler stops everything and exits
    await stopAll();
    fs.rmSync(TMP, { recursive: true, force: true });
    // Nothing else is left to wait for (a receiver, an agent's sockets): end now.
    process.exit();
  });
