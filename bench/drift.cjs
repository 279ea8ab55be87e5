'use strict';
// The drift proxy's cost on the integration's path: the same paced load (RATE, 50 calls a second, for
// SECONDS, 10, each phase; one create for four reads of payments it made) first straight to an
// upstream sandbox (a process of its own), then through `startDrift` in front of it, the shadow running every call. Prints both
// p50s and their difference; exits 1 when the proxy adds more than LIMIT_MS (5) at p50. Loopback only,
// bounded in time, in memory. Needs `npm run build` first. Run: `node bench/drift.cjs`.
const { spawn } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(process.env.SANDBOX_ROOT || path.join(__dirname, '..'));
const RATE = Number(process.env.RATE || 50);
const SECONDS = Number(process.env.SECONDS || 10);
const LIMIT_MS = Number(process.env.LIMIT_MS || 5);

const body = (seq) =>
  JSON.stringify({
    Payment: {
      MerchantTransactionID: `bench-${seq}`,
      Amount: '1000',
      Currency: 'EUR',
      MethodID: 42,
      ReturnURL: 'https://shop.example/return',
      Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace' },
      BillingAddress: { Country: 'NL' },
      Splits: [
        { SiteID: 30202, Amount: '600', MerchantTransactionID: 'split-1' },
        { SiteID: 30203, Amount: '400', MerchantTransactionID: 'split-2' },
      ],
    },
  });

const p50 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Paced, not back to back: call i starts at i/RATE seconds, whatever the earlier ones took. */
async function phase(base, auth, label) {
  const ids = [];
  const times = [];
  const total = RATE * SECONDS;
  const t0 = performance.now();
  const calls = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    calls.push(
      (async () => {
        const started = performance.now();
        const create = i % 5 === 0 || ids.length === 0;
        const r = create
          ? await fetch(`${base}/v1/payments`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: body(`${label}-${i}`) })
          : await fetch(`${base}/v1/payments/${ids[i % ids.length]}`, { headers: { Authorization: auth } });
        const text = await r.text();
        times.push(performance.now() - started);
        if (create && r.status === 201) ids.push(JSON.parse(text).Payment.ID);
        else if (r.status >= 300) throw new Error(`${label}: call ${i} answered ${r.status}`);
      })(),
    );
  }
  await Promise.all(calls);
  return p50(times);
}

/** The upstream in a process of its own, as the real service is: its work is not the proxy's. */
function startUpstream() {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'split-sandbox'), 'start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--clock', 'manual', '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`the upstream sandbox exited (${code})`)));
    child.stdout.on('data', (c) => {
      out += c;
      const api = /^API\s+(\S+)$/m.exec(out);
      const card = /^Card\s+(\S+)$/m.exec(out);
      if (api && card) resolve({ baseUrl: api[1], cardBaseUrl: card[1], stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
  });
}

async function main() {
  const { startDrift } = require(path.join(ROOT, 'dist', 'index.js'));
  const upstream = await startUpstream();
  let drift;
  try {
    const auth = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
    // Warm both paths (JIT, connections) before measuring.
    drift = await startDrift({ upstream: upstream.baseUrl, upstreamCard: upstream.cardBaseUrl });
    for (let i = 0; i < 50; i++) await (await fetch(`${drift.apiUrl}/v1/payments`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: body(`warm-${i}`) })).text();
    await drift.idle();
    const alone = await phase(upstream.baseUrl, auth, 'alone');
    const proxied = await phase(drift.apiUrl, auth, 'proxied');
    await drift.idle();
    const differences = drift.report.list().length;
    const added = proxied - alone;
    console.log(`${RATE} calls/s for ${SECONDS} s: p50 upstream alone ${alone.toFixed(2)} ms, through the drift proxy ${proxied.toFixed(2)} ms (+${added.toFixed(2)} ms, limit ${LIMIT_MS} ms); ${differences} differences`);
    if (added > LIMIT_MS || differences > 0) process.exitCode = 1;
  } finally {
    if (drift) await drift.close();
    await upstream.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
