'use strict';
// The turns of a server's event loop under load and what ran in each: a preload for bench/cpu.cjs,
//   UNBUNDLED=1 CONNS=32 NODE_FLAGS="-r ./bench/turns.cjs" node bench/cpu.cjs /tmp/x.db 'POST /v1/payments'
// (UNBUNDLED: it wraps functions of dist/, which the bundle does not load). When the server ends it prints,
// on stderr, the turns by length, and what the turns that held the slowest 1% of the requests held: their
// requests, scenario steps, commits, GC pauses and CPU (the CPU tells a turn's own work from the time it
// waited for the core). TURNS_OUT=file also writes every turn there as JSON lines.
const fs = require('node:fs');
const path = require('node:path');
const { PerformanceObserver, performance } = require('node:perf_hooks');
const dc = require('node:diagnostics_channel');

const DIST = path.join(__dirname, '..', 'dist');
/** The first turns are not counted (start-up, the warm-up run of bench/cpu.cjs). */
const SKIP = Number(process.env.TURNS_SKIP || 200);

const turns = [];
let turn = null;

const begin = () => ({ t0: performance.now(), cpu0: process.cpuUsage(), requests: 0, steps: 0, stepsMs: 0, commits: 0, commitMs: 0, gc: [] });

// A turn is timed from the first thing seen in it (a request read, a commit, a step) to its check phase,
// where a setImmediate of that turn runs: from there one is set for each turn while turns have work, and
// none once one had none, so that an idle server is not kept spinning.
function watch() {
  if (turn !== null) return;
  turn = begin();
  setImmediate(boundary);
}

function boundary() {
  const t = turn;
  const cpu = process.cpuUsage(t.cpu0);
  turns.push({
    ms: performance.now() - t.t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    requests: t.requests,
    steps: t.steps,
    stepsMs: t.stepsMs,
    commits: t.commits,
    commitMs: t.commitMs,
    gc: t.gc,
  });
  turn = null;
  if (t.requests + t.steps + t.commits > 0) watch();
}

dc.subscribe('http.server.request.start', () => {
  watch();
  turn.requests++;
});
// A GC entry is reported after its pause: it is counted in the turn that reports it.
const KINDS = { 1: 'scavenge', 2: 'minor-ms', 4: 'mark-compact', 8: 'incremental', 16: 'weak' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) turn?.gc.push([KINDS[e.detail?.kind] ?? String(e.detail?.kind), e.duration]);
}).observe({ entryTypes: ['gc'] });

function timed(obj, name, onDone) {
  const real = obj[name];
  obj[name] = function (...args) {
    const t = performance.now();
    try {
      return real.apply(this, args);
    } finally {
      watch();
      onDone(turn, performance.now() - t);
    }
  };
}

process.nextTick(() => {
  const { Store } = require(path.join(DIST, 'store', 'store.js'));
  timed(Store.prototype, 'flush', (t, ms) => {
    t.commits++;
    t.commitMs += ms;
  });
  const steps = require(path.join(DIST, 'services', 'steps.service.js'));
  timed(steps, 'runJob', (t, ms) => {
    t.steps++;
    t.stepsMs += ms;
  });
});

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const mean = (xs, f) => (xs.length === 0 ? 0 : xs.reduce((a, x) => a + f(x), 0) / xs.length);
const r1 = (x) => Math.round(x * 10) / 10;

function report() {
  const counted = turns.slice(SKIP).filter((t) => t.requests + t.steps + t.commits > 0);
  if (counted.length === 0) return;
  if (process.env.TURNS_OUT) fs.writeFileSync(process.env.TURNS_OUT, counted.map((t) => JSON.stringify(t)).join('\n') + '\n');
  // Each request as the turn it was read in: the slowest 1% of the requests, by that turn's length.
  const byRequest = counted.flatMap((t) => Array(t.requests).fill(t));
  const slowest = [...new Set([...byRequest].sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(byRequest.length / 100)))];
  const full = counted.filter((t) => t.requests > 0);
  const gcKinds = (ts) => {
    const n = {};
    for (const t of ts) for (const [k] of t.gc) n[k] = (n[k] || 0) + 1;
    return JSON.stringify(n);
  };
  const describe = (label, ts) =>
    `${label}: ${ts.length} turns, ${r1(mean(ts, (t) => t.ms))} ms (${r1(mean(ts, (t) => t.cpuMs))} ms CPU), ${r1(mean(ts, (t) => t.requests))} requests, ` +
    `${r1(mean(ts, (t) => t.steps))} steps (${r1(mean(ts, (t) => t.stepsMs))} ms), ${r1(mean(ts, (t) => t.commits))} commits (${r1(mean(ts, (t) => t.commitMs))} ms), ` +
    `GC ${r1(mean(ts, (t) => t.gc.reduce((a, g) => a + g[1], 0)))} ms ${gcKinds(ts)}`;
  const lines = [
    `turns: ${counted.length}, with requests ${full.length}; length p50 / p90 / p99 / max ${r1(q(counted.map((t) => t.ms), 0.5))} / ${r1(q(counted.map((t) => t.ms), 0.9))} / ${r1(q(counted.map((t) => t.ms), 0.99))} / ${r1(Math.max(...counted.map((t) => t.ms)))} ms`,
    `length seen by requests p50 / p99: ${r1(q(byRequest.map((t) => t.ms), 0.5))} / ${r1(q(byRequest.map((t) => t.ms), 0.99))} ms`,
    describe('turns with requests', full),
    describe('turns holding the slowest 1% of requests', slowest),
    describe('turns with steps', full.filter((t) => t.steps > 0)),
    describe('turns without steps', full.filter((t) => t.steps === 0)),
  ];
  process.stderr.write(lines.map((l) => `TURNS ${l}\n`).join(''));
}

// Written as the server ends (bench/cpu.cjs stops it with SIGTERM), after its own stop.
process.once('exit', report);
