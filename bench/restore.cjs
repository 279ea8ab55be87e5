'use strict';
// Restoring a large snapshot: how long it takes, and how long health answers take meanwhile. Builds a
// database of SIZE_MB (300) megabytes of notifications beside one payment, saves it as a snapshot,
// restores it while health is asked every 5 ms, and prints the restore's time, the longest health
// answer during it and the answers other than 200 that the API gave meanwhile. Loopback only, bounded
// in time (TIMEOUT_S, 600), removes what it made. Needs `npm run build` first. Run: `node bench/restore.cjs`.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const Database = require('better-sqlite3');

const ROOT = path.resolve(__dirname, '..');
const SIZE_MB = Number(process.env.SIZE_MB || 300);
const TIMEOUT_S = Number(process.env.TIMEOUT_S || 600);
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-restore-'));
const DB = path.join(TMP, 'big.db');
const AUTH = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');

function call(method, url, body) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(url, { method, headers: { Authorization: AUTH, 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function startServer() {
  const ready = path.join(TMP, 'ready.json');
  fs.rmSync(ready, { force: true });
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'split-sandbox'), 'start', '--port', '0', '--card-port', '0', '--db', DB, '--log-level', 'error', '--ready-file', ready], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  while (!fs.existsSync(ready)) {
    if (child.exitCode !== null) throw new Error('the sandbox did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 50));
  const { BaseURL } = JSON.parse(fs.readFileSync(ready, 'utf8'));
  return { api: BaseURL, stop: () => (child.kill('SIGTERM'), exited) };
}

async function main() {
  // One payment through the API, so that the rows below point at a real one.
  let server = await startServer();
  const created = await call('POST', `${server.api}/v1/payments`, JSON.parse(fs.readFileSync(path.join(__dirname, 'create-body.json'), 'utf8')));
  if (created.status !== 200 && created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  await server.stop();

  // The bulk, written by SQLite itself while no server runs: notifications of ~1 KB each.
  const t0 = performance.now();
  const db = new Database(DB);
  const p = db.prepare('SELECT id, owner_site_id FROM payments LIMIT 1').get();
  const rows = Math.round((SIZE_MB * 1048576) / 1200);
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO notifications (payment_id, site_id, status_id, body, state, attempts, next_attempt_at, created_at, delivered_at)
     SELECT ?, ?, 2, json_object('PaymentID', ?, 'N', i, 'Pad', hex(randomblob(500))), 'delivered', 1, 1764000000000, 1764000000000, 1764000000000 FROM n`,
  ).run(rows, p.id, p.owner_site_id, p.id);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const built = Math.round(fs.statSync(DB).size / 1048576);
  console.log(`built ${built} MB (${rows} notifications) in ${Math.round(performance.now() - t0)} ms`);

  server = await startServer();
  const saved = await call('POST', `${server.api}/_sandbox/snapshots`, { Name: 'big' });
  if (saved.status !== 201) throw new Error(`save answered ${saved.status}: ${saved.text}`);
  console.log(`snapshot saved in ${Math.round(saved.ms)} ms`);

  let restoring = true;
  let longestHealth = 0;
  let healthCalls = 0;
  let longestApi = 0;
  const apiStatuses = {};
  const poll = (async () => {
    while (restoring) {
      const h = await call('GET', `${server.api}/_sandbox/health`);
      healthCalls++;
      longestHealth = Math.max(longestHealth, h.ms);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const api = (async () => {
    while (restoring) {
      const r = await call('GET', `${server.api}/v1/payments?PageSize=1`);
      longestApi = Math.max(longestApi, r.ms);
      apiStatuses[r.status] = (apiStatuses[r.status] || 0) + 1;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, 50));
  const restored = await call('POST', `${server.api}/_sandbox/snapshots/big/restore`);
  restoring = false;
  await Promise.all([poll, api]);
  if (restored.status !== 200) throw new Error(`restore answered ${restored.status}: ${restored.text}`);
  console.log(`restore of ${built} MB: ${Math.round(restored.ms)} ms`);
  console.log(`health during it: ${healthCalls} answers, the longest ${Math.round(longestHealth)} ms`);
  console.log(`API during it: ${JSON.stringify(apiStatuses)}, the longest ${Math.round(longestApi)} ms`);
  await server.stop();
}

const timer = setTimeout(() => {
  console.error(`restore bench: gave up after ${TIMEOUT_S} s`);
  process.exit(1);
}, TIMEOUT_S * 1000);
main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    clearTimeout(timer);
    fs.rmSync(TMP, { recursive: true, force: true });
  });
