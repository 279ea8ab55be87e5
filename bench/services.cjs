'use strict';
// What a create and its scenario step cost in the services alone, without HTTP: the part of a create
// request's time that is split-sandbox's own work (validation, the rows it writes, the notification
// journal), next to the HTTP and Express work every server of the bench pays. Run after a build:
// `node bench/services.cjs` (taskset -c 0 in front pins it as the bench pins its servers).
// Status changes journal their notifications as in a server (the outbox); nothing is sent (no receiver).
// Creates commit in groups of 32 (what one turn of the server's event loop commits under wrk -c32),
// on a durable file database in a temporary folder; then every step falls due and runs, 32 a commit.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(process.env.SANDBOX_ROOT || path.join(__dirname, '..'));
const N = Number(process.env.N || 20_000);
const ROUNDS = Number(process.env.ROUNDS || 3);
/** Creates (and their steps) before the timed ones, each round: compiled code, a database past its first pages. */
const WARM = Number(process.env.WARM_CREATES || 2000);
const GROUP = 32;

// The services as main composes them, without the server around them (express, the HTTP layer): a
// build from before dist/main/services.js has them in dist/main.
const SERVICES = path.join(ROOT, 'dist', 'main', 'services.js');
const { createServices } = require(fs.existsSync(SERVICES) ? SERVICES : path.join(ROOT, 'dist', 'main'));
const { createOutbox } = require(path.join(ROOT, 'dist', 'notifications', 'outbox'));
const { DEFAULT_CONFIG } = require(path.join(ROOT, 'dist', 'config'));
const { Store } = require(path.join(ROOT, 'dist', 'store', 'store'));
const { createPayment } = require(path.join(ROOT, 'dist', 'services', 'payments.service'));
const { runJob } = require(path.join(ROOT, 'dist', 'services', 'steps.service'));

/** The bench's create body (bench/create-body.json): 3 splits, a customer and a billing address. */
const CREATE_BODY = fs.readFileSync(path.join(__dirname, 'create-body.json'), 'utf8').trim();
const body = (seq) => CREATE_BODY.replaceAll('{SEQ}', seq);

function round(r) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-services-'));
  const store = Store.open(path.join(dir, 'services.db'));
  try {
    const config = { ...DEFAULT_CONFIG, seed: 1, clock: 'manual' };
    const ctx = createServices(config, store);
    // The notification outbox, as a server has it: each status change journals its notification.
    const url = () => 'http://127.0.0.1:8080';
    ctx.changes = createOutbox({ baseUrl: url, cardBaseUrl: url, defaultUrl: config.notifyUrl, journaled: () => {} });
    store.groupCommits();
    const site = store.sites.get(30201);
    const creates = (from, count) => {
      for (let i = from; i < from + count; i++) {
        createPayment(ctx, site, JSON.parse(body(`${r}-${i}`)));
        if (i % GROUP === GROUP - 1) store.flush();
      }
      store.flush();
    };
    creates(-WARM, WARM);
    let t0 = performance.now();
    creates(0, N);
    const create = ((performance.now() - t0) * 1000) / N;
    // Every step is due once the clock has moved past the scenario's 2 s.
    ctx.clock.set(ctx.clock.now() + 60_000);
    const now = ctx.clock.now();
    let steps = 0;
    t0 = performance.now();
    for (let ran = -1; ran !== 0; steps += ran) {
      ran = 0;
      store.tx(() => {
        for (let job = store.jobs.nextDue(now); job && ran < GROUP; job = store.jobs.nextDue(now), ran++) runJob(ctx, job);
      });
      store.flush();
    }
    const step = ((performance.now() - t0) * 1000) / steps;
    return { create, step, steps };
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (let r = 0; r < ROUNDS; r++) {
  const x = round(r);
  results.push(x);
  console.log(`round ${r + 1}: create ${x.create.toFixed(1)} µs, its step ${x.step.toFixed(1)} µs (${N} creates, ${x.steps} steps)`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `median: create ${median(results.map((x) => x.create)).toFixed(1)} µs, step ${median(results.map((x) => x.step)).toFixed(1)} µs, ` +
    `together ${median(results.map((x) => x.create + x.step)).toFixed(1)} µs`,
);
