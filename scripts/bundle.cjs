'use strict';
// Build step: the CLI as one file, dist/split-sandbox.cjs, with everything but the native SQLite
// driver's compiled addon inside. A start then reads one file instead of resolving and compiling some 300, and
// bin/split-sandbox keeps V8's compiled code for it in dist/split-sandbox.cjs.cache, written here by
// one warm-up start. The library entry (dist/index.js) stays as tsc wrote it.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const esbuild = require('esbuild');
const { withAsciiFirst } = require('./ascii-first.cjs');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'dist', 'split-sandbox.cjs');

// The schema compiler is only needed when a schema was not precompiled: left out of the bundle,
// loaded from node_modules on that rare path. Its small runtime helpers, used by the precompiled
// validators, stay in.
const ajvCompilerOutside = {
  name: 'ajv-compiler-outside',
  setup(build) {
    build.onResolve({ filter: /^ajv$/ }, () => ({ path: 'ajv', external: true }));
  },
};

// Express loads these when it is loaded, for features the sandbox does not use (its body parsers, static
// files, MIME lookups, query strings and errors of its own: the sandbox reads bodies and writes answers
// itself). In the bundle each is a stand-in that loads the real module on first use, saving their start-up work.
// The body parsers and static files, never used, stay out of the bundle (with iconv-lite's tables, an eighth of
// its bytes): loaded, should they ever be, from where express is installed, as express itself would find them.
const installed = (name) => `require(require.resolve(${JSON.stringify(name)}, { paths: [require('node:path').dirname(require.resolve('express'))] }))`;
const LAZY = {
  'body-parser': () => `let m; const load = () => (m ??= ${installed('body-parser')});
module.exports = { json: (...a) => load().json(...a), raw: (...a) => load().raw(...a), text: (...a) => load().text(...a), urlencoded: (...a) => load().urlencoded(...a) };`,
  'serve-static': () => `let m; const load = () => (m ??= ${installed('serve-static')});
module.exports = function serveStatic(...a) { return load()(...a); };`,
  // qs parses the 'extended' query strings the sandbox does not ask for ('simple' is set): some twenty
  // modules of polyfills that express loads with it.
  qs: (real) => `let m; const load = () => (m ??= require(${real}));
module.exports = { parse: (...a) => load().parse(...a), stringify: (...a) => load().stringify(...a), get formats() { return load().formats; } };`,
  // http-errors makes a class for each HTTP status when loaded; express and send make their errors with it on
  // paths the sandbox does not take (content negotiation, files).
  'http-errors': (real) => `let m; const load = () => (m ??= require(${real}));
function createError(...a) { return load()(...a); }
module.exports = new Proxy(createError, { get: (_, k) => load()[k], has: (_, k) => k in load() });`,
  'mime-types': (real) => `let m; const load = () => (m ??= require(${real}));
module.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load(), ownKeys: () => Reflect.ownKeys(load()), getOwnPropertyDescriptor: (_, k) => Reflect.getOwnPropertyDescriptor(load(), k) });`,
};
const lazyExpressParts = {
  name: 'lazy-express-parts',
  setup(build) {
    const names = Object.keys(LAZY).join('|');
    build.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) => {
      if (args.namespace === 'lazy' || !/node_modules[\\/](express|type-is|accepts|send)[\\/]/.test(args.importer)) return undefined;
      return { path: args.path, namespace: 'lazy', pluginData: { resolveDir: args.resolveDir } };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      contents: LAZY[args.path](JSON.stringify(require.resolve(args.path, { paths: [args.pluginData.resolveDir] }))),
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

// depd, the deprecation notices of express, router and http-errors: each of their modules calls depd() when
// loaded, which captures a stack trace with source positions to learn its caller's file, and that makes V8
// work out positions through the whole bundle (5 ms of a start here). In the bundle, depd() is a stand-in
// that makes the real one on the first notice, which the sandbox's own use of express never gives.
const lazyDepd = {
  name: 'lazy-depd',
  setup(build) {
    build.onResolve({ filter: /^depd$/ }, (args) =>
      args.namespace === 'lazy-depd' ? undefined : { path: 'depd', namespace: 'lazy-depd', pluginData: { resolveDir: args.resolveDir } },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-depd' }, (args) => ({
      contents: `let real;
module.exports = function depd(namespace) {
  if (!namespace) throw new TypeError('argument namespace is required');
  let made;
  const get = () => (made ??= (real ??= require(${JSON.stringify(require.resolve('depd', { paths: [args.pluginData.resolveDir] }))}))(namespace));
  function deprecate(message) {
    return get()(message);
  }
  deprecate.function = (fn, message) => get().function(fn, message);
  deprecate.property = (obj, prop, message) => get().property(obj, prop, message);
  return deprecate;
};`,
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

// debug, the debug logs of express, router and finalhandler: loading it reads the terminal's colours (node:tty,
// node:os, supports-color) for logs that are off unless DEBUG names them. In the bundle, with DEBUG unset (as
// debug itself reads it, once, when loaded), each logger is one that logs nothing; with DEBUG set, the real one.
const lazyDebug = {
  name: 'lazy-debug',
  setup(build) {
    build.onResolve({ filter: /^debug$/ }, (args) =>
      args.namespace === 'lazy-debug' ? undefined : { path: 'debug', namespace: 'lazy-debug', pluginData: { resolveDir: args.resolveDir } },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-debug' }, (args) => ({
      contents: `let real;
const load = () => (real ??= require(${JSON.stringify(require.resolve('debug', { paths: [args.pluginData.resolveDir] }))}));
function createDebug(namespace) {
  if (process.env.DEBUG) return load()(namespace);
  const debug = function debug() {};
  debug.namespace = namespace;
  debug.enabled = false;
  debug.extend = (sub, delimiter) => createDebug(namespace + (delimiter === undefined ? ':' : delimiter) + sub);
  debug.destroy = () => {};
  return debug;
}
module.exports = createDebug;`,
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

// Node's own modules that a start never uses before its first answer: commander's child_process (for
// subcommands that are programs of their own), the worker threads of copies and checkpoints (started a
// second after the first answer at the earliest), zlib for compressed bodies, fs/promises for copies,
// crypto for tokens, API keys and sessions (a tenth of a start: src keeps it off the path to listening), os for
// temporary folders and this machine's names and addresses (asked when a snapshot or a notification needs them).
// In the bundle each is a stand-in that loads the module on its first use.
const LAZY_BUILTINS = ['child_process', 'worker_threads', 'zlib', 'fs/promises', 'crypto', 'os'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`) }, (args) =>
      args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m; const load = () => (m ??= require(${JSON.stringify(`node:${args.path}`)}));
module.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load(), ownKeys: () => Reflect.ownKeys(load()), getOwnPropertyDescriptor: (_, k) => { const d = Reflect.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; } });`,
      loader: 'js',
    }));
  },
};

// node:process (commander asks for it) is Node's module of one line that exports the global `process`: in the bundle,
// that line, without a built-in module compiled at each start.
const processGlobal = {
  name: 'process-global',
  setup(build) {
    build.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-global' }));
    build.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({ contents: 'module.exports = process;', loader: 'js' }));
  },
};

// path-to-regexp's parameter names told by ASCII first, without ICU's tables at a start (scripts/ascii-first.cjs).
const pathToRegexpAsciiFirst = {
  name: 'path-to-regexp-ascii-first',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]path-to-regexp[\\/]dist[\\/]index\.js$/ }, (args) => ({
      contents: withAsciiFirst(fs.readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};

// better-sqlite3's JavaScript is bundled (a dozen files fewer to resolve and compile at a start); only its
// compiled addon stays outside. Its loader, the `bindings` package, finds the addon by searching the
// calling file's package from a stack trace, which in the bundle would be the wrong package: here it is
// the addon under better-sqlite3's own folder, found where Node resolves better-sqlite3 from the bundle,
// and `bindings` (told that folder) searches its other places when the usual one has no addon.
const sqliteAddonOutside = {
  name: 'sqlite-addon-outside',
  setup(build) {
    build.onResolve({ filter: /^bindings$/ }, (args) =>
      /node_modules[\\/]better-sqlite3[\\/]/.test(args.importer) ? { path: 'bindings', namespace: 'sqlite-addon' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'sqlite-addon' }, () => ({
      contents: `const path = require('node:path');
module.exports = function bindings(name) {
  const root = path.dirname(require.resolve('better-sqlite3/package.json'));
  try {
    return require(path.join(root, 'build', 'Release', name));
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND') throw e;
    return require(require.resolve('bindings', { paths: [root] }))({ bindings: name, module_root: root });
  }
};`,
      loader: 'js',
    }));
  },
};

function warmUp() {
  // One start, so that the code cache holds what a start compiles; the bin writes it a second after listening.
  fs.rmSync(OUT + '.cache', { force: true });
  // The caches of starts with node flags of their own (bin/split-sandbox) are of the bundle this build replaces.
  for (const name of fs.readdirSync(path.dirname(OUT))) {
    if (/^split-sandbox\.cjs\.[0-9a-f]{8}\.cache$/.test(name)) fs.rmSync(path.join(path.dirname(OUT), name), { force: true });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'split-sandbox'), 'start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--quiet'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const poll = setInterval(() => {
      if (fs.existsSync(OUT + '.cache')) child.kill('SIGTERM');
    }, 20);
    // One health answer before the cache is written (a second after listening), so that it holds what answering compiles.
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => {
      const asked = /^API {2}(http:\/\/\S+)$/m.test(out);
      out += c;
      const m = /^API {2}(http:\/\/\S+)$/m.exec(out);
      if (m && !asked) http.get(`${m[1]}/_sandbox/health`, (r) => r.resume()).on('error', () => {});
    });
    child.once('exit', () => {
      clearTimeout(deadline);
      clearInterval(poll);
      if (fs.existsSync(OUT + '.cache')) resolve();
      else reject(new Error('the warm-up start wrote no code cache'));
    });
  });
}

/** The package's fixture files, read and checked as a start checks them (a file that fails stops the build). */
function checkedFixtures() {
  const { DEFAULT_FIXTURES_DIR, readFixtures } = require(path.join(ROOT, 'dist', 'fixtures.js'));
  readFixtures(DEFAULT_FIXTURES_DIR);
  const text = (file) => fs.readFileSync(path.join(DEFAULT_FIXTURES_DIR, file), 'utf8');
  return {
    BUNDLED_CHECKED_MERCHANTS: JSON.stringify(text('merchants.json')),
    BUNDLED_CHECKED_METHODS: JSON.stringify(text('methods.json')),
    BUNDLED_CHECKED_EXCHANGE_RATES: JSON.stringify(text('exchange-rates.json')),
  };
}

async function main() {
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'dist', 'cli', 'program.js')],
    outfile: OUT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // The new database's image is named by a digest of the migrations (src/store/db.ts): the bundle holds the
    // name for the migrations bundled with it, computed here, so that a start neither computes it nor loads node:crypto.
    // The precompiled validators (dist/schemas/generated, half the bytes) stay outside the bundle, loaded from there on first use.
    define: {
      BUNDLED_FRESH_IMAGE_NAME: JSON.stringify(require(path.join(ROOT, 'dist', 'store', 'db.js')).freshImageName()),
      BUNDLED_VALIDATORS_DIR: JSON.stringify('schemas/generated'),
      // The shipped fixture files as checked here: a start reading the same texts does not check them again (src/fixtures.ts).
      ...checkedFixtures(),
    },
    plugins: [ajvCompilerOutside, lazyExpressParts, lazyBuiltins, processGlobal, pathToRegexpAsciiFirst, sqliteAddonOutside, lazyDepd, lazyDebug],
    // ASCII only (non-ASCII characters escaped), so that bin/split-sandbox reads it as Latin-1, without UTF-8 decoding.
    charset: 'ascii',
    // The worker threads of copies and checkpoints, and the addon's finder above, ask Node where better-sqlite3
    // is installed: resolved when they run, from the bundle's place, as meant.
    logOverride: { 'require-resolve-not-external': 'silent' },
    minifyWhitespace: true,
    logLevel: 'warning',
  });
  // bin/split-sandbox reads the bundle as Latin-1: a byte above 127 would be read as another character.
  const at = fs.readFileSync(OUT).findIndex((b) => b > 127);
  if (at !== -1) throw new Error(`${OUT} is not ASCII at byte ${at}: bin/split-sandbox reads it as Latin-1`);
  await warmUp();
}

main().catch((e) => {
  console.error(`bundle: ${e.message}`);
  process.exit(1);
});
