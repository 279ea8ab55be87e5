// What a `start` loads before it listens: Node's built-ins for TLS, threads, compression and cryptography are left to the first use that needs them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, BUILT, ROOT, ensureBuilt } from './process';

/** A start is the same each time it is asked: the tests that look at one kind of start share its one run. */
function once<T>(fn: () => T): () => T {
  let result: { value: T } | undefined;
  return () => (result ??= { value: fn() }).value;
}

/** A create body that passes (bench/create-body.json, the bench's). */
const VALID_CREATE = JSON.parse(readFileSync(require.resolve('../../bench/create-body.json'), 'utf8')) as unknown;

/**
 * Starts the built CLI in this process's image of a start: the built-ins and files loaded once both listeners are up, and how many stack traces were
 * captured; then the files loaded once it has answered its first request, a create that passes (the same start: what it loaded to listen is read first).
 */
const loadedAtListening = once((): { builtins: string[]; files: string[]; stacks: number; created: { status: number; files: string[] } } => {
  const script = `
    let stacks = 0;
    const capture = Error.captureStackTrace;
    Error.captureStackTrace = function (...args) {
      stacks++;
      return capture.apply(this, args);
    };
    const http = require('node:http');
    const listen = http.Server.prototype.listen;
    let up = 0;
    // The API's listener is the first up, as in loadedAfterCreate.
    let first;
    http.Server.prototype.listen = function (...args) {
      this.once('listening', () => {
        first ??= this;
        if (++up < 2) return;
        const names = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
        process.stdout.write('BUILTINS ' + JSON.stringify(names) + '\\n');
        process.stdout.write('FILES ' + JSON.stringify(Object.keys(require.cache)) + '\\n');
        process.stdout.write('STACKS ' + stacks + '\\n');
        create(first.address().port);
      });
      return listen.apply(this, args);
    };
    const create = (port) => {
      const body = ${JSON.stringify(JSON.stringify(VALID_CREATE))};
      const auth = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/payments', headers: { authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          process.stdout.write('STATUS ' + res.statusCode + '\\n');
          process.stdout.write('CREATED ' + JSON.stringify(Object.keys(require.cache)) + '\\n');
          process.exit(0);
        });
      });
      req.end(body);
    };
    process.argv = [process.execPath, ${JSON.stringify(BIN)}, 'start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--quiet'];
    require(${JSON.stringify(BIN)});
  `;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  return {
    builtins: JSON.parse(/^BUILTINS (.*)$/m.exec(out)![1]!) as string[],
    files: JSON.parse(/^FILES (.*)$/m.exec(out)![1]!) as string[],
    stacks: Number(/^STACKS (\d+)$/m.exec(out)![1]),
    created: { status: Number(/^STATUS (\d+)$/m.exec(out)?.[1]), files: JSON.parse(/^CREATED (.*)$/m.exec(out)![1]!) as string[] },
  };
});

/** The files a bundled start has loaded once it has answered one create request with `body`, as `status`. */
function loadedAfterCreate(body: unknown, status: number): string[] {
  const script = `
    const http = require('node:http');
    const listen = http.Server.prototype.listen;
    let up = 0;
    http.Server.prototype.listen = function (...args) {
      this.once('listening', () => {
        if (++up !== 1) return;
        const { port } = this.address();
        const body = ${JSON.stringify(JSON.stringify(body))};
        const auth = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/payments', headers: { authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => {
            process.stdout.write('STATUS ' + res.statusCode + '\\n');
            process.stdout.write('FILES ' + JSON.stringify(Object.keys(require.cache)) + '\\n');
            process.exit(0);
          });
        });
        req.end(body);
      });
      return listen.apply(this, args);
    };
    process.argv = [process.execPath, ${JSON.stringify(BIN)}, 'start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--quiet'];
    require(${JSON.stringify(BIN)});
  `;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(Number(/^STATUS (\d+)$/m.exec(out)?.[1])).toBe(status);
  return JSON.parse(/^FILES (.*)$/m.exec(out)![1]!) as string[];
}

/**
 * The compiled files (dist/, not the bundle: there each is a file of its own) a start has loaded once both
 * listeners are up, and once it has answered its first request; the bundle defers the same modules.
 */
const compiledFilesOfAStart = once((): { listening: string[]; answered: string[]; scenariosRead: string[] } => {
  const script = `
    const fs = require('node:fs');
    const read = fs.readFileSync;
    const scenariosRead = [];
    fs.readFileSync = function (file, ...rest) {
      if (String(file).startsWith(${JSON.stringify(join(ROOT, 'scenarios'))})) scenariosRead.push(String(file));
      return read.call(this, file, ...rest);
    };
    const http = require('node:http');
    const listen = http.Server.prototype.listen;
    const files = () => Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(join(ROOT, 'dist'))})).map((f) => f.slice(${JSON.stringify(join(ROOT, 'dist'))}.length + 1));
    let up = 0;
    http.Server.prototype.listen = function (...args) {
      this.once('listening', () => {
        if (++up === 1) return;
        process.stdout.write('LISTENING ' + JSON.stringify(files()) + '\\n');
        http.get('http://127.0.0.1:' + this.address().port + '/_sandbox/health', (res) => {
          res.resume();
          res.on('end', () => setTimeout(() => {
            process.stdout.write('ANSWERED ' + JSON.stringify(files()) + '\\n');
            process.stdout.write('SCENARIOS ' + JSON.stringify(scenariosRead) + '\\n');
            process.exit(0);
          }, 20));
        });
      });
      return listen.apply(this, args);
    };
    require(${JSON.stringify(join(ROOT, 'dist', 'cli', 'program.js'))}).run([process.execPath, ${JSON.stringify(BIN)}, 'start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--quiet']);
  `;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  return {
    listening: JSON.parse(/^LISTENING (.*)$/m.exec(out)![1]!) as string[],
    answered: JSON.parse(/^ANSWERED (.*)$/m.exec(out)![1]!) as string[],
    scenariosRead: JSON.parse(/^SCENARIOS (.*)$/m.exec(out)![1]!) as string[],
  };
});

/**
 * The built-ins loaded once both listeners are up, of `bin/split-sandbox` run as the main file (as a shell or npx runs
 * it): under `node -e`, Node has loaded node:module and its ES module loader for the evaluated text already.
 */
const builtinsOfTheBinAtListening = once((): string[] => {
  const dir = mkdtempSync(join(tmpdir(), 'start-weight-'));
  try {
    const preload = join(dir, 'listening.cjs');
    writeFileSync(
      preload,
      `const http = require('node:http');
      const listen = http.Server.prototype.listen;
      let up = 0;
      http.Server.prototype.listen = function (...args) {
        this.once('listening', () => {
          if (++up < 2) return;
          process.stdout.write('BUILTINS ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length))) + '\\n', () => process.exit(0));
        });
        return listen.apply(this, args);
      };`,
    );
    const out = execFileSync(process.execPath, ['-r', preload, BIN, 'start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--quiet'], { encoding: 'utf8', timeout: 30_000 });
    return JSON.parse(/^BUILTINS (.*)$/m.exec(out)![1]!) as string[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function builtinsAtListening(): string[] {
  return loadedAtListening().builtins;
}

describe('what a start loads', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('listens without loading node:https or node:tls (the drift command and https notifications load them when used)', () => {
    const loaded = builtinsAtListening();
    expect(loaded).toContain('http');
    expect(loaded.filter((m) => /^(https|tls|_tls_wrap)$/.test(m))).toEqual([]);
  });

  it('listens without loading worker_threads, zlib or fs/promises (copies, checkpoints and compressed bodies load them when used)', () => {
    const loaded = builtinsAtListening();
    expect(loaded.filter((m) => /^(worker_threads|zlib|fs\/promises)$/.test(m))).toEqual([]);
  });

  it('listens without loading node:crypto (tokens, API keys and sessions load it when first drawn)', () => {
    const loaded = builtinsAtListening();
    expect(loaded).not.toContain('crypto');
  });

  it("listens without loading node:tty, node:os, node:v8, node:perf_hooks or Node's BlockList (debug logs that are off, heap tuning after the first answer, this machine's addresses when a notification is checked)", () => {
    const loaded = builtinsAtListening();
    expect(loaded.filter((m) => /^(tty|os|v8|perf_hooks|internal\/blocklist)$/.test(m))).toEqual([]);
  });

  it("listens with better-sqlite3's JavaScript from the bundle: of its package, only the compiled addon is loaded", () => {
    const { files } = loadedAtListening();
    const driver = files.filter((f) => /[\\/]better-sqlite3[\\/]/.test(f));
    expect(driver).toHaveLength(1);
    expect(driver[0]).toMatch(/better_sqlite3\.node$/);
    expect(files.filter((f) => /[\\/]node_modules[\\/]bindings[\\/]/.test(f))).toEqual([]);
  });

  it('keeps the precompiled validators of request bodies and the unused body parsers out of the bundle a start reads', () => {
    const bundle = readFileSync(BUILT, 'latin1');
    expect(bundle).not.toMatch(/schemas\/generated\/\w+Request(\.check)?\.js"/);
    expect(bundle).not.toMatch(/node_modules\/(iconv-lite|body-parser|serve-static|raw-body)\//);
    expect(bundle.length).toBeLessThan(2_000_000);
    // qs (express's 'extended' query parser, with its polyfills) and http-errors (a class per status, made when
    // loaded) only behind stand-ins that load them on first use.
    for (const name of ['qs', 'http-errors']) expect(bundle).toContain(`__commonJS({"lazy:${name}"`);
  });

  it('listens with the checks of the shipped fixtures and scenarios from the bundle, no validator file loaded', () => {
    expect(loadedAtListening().files.filter((f) => /[\\/]schemas[\\/]generated[\\/]/.test(f))).toEqual([]);
  });

  it("loads a body's precompiled check from dist/ on first sight, and its validator when the body fails, never ajv's compiler", () => {
    const { created } = loadedAtListening();
    expect(created.status).toBe(201);
    const valid = created.files;
    expect(valid.filter((f) => /[\\/]dist[\\/]schemas[\\/]generated[\\/]/.test(f)).map((f) => f.replace(/.*[\\/]/, ''))).toEqual(['createPaymentRequest.check.js']);
    expect(valid.filter((f) => /[\\/]node_modules[\\/]ajv[\\/]dist[\\/](core|compile)/.test(f))).toEqual([]);
    const invalid = loadedAfterCreate({ Payment: { Amount: '1.5' } }, 400);
    expect(invalid.filter((f) => /[\\/]dist[\\/]schemas[\\/]generated[\\/]/.test(f)).map((f) => f.replace(/.*[\\/]/, '')).sort()).toEqual(['createPaymentRequest.check.js', 'createPaymentRequest.js']);
    expect(invalid.filter((f) => /[\\/]node_modules[\\/]ajv[\\/]dist[\\/](core|compile)/.test(f))).toEqual([]);
  });

  it("listens without loading the other commands' modules (the drift proxy, the OpenAPI command)", () => {
    const { listening } = compiledFilesOfAStart();
    expect(listening).toContain(join('cli', 'start.command.js'));
    expect(listening.filter((f) => /^cli[\\/]\w+\.command\.js$/.test(f) && f !== join('cli', 'start.command.js'))).toEqual([]);
    expect(listening.filter((f) => /^drift[\\/]/.test(f))).toEqual([]);
  });

  it('listens without loading the OpenAPI document (loaded when first asked for)', () => {
    expect(compiledFilesOfAStart().listening.filter((f) => /^openapi[\\/]/.test(f))).toEqual([]);
  });

  it('listens and answers health without the route catalogue (loaded when a fault rule is checked or a near miss looks for its route)', () => {
    const { listening, answered } = compiledFilesOfAStart();
    expect(listening).toContain(join('routes', 'unguarded.js'));
    expect(answered.filter((f) => /^routes[\\/]catalogue\.js$/.test(f))).toEqual([]);
  });

  it("listens and answers health without the response schemas (loaded for a refusal's envelope, the document or the catalogue)", () => {
    const { listening, answered } = compiledFilesOfAStart();
    expect(listening).toContain(join('schemas', 'details.js'));
    expect(answered.filter((f) => /^schemas[\\/]responses\.js$/.test(f))).toEqual([]);
  });

  it('bounds the young generation only after its first answer (its module and node:v8 off the way to it)', () => {
    const { listening, answered } = compiledFilesOfAStart();
    expect(listening).not.toContain(join('cli', 'young-generation.js'));
    expect(answered).toContain(join('cli', 'young-generation.js'));
  });

  it('reads no shipped scenario file before its first answer (they are read when a scenario is first asked for)', () => {
    expect(compiledFilesOfAStart().scenariosRead).toEqual([]);
  });

  it("listens without loading node:module, Node's ES module loader or its source maps (the bin takes the CJS loader from its own module), nor node:process (the bundle's is the global)", () => {
    const loaded = builtinsOfTheBinAtListening();
    expect(loaded).toContain('vm');
    expect(loaded.filter((m) => /^(module|process|internal\/modules\/esm\/loader|internal\/source_map\/source_map)$/.test(m))).toEqual([]);
  });

  it("holds path-to-regexp with its parameter names told by ASCII first (scripts/ascii-first.cjs), making no expression of Unicode properties when loaded", () => {
    const bundle = readFileSync(BUILT, 'latin1');
    expect(bundle).toMatch(/function asciiFirst\(ascii, ?full\)/);
    expect(bundle).toMatch(/\b(var|const) ID_START ?= ?asciiFirst\(/);
    expect(bundle).toMatch(/\b(var|const) ID_CONTINUE ?= ?asciiFirst\(/);
    expect(bundle).toMatch(/\b(var|const) ID ?= ?onFirstTest\(/);
    expect(bundle).not.toMatch(/\b(var|const) ID(_START|_CONTINUE)? ?= ?\/\^/);
  });

  it('listens without capturing a stack trace (in the bundle, a source position costs working out positions through all of it)', () => {
    expect(loadedAtListening().stacks).toBe(0);
  });
});
