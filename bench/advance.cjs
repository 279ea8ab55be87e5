'use strict';
// One manual clock advance that runs many due steps: how long it takes. Starts an embedded sandbox
// (file database, manual clock, the two-step scenario), creates N (10,000) payments through the API,
// each with an authorization step due a second later, then times `sandbox.clock.advance(5)`, which
// runs every step and delivers nothing (no notification URL). Prints the time and the steps run. Loopback
// only; removes what it made. Needs `npm run build` first. Run: `node bench/advance.cjs` (`N=…`),
// `taskset -c 0` in front to pin it; `SANDBOX_ROOT=../old` measures another built copy.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(process.env.SANDBOX_ROOT || path.join(__dirname, '..'));
const N = Number(process.env.N || 10_000);
const BODY = fs.readFileSync(path.join(__dirname, 'create-body.json'), 'utf8').trim();

async function main() {
  const { startSandbox } = require(path.join(ROOT, 'dist', 'index.js'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-advance-'));
  let sandbox;
  try {
    sandbox = await startSandbox({ port: 0, cardPort: 0, db: path.join(dir, 'advance.db'), clock: 'manual', scenario: 'two-step', quiet: true });
    const auth = 'Basic ' + Buffer.from(`${sandbox.merchant.SiteID}:${sandbox.merchant.APIKey}`).toString('base64');
    for (let i = 0; i < N; i++) {
      const r = await fetch(`${sandbox.baseUrl}/v1/payments`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: BODY.replaceAll('{SEQ}', `advance-${i}`),
      });
      if (r.status !== 201) throw new Error(`create ${i} answered ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
    }
    const t0 = performance.now();
    await sandbox.clock.advance(5);
    const ms = performance.now() - t0;
    const list = await fetch(`${sandbox.baseUrl}/v1/payments?statusID=9&pageSize=1`, { headers: { Authorization: auth } });
    const authorized = (await list.json()).TotalCount;
    console.log(`advance over ${N} due steps: ${Math.round(ms)} ms (${((ms * 1000) / N).toFixed(0)} µs a step); ${authorized} payments authorized`);
    if (authorized !== N) process.exitCode = 1;
  } finally {
    if (sandbox) await sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
