// Running the CLI as a real process from the built code (bin/split-sandbox → dist/). dist/ is built
// first when it is missing or older than src/, so the tests pass on a clean clone and after edits.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, watch } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'split-sandbox');
/** The bundle is the last thing the build writes, and what bin/split-sandbox runs. */
export const BUILT = join(ROOT, 'dist', 'split-sandbox.cjs');

/** The newest modification time of any file under `dir`. */
export function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const fresh = () => existsSync(BUILT) && statSync(BUILT).mtimeMs >= newest(join(ROOT, 'src'));

export function ensureBuilt(): void {
  if (fresh()) return;
  // One build at a time when test files run in parallel workers: the others wait for it.
  const lock = join(ROOT, 'dist.build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      if (fresh()) return;
      // A lock left by a killed run is taken over.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    if (!fresh()) build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function build(): void {
  // The whole build (npm run build), so that the processes run exactly what a user runs.
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'compile-validators.cjs')], { cwd: ROOT, stdio: 'pipe' });
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.cjs')], { cwd: ROOT, stdio: 'pipe' });
}

export interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.once('exit', (code, signal) => res({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves when stdout matches `re` (or rejects when the process exits first). */
export function waitForOutput(r: Run, re: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolvePromise, reject) => {
    const check = () => {
      const m = r.stdout().match(re);
      if (m) {
        r.child.stdout!.off('data', check);
        resolvePromise(m);
      }
    };
    r.child.stdout!.on('data', check);
    check();
    void r.exited.then(({ code }) => {
      const m = r.stdout().match(re);
      if (m) resolvePromise(m);
      else reject(new Error(`exited ${code} before printing ${re}: stdout=${r.stdout()} stderr=${r.stderr()}`));
    });
  });
}

/**
 * Resolves once `file` exists, told by a watch on its folder (the process writes it there), not by
 * polling: a poll on every turn of the event loop took a core from the process it waited for.
 */
export function appears(file: string, r: Pick<Run, 'child' | 'stderr'>): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      watcher.close();
      r.child.off('exit', exited);
      if (err) reject(err);
      else resolvePromise();
    };
    const check = () => {
      if (existsSync(file)) settle();
    };
    const exited = () => (existsSync(file) ? settle() : settle(new Error(`exited ${r.child.exitCode}: ${r.stderr()}`)));
    const watcher = watch(dirname(file), check);
    r.child.once('exit', exited);
    check();
    if (r.child.exitCode !== null || r.child.signalCode !== null) exited();
  });
}

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** A Node process with the built CLI loaded, running argvs one at a time as they are asked for. */
export interface CliSession {
  /** The process's PID (what a sandbox started in it reports as its own). */
  pid: number;
  /** What the CLI prints and exits with for `argv`, as a process of its own would; `env` is set for it alone. */
  run(argv: string[], env?: Record<string, string>): Promise<Ran>;
  /** Ends the process. */
  close(): Promise<void>;
}

// The session's side: the bundle loaded as bin/split-sandbox loads it, then each argv read from stdin
// (one JSON line) is run through its run(), and what it printed and its exit code go back as one JSON
// line through the real stdout, which nothing else writes to.
const SESSION = `
  // The bundle with V8's code cache, loaded as bin/split-sandbox loads it (the cache is only read here).
  const fs = require('node:fs');
  const vm = require('node:vm');
  const Module = require('node:module');
  const bundle = ${JSON.stringify(BUILT)};
  let cachedData;
  try {
    cachedData = fs.readFileSync(bundle + '.cache');
  } catch {}
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(require('node:path').dirname(bundle));
  new vm.Script(Module.wrap(fs.readFileSync(bundle, 'latin1')), { filename: bundle, cachedData })
    .runInThisContext()
    .call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, require('node:path').dirname(bundle));
  const { run, buildProgram } = mod.exports;
  // The bundle's own CommanderError, which run() lets through: the error of an unknown option, told quietly.
  const CommanderError = (() => {
    const quiet = process.stderr.write;
    process.stderr.write = () => true;
    try {
      buildProgram().exitOverride().parse(['node', 'split-sandbox', '--no-such-option']);
    } catch (e) {
      return e.constructor;
    } finally {
      process.stderr.write = quiet;
    }
  })();
  process.stdout.setMaxListeners(0);
  process.stderr.setMaxListeners(0);
  const [write, exit] = [process.stdout.write.bind(process.stdout), process.exit];
  // Output is caught for the argv in hand; what comes between two argvs is kept and fails the next.
  let out = '';
  let err = '';
  process.stdout.write = (c) => ((out += c), true);
  process.stderr.write = (c) => ((err += c), true);
  let queue = Promise.resolve();
  require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const { argv, env: vars } = JSON.parse(line);
    queue = queue.then(async () => {
      const stray = out + err;
      const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
      Object.assign(process.env, vars);
      out = '';
      err = '';
      let code;
      process.exit = (c) => { throw new CommanderError(c ?? 0, 'exit', ''); };
      process.exitCode = undefined;
      try {
        await run(['node', ${JSON.stringify(BIN)}, ...argv]);
        code = process.exitCode ?? 0;
      } catch (e) {
        if (!(e instanceof CommanderError) || e.code !== 'exit') throw e;
        code = e.exitCode;
      } finally {
        process.exit = exit;
        for (const [k, v] of Object.entries(before)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
      }
      write(JSON.stringify(stray ? { stray } : { code, out, err }) + '\\n');
      out = '';
      err = '';
    });
  }).on('close', () => queue.then(() => { process.exitCode = 0; exit(0); }));`;

/**
 * The built CLI (its bundle, as bin/split-sandbox runs it) in ONE Node process for many argvs, asked
 * for one at a time (a cold start costs more than most commands do): for outputs of given arguments
 * (help texts, argument errors, what a command prints against a running sandbox), where a process per
 * argv would prove nothing more. Commander's process.exit (after help, on a bad argument) ends the
 * argv in hand, not the process. What is about the process (its signals, exit, ready file, output
 * while it runs) stays a real process; a file using the session also runs a real process of its
 * own, and where it runs only outputs, compares one of them with the session's.
 */
export function cliSession(env: Record<string, string> = {}): CliSession {
  const child = spawn(process.execPath, ['-e', SESSION], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  let buffered = '';
  const waiting: { resolve: (r: Ran) => void; reject: (e: Error) => void }[] = [];
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    buffered += c;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const answer = JSON.parse(buffered.slice(0, nl)) as Ran & { stray?: string };
      buffered = buffered.slice(nl + 1);
      const w = waiting.shift()!;
      if (answer.stray !== undefined) w.reject(new Error(`printed between two commands: ${answer.stray}`));
      else w.resolve(answer);
    }
  });
  void exited.then(() => {
    for (const w of waiting.splice(0)) w.reject(new Error(`the CLI's process exited ${child.exitCode ?? child.signalCode}: ${err}`));
  });
  return {
    pid: child.pid!,
    run: (argv, vars = {}) =>
      new Promise<Ran>((resolvePromise, reject) => {
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`the CLI's process has exited: ${err}`));
        waiting.push({ resolve: resolvePromise, reject });
        child.stdin!.write(JSON.stringify({ argv, env: vars }) + '\n');
      }),
    close: async () => {
      child.stdin!.end();
      await exited;
      if (err) throw new Error(`the CLI's process wrote to stderr: ${err}`);
    },
  };
}

/**
 * The CLI session of the tests of a file (or of a describe block, where it is called): started, after
 * the build, before them and closed after them. What it returns reaches the session of the moment.
 */
export function sessionForTests(): CliSession {
  let session: CliSession | undefined;
  beforeAll(() => {
    ensureBuilt();
    session = cliSession();
  }, 120_000);
  afterAll(() => session?.close());
  const current = (): CliSession => {
    if (session === undefined) throw new Error('the CLI session starts before the tests (beforeAll)');
    return session;
  };
  return {
    get pid() {
      return current().pid;
    },
    run: (argv, env) => current().run(argv, env),
    close: () => current().close(),
  };
}

/**
 * What the built CLI prints and exits with for each argv, all run in turn in one session (cliSession).
 * An argv may come with variables of its own, set for it alone.
 */
export async function runInOne(argvs: (string[] | { argv: string[]; env: Record<string, string> })[], env: Record<string, string> = {}): Promise<Ran[]> {
  const session = cliSession(env);
  try {
    const results: Ran[] = [];
    for (const item of argvs) results.push(await (Array.isArray(item) ? session.run(item) : session.run(item.argv, item.env)));
    return results;
  } finally {
    await session.close();
  }
}

/**
 * A sandbox started by `split-sandbox start <args>` inside a session's process, where it runs until
 * the session closes: for tests of the other commands, which need one running, not its process
 * (`env` is set for the start alone, as for any argv of the session).
 */
export async function startIn(session: CliSession, args: string[], env: Record<string, string> = {}): Promise<{ api: string; card: string }> {
  const r = await session.run(['start', '--port', '0', '--card-port', '0', '--quiet', ...args], env);
  const m = /^API {2}(\S+)\nCard (\S+)\n/.exec(r.out);
  if (r.code !== 0 || !m) throw new Error(`start ${args.join(' ')}: ${JSON.stringify(r)}`);
  return { api: m[1]!, card: m[2]! };
}
