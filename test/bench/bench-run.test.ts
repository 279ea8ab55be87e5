// bench/run.cjs looks for its tools before it starts anything, listens on free ports, and stops every
// process it started on any exit. Run with a fake wrk that hangs or fails; the benchmark itself never runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ROOT, ensureBuilt } from '../cli/process';

const RUN = join(ROOT, 'bench', 'run.cjs');

// The scripts' temporary folder (their TMPDIR) is one of this file's own, in memory where the system
// has such a place: their databases are durable files, whose syncs to a disk are not what is tested.
const TMP = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'split-sandbox-benchtest-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** The benchmark's own temporary folders (it names them split-sandbox-bench-*). */
const benchDirs = () => new Set(readdirSync(TMP).filter((d) => d.startsWith('split-sandbox-bench-')));

/** Processes whose command line names `text`. */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(text)) pids.push(Number(d));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The create runs alone: what these tests watch (the tool check, the first server and wrk, the refusal
// counts) all happens there. ONLY=create would run the cold starts first, a dozen servers started and
// stopped for nothing; a list naming create alone does not.
const CREATE_ALONE = 'create,';

function bench(env: Record<string, string>): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [RUN], { cwd: ROOT, env: { ...process.env, TMPDIR: TMP, RUNS: '1', WARMUP: '0', DURATION: '1', ONLY: CREATE_ALONE, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdout!.resume();
  const exited = new Promise<number | null>((r) => child.once('exit', (code, signal) => r(code ?? (signal ? -1 : null))));
  return { child, stderr: () => err, exited };
}

describe('npm run bench (bench/run.cjs)', () => {
  let bin: string;
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(() => (bin = mkdtempSync(join(tmpdir(), 'split-sandbox-fakebin-'))));
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  it('without wrk on the PATH: says how to install it, exits 2, and starts nothing', async () => {
    symlinkSync(process.execPath, join(bin, 'node'));
    const before = benchDirs();
    const running = processesNaming('split-sandbox-bench-');
    const run = bench({ PATH: bin });
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toBe(
      '[bench] wrk is not installed: it makes the load. Install it (Debian, Ubuntu: sudo apt-get install -y wrk; macOS: brew install wrk), then run npm run bench again.\n',
    );
    expect(benchDirs()).toEqual(before);
    expect(processesNaming('split-sandbox-bench-').filter((pid) => !running.includes(pid))).toEqual([]);
  });

  /** A wrk that notes its pid and arguments, then hangs (Ctrl-C test) or fails at once (error test). */
  function fakeWrk(mode: 'hang' | 'fail'): string {
    const log = join(bin, 'wrk.log');
    writeFileSync(
      join(bin, 'wrk'),
      `#!/bin/sh
if [ "$1" = "-v" ]; then echo "wrk 0.0 [fake]"; exit 1; fi
echo "$$ $*" >> "${log}"
if [ "${mode}" = "fail" ]; then echo "no result"; exit 3; fi
exec sleep 600
`,
    );
    chmodSync(join(bin, 'wrk'), 0o755);
    return log;
  }

  async function until<T>(what: () => T | undefined, ms = 60_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = what();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error('gave up waiting');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('on Ctrl-C (SIGINT) stops the server and wrk it started, removes its files, and exits 130', async () => {
    const log = fakeWrk('hang');
    const before = benchDirs();
    const run = bench({ PATH: `${bin}:${process.env.PATH}` });
    // The first create run: the sandbox on a free port, wrk hanging on it.
    // The line once whole: the shell makes the file (its >>) before it writes the line in it.
    const line = await until(() => {
      const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
      return text.endsWith('\n') ? text.trim() : undefined;
    });
    const [wrkPid, ...args] = line.split(' ');
    const url = args.at(-1)!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/payments$/);
    const dir = [...benchDirs()].find((d) => !before.has(d))!;
    const servers = processesNaming(join(TMP, dir));
    expect(servers.length).toBeGreaterThan(0);
    expect((await request(new URL(url).origin).get('/_sandbox/health')).status).toBe(200);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stderr()).toMatch(/SIGINT: stopping the 2 process\(es\) it started/);
    expect([Number(wrkPid), ...servers].filter(alive)).toEqual([]);
    await expect(request(new URL(url).origin).get('/_sandbox/health')).rejects.toThrow(/ECONNREFUSED/);
    expect(benchDirs()).toEqual(before);
  }, 90_000);

  it('on an error (wrk gives no result) stops what it started the same way, and exits 1', async () => {
    const log = fakeWrk('fail');
    const before = benchDirs();
    const running = processesNaming('split-sandbox-bench-');
    const run = bench({ PATH: `${bin}:${process.env.PATH}` });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(/wrk ended \(3\) with no result/);
    const url = readFileSync(log, 'utf8').trim().split(' ').at(-1)!;
    await expect(request(new URL(url).origin).get('/_sandbox/health')).rejects.toThrow(/ECONNREFUSED/);
    expect(processesNaming('split-sandbox-bench-').filter((pid) => !running.includes(pid))).toEqual([]);
    expect(benchDirs()).toEqual(before);
  }, 90_000);
});

describe('npm run bench: a run that counts refusals', () => {
  let bin: string;
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(() => (bin = mkdtempSync(join(tmpdir(), 'split-sandbox-fakebin-'))));
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  it('fails loudly, naming the run and its non-2xx count, and exits 1', async () => {
    writeFileSync(
      join(bin, 'wrk'),
      `#!/bin/sh
if [ "$1" = "-v" ]; then echo "wrk 0.0 [fake]"; exit 1; fi
echo 'BENCH {"requests":1000,"rps":1000.0,"p50_ms":1,"p90_ms":1,"p99_ms":1,"p999_ms":1,"max_ms":1,"non2xx":42,"errors":0}'
`,
    );
    chmodSync(join(bin, 'wrk'), 0o755);
    const run = bench({ PATH: `${bin}:${process.env.PATH}` });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain("bench: FAILED: the createOurs run (1 of 2) counted 42 non-2xx answers and 0 socket errors: its figures are not the operation's\n");
    // The journal's four runs, each named: on, off, off, on.
    for (const name of ['createOurs run (2 of 2)', 'createOff run (1 of 2)', 'createOff run (2 of 2)']) expect(run.stderr()).toContain(`bench: FAILED: the ${name} counted 42 non-2xx`);
    expect(run.stderr()).toContain('bench: FAILED: the createBase run counted 42 non-2xx answers');
  }, 90_000);
});

describe('bench/services.cjs (a create and its step in the services alone)', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('prints the cost of each and their median, and leaves no temporary folder behind', async () => {
    const dirs = () => new Set(readdirSync(TMP).filter((d) => d.startsWith('split-sandbox-services-')));
    const before = dirs();
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'services.cjs')], { cwd: ROOT, env: { ...process.env, TMPDIR: TMP, N: '64', ROUNDS: '1', WARM_CREATES: '64' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
    // Every create has one step (scenario two-step: authorize), the warm-up's included.
    expect(out).toMatch(/^round 1: create \d+\.\d µs, its step \d+\.\d µs \(64 creates, 128 steps\)\nmedian: create \d+\.\d µs, step \d+\.\d µs, together \d+\.\d µs\n$/);
    expect(dirs()).toEqual(before);
  }, 60_000);
});
