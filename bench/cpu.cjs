'use strict';
// CPU per request of one load, which a busy machine moves far less than its rate: the server's user +
// system time (from /proc) over a wrk run, divided by the requests it answered.
//   node bench/cpu.cjs <db> <path> [start flags…]   (after npm run build; DURATION 5 s, CONNS 8, PROF=dir: a --cpu-prof there,
//   UNBUNDLED=1: run dist/cli rather than the bundle, so that a profile names the files, NODE_FLAGS: node flags
//   for the server, MEMORY=1: also the server's memory after the load, split into V8's heap spaces and the rest)
// The path is asked with the default bench credentials; the same database file is started as given.
// A path `POST /v1/payments` sends the bench's create body (bench/create-body.json), a fresh one each request.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(process.env.SANDBOX_ROOT || path.join(__dirname, '..'));
const [db, route, ...flags] = process.argv.slice(2);
const DURATION = Number(process.env.DURATION || 5);
const CONNS = Number(process.env.CONNS || 8);
const AUTH = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
const TICK = 100; // clock ticks a second, as /proc counts them (USER_HZ)

const cpuMs = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICK;
};

async function main() {
  const post = /^POST\s+/.test(route);
  const target = route.replace(/^(GET|POST)\s+/, '');
  const probe = process.env.MEMORY === '1' ? path.join(require('node:os').tmpdir(), `split-sandbox-memory-${process.pid}.json`) : null;
  const node = [
    ...(process.env.NODE_FLAGS || '').split(/\s+/).filter(Boolean),
    ...(probe ? ['-r', path.join(__dirname, 'memory-probe.cjs')] : []),
    ...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROF] : []),
  ];
  // UNBUNDLED=1: the compiled files rather than the bundle, so that a profile names them.
  const cli = process.env.UNBUNDLED === '1' ? ['-e', `require(${JSON.stringify(path.join(ROOT, 'dist', 'cli', 'program.js'))}).run(process.argv.slice(0, 1).concat(process.argv))`] : [path.join(ROOT, 'bin', 'split-sandbox')];
  const child = spawn(process.execPath, [...node, ...cli, 'start', '--port', '0', '--card-port', '0', '--db', db, '--quiet', ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: probe ? { ...process.env, MEMORY_PROBE: probe } : process.env,
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  let url;
  while (!(url = /^API {2}(http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1])) await new Promise((r) => setTimeout(r, 20));
  const body = post ? { METHOD: 'POST', BODY: fs.readFileSync(path.join(__dirname, 'create-body.json'), 'utf8').trim() } : {};
  const run = (d) =>
    execFileSync('wrk', ['-t1', `-c${CONNS}`, `-d${d}s`, '-s', path.join(__dirname, 'wrk.lua'), `${url}${target}`], { env: { ...process.env, AUTH, CONNS: String(CONNS), RAMP_MS: '0', ...body }, encoding: 'utf8' });
  run(1);
  const before = cpuMs(child.pid);
  const r = JSON.parse(/BENCH (\{.*\})/.exec(run(DURATION))[1]);
  const used = cpuMs(child.pid) - before;
  const rss = Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024);
  let memory = '';
  if (probe) {
    child.kill('SIGUSR2');
    for (let i = 0; i < 100 && !fs.existsSync(probe); i++) await new Promise((res) => setTimeout(res, 20));
    try {
      memory = `; memory ${fs.readFileSync(probe, 'utf8')} (MB)`;
    } finally {
      fs.rmSync(probe, { force: true });
    }
  }
  child.kill('SIGTERM');
  await new Promise((res) => child.once('exit', res));
  process.stdout.write(`${route} ${flags.join(' ')}: ${r.requests} requests, ${Math.round(r.rps)} req/s, ${((used * 1000) / r.requests).toFixed(0)} µs CPU a request (${used} ms), RSS ${rss} MB, ${r.non2xx} non-2xx${memory}\n`);
}
main();
