'use strict';
// How long a marketplace's save, restore and reset hold the main thread (and with it the database's writer):
// an embedded sandbox on a file database, one marketplace whose journal holds N (1000) entries of
// 64 KiB bodies, one save and one restore of it, then its reset. Prints, for each, the longest the event loop was held
// (perf_hooks' delay monitor: every other request waits at most that long), its steps, and its time in
// all. Loopback only, on free ports, bounded by TIMEOUT_S (300); removes what it made. Needs
// `npm run build` first. Run: `node bench/snapshot-steps.cjs`.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const ROOT = path.resolve(process.env.SANDBOX_ROOT || path.join(__dirname, '..'));
const { startSandbox } = require(path.join(ROOT, 'dist', 'index.js'));
const N = Number(process.env.N || 1000);
const TIMEOUT_S = Number(process.env.TIMEOUT_S || 300);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-steps-'));
  const sb = await startSandbox({ port: 0, cardPort: 0, host: '127.0.0.1', db: path.join(dir, 'steps.db'), quiet: true, clock: 'manual' });
  try {
    const post = async (url, body, auth) => {
      const headers = { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) };
      const res = await fetch(sb.baseUrl + url, { method: 'POST', headers, body });
      return { status: res.status, text: await res.text() };
    };
    const a = JSON.parse((await post('/_sandbox/merchants', JSON.stringify({ LinkedSites: 1 }))).text).Merchant;
    const auth = 'Basic ' + Buffer.from(`${a.SiteID}:${a.APIKey}`).toString('base64');
    const big = JSON.stringify({ Payment: { MerchantTransactionID: 'flood', Description: 'x'.repeat(64 * 1024) } });
    let sent = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < N) {
          sent++;
          await post('/v1/payments', big, auth);
        }
      }),
    );
    let steps = 0;
    sb.services.betweenSteps = () => (steps++, new Promise((resolve) => setImmediate(resolve)));
    const measure = async (what, fn) => {
      const delay = monitorEventLoopDelay({ resolution: 2 });
      steps = 0;
      delay.enable();
      const t0 = performance.now();
      const res = await fn();
      const ms = performance.now() - t0;
      delay.disable();
      return { what, status: res.status, steps, totalMs: Math.round(ms), longestHoldMs: Math.round(delay.max / 1e6), p99HoldMs: Math.round(delay.percentile(99) / 1e6) };
    };
    const save = await measure('save', () => post(`/_sandbox/merchants/${a.SiteID}/snapshots`, JSON.stringify({ Name: 'big' })));
    const bytes = fs.statSync(path.join(dir, 'steps.db.merchant-snapshots', String(a.SiteID), 'big.db')).size;
    const restore = await measure('restore', () => post(`/_sandbox/merchants/${a.SiteID}/snapshots/big/restore`, ''));
    // A marketplace's reset empties its data and its journal share (some 64 MiB at the quota's default).
    const reset = await measure('reset', () => post(`/_sandbox/merchants/${a.SiteID}/reset`, ''));
    console.log(JSON.stringify({ entries: N, snapshotBytes: bytes, save, restore, reset, loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100) }, null, 2));
  } finally {
    await sb.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

setTimeout(() => {
  console.error(`[steps] did not finish within ${TIMEOUT_S} s`);
  process.exit(1);
}, TIMEOUT_S * 1000).unref();
main().catch((e) => {
  console.error(e.stack || String(e));
  process.exitCode = 1;
});
