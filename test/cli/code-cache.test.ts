// bin/split-sandbox keeps V8's code cache of the bundle beside it. V8 takes a cache only from a process with
// the same node flags: a start with flags of its own keeps a cache of its own, and leaves the build's alone.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as http from 'node:http';
import { BIN, BUILT, ensureBuilt, waitForOutput, type Run } from './process';

const DIST = dirname(BUILT);
const OWN_CACHE = /^split-sandbox\.cjs\.[0-9a-f]{8}\.cache$/;
const ownCaches = () => readdirSync(DIST).filter((n) => OWN_CACHE.test(n));

/** A start of the built CLI with `flags` given to node (NODE_OPTIONS too, when `env` names it). */
function startWith(flags: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [...flags, BIN, 'start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

const health = (base: string) =>
  new Promise<number>((resolve, reject) => {
    http.get(`${base}/_sandbox/health`, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject);
  });

describe('the code cache of a start with node flags', () => {
  const started: Run[] = [];
  beforeAll(() => {
    ensureBuilt();
    for (const n of ownCaches()) rmSync(join(DIST, n));
  });
  afterEach(async () => {
    for (const r of started.splice(0)) {
      if (r.child.exitCode === null && r.child.signalCode === null) {
        r.child.kill('SIGTERM');
        await r.exited;
      }
    }
    for (const n of ownCaches()) rmSync(join(DIST, n));
  });

  it.each([
    ['on the command line', ['--single-threaded'], {}],
    ['in NODE_OPTIONS', [], { NODE_OPTIONS: '--max-semi-space-size=4' }],
  ] as const)('is a file of its own, named by the flags (%s); the build’s cache is left as it was', async (_how, flags, env) => {
    const built = readFileSync(`${BUILT}.cache`);
    const r = startWith([...flags], env);
    started.push(r);
    const [, base] = await waitForOutput(r, /^API {2}(http:\/\/\S+)$/m);
    expect(await health(base!)).toBe(200);
    // The flags' cache is written a second after listening, as the build's is when it is missing.
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (ownCaches().length === 0) return;
        clearInterval(timer);
        resolve();
      }, 50);
      void r.exited.then(({ code }) => {
        clearInterval(timer);
        reject(new Error(`exited ${code} before writing its cache: ${r.stderr()}`));
      });
    });
    expect(ownCaches()).toHaveLength(1);
    expect(readFileSync(`${BUILT}.cache`).equals(built)).toBe(true);
  });
});
