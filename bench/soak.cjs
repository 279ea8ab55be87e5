'use strict';
// Soak: mixed traffic against one sandbox for a long while (default 30 min), with a flaky
// notification receiver, sampling the server's RSS, the request latency, the database file and the
// payments stored every minute. Loopback only, bounded in time. Writes bench/soak.md (SOAK_OUT: another
// file). Run with `npm run soak`; RETAIN=5m runs the sandbox with --retain 5m, and its report goes in
// its own section of the file, after the plain run's.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MINUTES = Number(process.env.MINUTES || 30);
const CLIENTS = Number(process.env.CLIENTS || 8);
const RETAIN = process.env.RETAIN || '';
const PORT = Number(process.env.SOAK_PORT || 18600);
const OUT = process.env.SOAK_OUT || path.join(__dirname, 'soak.md');
/** Where the report of a run with retention starts in the file. */
const RETAIN_SECTION = '<!-- soak with --retain -->';
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-soak-'));
const AUTH = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });

function call(method, url, body) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(url, { method, agent, headers: { Authorization: AUTH, 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A receiver that mostly answers 204, sometimes 500, sometimes only after 2 s. */
function flakyReceiver() {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      if (n % 10 === 0) return void ((res.statusCode = 500), res.end());
      if (n % 25 === 0) return void setTimeout(() => ((res.statusCode = 204), res.end()), 2000);
      res.statusCode = 204;
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/hook`, count: () => n, server })));
}

async function main() {
  const rx = await flakyReceiver();
  // SOAK_NODE_ARGS: flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.SOAK_NODE_ARGS || '').split(' ').filter(Boolean);
  const retain = RETAIN ? ['--retain', RETAIN] : [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'bin', 'split-sandbox'), 'start', '--port', String(PORT), '--card-port', '0', '--db', path.join(TMP, 'soak.db'), '--log-level', 'error', '--notify-url', rx.url, '--notify-timeout', '1s', ...retain], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Only errors are logged: every one is kept for the report.
  const serverErrors = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (t) => {
    process.stderr.write(t);
    // eslint-disable-next-line no-control-regex
    if (serverErrors.length < 20) serverErrors.push(...t.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter(Boolean).map((l) => l.slice(0, 400)));
  });
  await new Promise((r) => child.stdout.once('data', r));
  const api = `http://127.0.0.1:${PORT}`;
  const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024);

  const size = (name) => {
    try {
      return Math.round(fs.statSync(path.join(TMP, name)).size / 1048576);
    } catch {
      return 0;
    }
  };
  const end = Date.now() + MINUTES * 60_000;
  let minute = { latencies: [], errors: 0, requests: 0 };
  const samples = [];
  let seq = 0;
  const authorized = [];
  const captured = [];
  const unexpected = [];
  // The sandbox's own account (history and scenario steps) of the first few payments that surprised.
  const stories = [];
  const explain = async (id, at) => {
    if (stories.length >= 3) return;
    const r = await call('GET', `${api}/_sandbox/payments/${id}`);
    stories.push({ id, at, History: r.body?.History, Steps: r.body?.Steps });
  };
  const expect = (r, ok, what) => {
    minute.requests++;
    minute.latencies.push(r.ms);
    if (!ok.includes(r.status)) {
      minute.errors++;
      if (unexpected.length < 20) unexpected.push(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    }
  };

  const client = async (c) => {
    while (Date.now() < end) {
      const i = seq++;
      const created = await call('POST', `${api}/v1/payments`, {
        Payment: {
          MerchantTransactionID: `soak-${c}-${i}`, Amount: 1000, Currency: 'EUR', MethodID: 42, ReturnURL: 'https://shop.example/r',
          Splits: [{ SiteID: 30202, Amount: 600, MerchantTransactionID: `a-${i}` }, { SiteID: 30203, Amount: 400, MerchantTransactionID: `b-${i}` }],
        },
      });
      expect(created, [201], 'create');
      if (created.status === 201) authorized.push({ id: created.body.Payment.ID, splits: created.body.Payment.Splits.map((s) => s.ID), at: Date.now() });
      expect(await call('GET', `${api}/v1/payments/${created.body?.Payment?.ID ?? 1}`), [200], 'get');
      expect(await call('GET', `${api}/v1/payments?pageSize=10&pageIndex=${1 + (i % 5)}`), [200], 'list');
      // The two-step scenario authorizes after 2 s of sandbox time; under this load its steps can run
      // a second or so late, so captures wait 6 s.
      while (authorized.length && Date.now() - authorized[0].at > 6000) {
        const p = authorized.shift();
        const r = await call('POST', `${api}/v1/payments/${p.id}/capture`);
        expect(r, [200], `capture ${p.id}`);
        if (r.status === 200) captured.push(p);
        else await explain(p.id, new Date().toISOString());
      }
      const p = captured.shift();
      if (p) expect(await call('POST', `${api}/v1/payments/${p.id}/splits/${p.splits[0]}/refunds`, { Refund: { Amount: 100 } }), [201], `refund ${p.id}`);
    }
  };

  const sampler = setInterval(async () => {
    const l = minute.latencies.sort((a, b) => a - b);
    const done = minute;
    minute = { latencies: [], errors: 0, requests: 0 };
    const health = (await call('GET', `${api}/_sandbox/health`)).body;
    samples.push({
      minute: samples.length + 1,
      rss: rss(),
      requests: done.requests,
      p50: l[Math.floor(l.length * 0.5)] ?? 0,
      p99: l[Math.floor(l.length * 0.99)] ?? 0,
      errors: done.errors,
      notifications: rx.count(),
      dbMb: size('soak.db'),
      walMb: size('soak.db-wal'),
      payments: health.Payments,
      freeMb: Math.round(health.DatabaseFreeBytes / 1048576),
    });
    console.error('[soak]', JSON.stringify(samples.at(-1)));
  }, 60_000);

  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  clearInterval(sampler);
  const journal = (await call('GET', `${api}/_sandbox/notifications?State=failed`)).body.Notifications.length;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rx.server.close();
  agent.destroy();
  fs.rmSync(TMP, { recursive: true, force: true });

  const first = samples.slice(0, 3);
  const last = samples.slice(-3);
  const avg = (xs, k) => xs.reduce((s, x) => s + x[k], 0) / Math.max(1, xs.length);
  // With retention, the file should be flat once the first payments are older than the period.
  const settled = samples.slice(Math.min(samples.length - 1, Math.ceil(parseRetainMinutes(RETAIN)) + 1));
  const fileLine = !RETAIN
    ? ''
    : samples.length === 0
      ? '\nThe run was too short for a sample.\n'
      : `\nDatabase file with \`--retain ${RETAIN}\`: ${samples.map((x) => x.dbMb).join(', ')} MB at the end of each minute; from minute ${settled[0]?.minute ?? '-'} on, ${Math.min(...settled.map((x) => x.dbMb))}–${Math.max(...settled.map((x) => x.dbMb))} MB with ${Math.min(...settled.map((x) => x.payments))}–${Math.max(...settled.map((x) => x.payments))} payments stored.\n`;
  const md = `${RETAIN ? `## With \`--retain ${RETAIN}\`` : '# Soak'}

Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`${RETAIN ? `RETAIN=${RETAIN} ` : ''}npm run soak\` (bench/soak.cjs): ${MINUTES} minutes of mixed traffic from ${CLIENTS} clients
(create with 2 splits, get, list pages, capture once authorized by the two-step scenario, refund a split) against one
sandbox on a durable SQLite file, real clock, notifications to a receiver that answers 500 to every 10th and waits 2 s
on every 25th (timeout 1 s, so those are retried). Machine: ${os.cpus().length} × ${os.cpus()[0].model}, Node ${process.version}.

| minute | server RSS MB | requests | p50 ms | p99 ms | unexpected answers | notifications received (total) | database MB | WAL MB | free MB | payments stored |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${samples.map((s) => `| ${s.minute} | ${s.rss} | ${s.requests} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.errors} | ${s.notifications} | ${s.dbMb} | ${s.walMb} | ${s.freeMb} | ${s.payments} |`).join('\n')}
${fileLine}
Summary: RSS ${avg(first, 'rss').toFixed(0)} MB in the first three minutes, ${avg(last, 'rss').toFixed(0)} MB in the last three;
p99 ${avg(first, 'p99').toFixed(1)} ms first, ${avg(last, 'p99').toFixed(1)} ms last; unexpected answers in all: ${samples.reduce((s, x) => s + x.errors, 0)};
notifications given up after every retry: ${journal}.
${unexpected.length ? `\nThe unexpected answers (first ${unexpected.length}):\n\n${unexpected.map((u) => `- ${u}`).join('\n')}\n` : ''}${
    stories.length ? `\nThe sandbox's story of the first payments that surprised (capture sent at the time shown):\n\n${stories.map((s) => '```json\n' + JSON.stringify(s) + '\n```').join('\n')}\n` : ''
  }${serverErrors.length ? `\nServer errors logged (first ${serverErrors.length}):\n\n${serverErrors.map((l) => `    ${l}`).join('\n')}\n` : '\nThe server logged no error.\n'}`;
  // The plain run's report and the one with retention share the file, each replacing only its own.
  let existing = '';
  try {
    existing = fs.readFileSync(OUT, 'utf8');
  } catch {
    // A first report.
  }
  const [plain, withRetain] = existing.includes(RETAIN_SECTION) ? existing.split(RETAIN_SECTION) : [existing, ''];
  fs.writeFileSync(OUT, RETAIN ? `${plain.trimEnd()}\n\n${RETAIN_SECTION}\n${md}` : withRetain ? `${md.trimEnd()}\n\n${RETAIN_SECTION}${withRetain}` : md);
  process.stdout.write(md);
}

/** `5m` → 5, `1h` → 60, `30s` → 0.5. */
function parseRetainMinutes(text) {
  const m = /^([0-9.]+)(s|m|h|d)$/.exec(text || '');
  if (!m) return 0;
  return Number(m[1]) * { s: 1 / 60, m: 1, h: 60, d: 1440 }[m[2]];
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
