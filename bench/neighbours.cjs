'use strict';
// Good neighbours: one marketplace's flood and snapshots against another's steady traffic. While
// marketplace A sends 64 KiB bodies from 8 connections and saves three snapshots of itself (then
// restores the first), marketplace B creates payments at a steady RATE (50/s) on one connection.
// Prints B's p50, p99 and longest wait (each measured from when the request was due, so a stall
// counts in full), B's failures, whether any of B's journal entries was lost, and A's saves. Loopback
// only, on free ports, bounded in time (DURATION_S of load, TIMEOUT_S in all); removes what it made.
// Needs `npm run build` first. Run: `node bench/neighbours.cjs`, or `ONLY=neighbours npm run bench`.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(process.env.SANDBOX_ROOT || path.join(__dirname, '..'));
const DURATION_S = Number(process.env.DURATION_S || 20);
const TIMEOUT_S = Number(process.env.TIMEOUT_S || 180);
const RATE = Number(process.env.RATE || 50);
const FLOOD_CONNS = Number(process.env.FLOOD_CONNS || 8);
const BODY_KB = Number(process.env.BODY_KB || 64);
// SNAPSHOTS=0: A floods and saves nothing (what the flood alone does to B).
const SNAPSHOTS = process.env.SNAPSHOTS !== '0';
// Extra `start` flags (e.g. "--merchant-snapshot-bytes 64MB"); the quotas' defaults otherwise.
const FLAGS = (process.env.FLAGS || '').split(/\s+/).filter(Boolean);
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-neighbours-'));
const DB = path.join(TMP, 'neighbours.db');

const log = (...a) => console.error('[neighbours]', ...a);

function call(agent, method, url, { auth, body } = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers = { 'Content-Type': 'application/json' };
    if (auth) headers.Authorization = auth;
    if (text !== undefined) headers['Content-Length'] = Buffer.byteLength(text);
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0 }));
    });
    req.on('error', (e) => resolve({ status: 0, text: String(e.message), ms: performance.now() - t0 }));
    req.end(text);
  });
}

async function startServer() {
  const ready = path.join(TMP, 'ready.json');
  const args = [path.join(ROOT, 'bin', 'split-sandbox'), 'start', '--port', '0', '--card-port', '0', '--host', '127.0.0.1', '--db', DB, '--log-level', 'error', '--ready-file', ready, ...FLAGS];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  while (!fs.existsSync(ready)) {
    if (child.exitCode !== null) throw new Error('the sandbox did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 50));
  const { BaseURL } = JSON.parse(fs.readFileSync(ready, 'utf8'));
  return { api: BaseURL, child, stop: () => (child.exitCode === null && child.kill('SIGTERM'), exited) };
}

const pct = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const basic = (m) => 'Basic ' + Buffer.from(`${m.SiteID}:${m.APIKey}`).toString('base64');

/** The sandbox under test, stopped on any exit. */
let running = null;

async function main() {
  const server = await startServer();
  running = server;
  const control = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const make = async (name) => {
      const res = await call(control, 'POST', `${server.api}/_sandbox/merchants`, { body: { Name: name, LinkedSites: 1 } });
      if (res.status !== 201) throw new Error(`making ${name} answered ${res.status}: ${res.text}`);
      return JSON.parse(res.text).Merchant;
    };
    const a = await make('flooder');
    const b = await make('neighbour');
    const aAuth = basic(a);
    const bAuth = basic(b);
    const big = JSON.stringify({ Payment: { MerchantTransactionID: 'flood', Description: 'x'.repeat(BODY_KB * 1024) } });
    const deadline = performance.now() + DURATION_S * 1000;

    // A's flood: 8 connections, each one request after another.
    const floodAgent = new http.Agent({ keepAlive: true, maxSockets: FLOOD_CONNS });
    let flooded = 0;
    const flood = Array.from({ length: FLOOD_CONNS }, async () => {
      while (performance.now() < deadline) {
        await call(floodAgent, 'POST', `${server.api}/v1/payments`, { auth: aAuth, body: big });
        flooded++;
      }
    });

    // A's snapshots: three saves spread over the load, then a restore of the first.
    const saves = [];
    const snapshots = (async () => {
      if (!SNAPSHOTS) return;
      for (const [i, at] of [0.15, 0.4, 0.65].entries()) {
        await new Promise((r) => setTimeout(r, Math.max(0, deadline - DURATION_S * 1000 * (1 - at) - performance.now())));
        const res = await call(control, 'POST', `${server.api}/_sandbox/merchants/${a.SiteID}/snapshots`, { body: { Name: `s${i + 1}` } });
        saves.push({ what: `save s${i + 1}`, status: res.status, ms: Math.round(res.ms), says: res.status === 201 ? '' : JSON.parse(res.text).Message });
      }
      const ok = saves.find((s) => s.status === 201);
      if (ok) {
        const name = ok.what.split(' ')[1];
        const res = await call(control, 'POST', `${server.api}/_sandbox/merchants/${a.SiteID}/snapshots/${name}/restore`);
        saves.push({ what: `restore ${name}`, status: res.status, ms: Math.round(res.ms), says: res.status === 200 ? '' : res.text.slice(0, 200) });
      }
    })();

    // B: one connection, a create due every 1000/RATE ms; its wait counts from when it was due.
    const bAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const waits = [];
    const answers = [];
    const failures = {};
    let sent = 0;
    const started = performance.now();
    const steady = (async () => {
      for (let n = 0; ; n++) {
        const due = started + (n * 1000) / RATE;
        if (due >= deadline) break;
        const now = performance.now();
        if (due > now) await new Promise((r) => setTimeout(r, due - now));
        const body = {
          Payment: {
            MerchantTransactionID: `b-${n}`,
            Amount: '1000',
            Currency: 'EUR',
            MethodID: 42,
            ReturnURL: 'https://shop.example/return',
            Customer: { Email: 'payer@example.com' },
            Splits: [{ SiteID: b.LinkedSiteIDs[0], Amount: '1000', MerchantTransactionID: `b-${n}-a` }],
          },
        };
        const res = await call(bAgent, 'POST', `${server.api}/v1/payments`, { auth: bAuth, body });
        sent++;
        waits.push(performance.now() - due);
        answers.push(res.ms);
        if (res.status !== 201) failures[res.status] = (failures[res.status] ?? 0) + 1;
      }
    })();
    await Promise.all([...flood, snapshots, steady]);

    // B's journal: one entry for each of its requests (the journal writes a few ms behind the answers).
    await new Promise((r) => setTimeout(r, 200));
    const journal = await call(control, 'GET', `${server.api}/_sandbox/merchants/${b.SiteID}/requests?PageSize=1`);
    const kept = journal.status === 200 ? JSON.parse(journal.text).TotalCount : NaN;
    const health = JSON.parse((await call(control, 'GET', `${server.api}/_sandbox/health`)).text);
    const sorted = [...waits].sort((x, y) => x - y);
    const answered = [...answers].sort((x, y) => x - y);
    const result = {
      seconds: DURATION_S,
      aRequests: flooded,
      aRequestsPerSecond: Math.round(flooded / DURATION_S),
      aSnapshots: saves,
      bRequests: sent,
      bFailures: failures,
      bP50ms: Math.round(pct(sorted, 50) * 10) / 10,
      bP99ms: Math.round(pct(sorted, 99) * 10) / 10,
      bMaxWaitMs: Math.round(sorted[sorted.length - 1] * 10) / 10,
      // From sending to the answer alone (a wait above counts the time a request was due and not sent yet, behind a slow one).
      bAnswerP99ms: Math.round(pct(answered, 99) * 10) / 10,
      bAnswerMaxMs: Math.round(answered[answered.length - 1] * 10) / 10,
      bJournalEntries: kept,
      bEntriesLost: Number.isNaN(kept) ? 'unknown' : Math.max(0, sent - kept),
      goals: { p99Under100ms: pct(sorted, 99) < 100, maxWaitUnder1s: sorted[sorted.length - 1] < 1000, noneLost: kept >= sent },
      databaseBytes: health.DatabaseBytes,
      merchantSnapshots: health.MerchantSnapshots,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    };
    console.log(JSON.stringify(result, null, 2));
    for (const ag of [control, floodAgent, bAgent]) ag.destroy();
  } finally {
    await server.stop();
  }
}

const timer = setTimeout(() => {
  log(`did not finish within ${TIMEOUT_S} s`);
  if (running?.child.exitCode === null) running.child.kill('SIGKILL');
  fs.rmSync(TMP, { recursive: true, force: true });
  process.exit(1);
}, TIMEOUT_S * 1000);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    fs.rmSync(TMP, { recursive: true, force: true });
    process.exit(130);
  });
}
timer.unref();
main()
  .catch((e) => {
    log(e.stack || String(e));
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(TMP, { recursive: true, force: true }));
