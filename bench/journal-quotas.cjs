'use strict';
// The request journal's quotas under floods: MARKETS (3) new marketplaces each send PER (1100) creates
// of a 64 KiB body from 8 connections (400, whose answer echoes the body: ~128 KiB entries), then
// POOL (300) the same with a wrong key (401), into a file database whose journal file is bounded at
// FILE_MIB (128) MiB. Prints after each flood the journal's health figures and the file's size, and
// the file on disk at the end: what docs/journal.md's figures are. Needs `npm run build` first. In-process,
// loopback only; removes what it made. Run: `node bench/journal-quotas.cjs`.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { startSandbox } = require(path.resolve(__dirname, '..', 'dist', 'main.js'));

const MiB = 1024 * 1024;
const MARKETS = Number(process.env.MARKETS || 3);
const PER = Number(process.env.PER || 1100);
const POOL = Number(process.env.POOL || 300);
const FILE_MIB = Number(process.env.FILE_MIB || 128);
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-journal-'));
const DB = path.join(TMP, 'sandbox.db');
const CAP = 65536;
const SHELL = '{"Payment":{"MerchantTransactionID":""}}';
const BIG = `{"Payment":{"MerchantTransactionID":"${'x'.repeat(CAP - SHELL.length)}"}}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function post(base, auth, body) {
  return new Promise((resolve, reject) => {
    const u = new URL(`${base}/v1/payments`);
    const req = http.request(
      { agent, host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function flood(base, auth, n) {
  const statuses = {};
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent < n) {
        sent++;
        const s = await post(base, auth, BIG);
        statuses[s] = (statuses[s] || 0) + 1;
      }
    }),
  );
  return statuses;
}

const mib = (b) => `${(b / MiB).toFixed(1)} MiB`;
const figures = (h) =>
  `entries ${h.Entries}, stored ${mib(h.StoredBytes)}, largest marketplace ${mib(h.LargestMarketplaceStoredBytes)}, pool ${h.Unauthenticated.Entries} (${mib(h.Unauthenticated.StoredBytes)}), file ${mib(h.FileBytes)} (free ${mib(h.FileFreeBytes)})`;

(async () => {
  const sb = await startSandbox({ port: 0, cardPort: 0, db: DB, quiet: true, requestJournalFileBytes: FILE_MIB * MiB });
  const health = async () => (await (await fetch(`${sb.baseUrl}/_sandbox/health`)).json()).RequestJournal;
  try {
    for (let m = 1; m <= MARKETS; m++) {
      const made = await (await fetch(`${sb.baseUrl}/_sandbox/merchants`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json();
      const auth = 'Basic ' + Buffer.from(`${made.Merchant.SiteID}:${made.Merchant.APIKey}`).toString('base64');
      const started = Date.now();
      const statuses = await flood(sb.baseUrl, auth, PER);
      console.log(`marketplace ${m}: ${JSON.stringify(statuses)} in ${Date.now() - started} ms; ${figures(await health())}`);
    }
    const statuses = await flood(sb.baseUrl, 'Basic ' + Buffer.from('30201:wrong').toString('base64'), POOL);
    console.log(`wrong key: ${JSON.stringify(statuses)}; ${figures(await health())}`);
  } finally {
    await sb.stop();
    agent.destroy();
  }
  console.log(`on disk: ${mib(fs.statSync(`${DB}-requests`).size)} (quota ${FILE_MIB} MiB of stored bytes)`);
  fs.rmSync(TMP, { recursive: true, force: true });
})().catch((e) => {
  console.error(e);
  fs.rmSync(TMP, { recursive: true, force: true });
  process.exit(1);
});
