'use strict';
// Checks the npm package as its users get it: `npm pack`, the tarball's contents, `npm install <tgz>`
// into an empty project (no TypeScript, no build step), `npx split-sandbox start` there, a payment
// created with the fixture credentials, the library entry, a clean stop. Every step has a time limit;
// everything it makes is removed. `npm run check:package`; .ci/run runs it after the tests.
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const AUTH = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');

function step(what) {
  console.log(`check-package: ${what}`);
}

function check(ok, what) {
  if (!ok) throw new Error(what);
}

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

async function until(what, ms, probe) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-package-'));
  let server;
  let pid;
  try {
    step('npm pack');
    const packed = JSON.parse(sh(NPM, ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, timeout: 300_000 }))[0];
    const tgz = path.join(tmp, packed.filename);
    const files = packed.files.map((f) => f.path);
    for (const needed of ['LICENSE', 'README.md', 'package.json', 'bin/split-sandbox', 'dist/index.js', 'dist/index.d.ts', 'dist/split-sandbox.cjs',
      'fixtures/merchants.json', 'fixtures/methods.json', 'scenarios/two-step.json']) {
      check(files.includes(needed), `the tarball lacks ${needed}`);
    }
    // The README's pages and their images (docs/*.md, docs/*.png), and the bench reports and CI files they link to,
    // ship with it, so that its links work where it is read from the package.
    const linkedFromReadme = (f) => /^docs\/[^/]+\.(md|png)$/.test(f) || /^bench\/[^/]+\.md$/.test(f) || /^examples\/ci\/[^/]+\.yml$/.test(f);
    for (const needed of ['docs/api.md', 'docs/payer-page.png']) check(files.includes(needed), `the tarball lacks ${needed}`);
    const stray = files.filter((f) => (/^(src|test|bench|examples|docs|scripts|\.ci)\//.test(f) && !linkedFromReadme(f)) || /\.map$/.test(f) || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)) || /^tsconfig/.test(f));
    check(stray.length === 0, `the tarball holds what users do not need: ${stray.join(', ')}`);
    step(`${packed.filename}: ${files.length} files, ${(packed.size / 1024).toFixed(0)} kB`);

    const project = path.join(tmp, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'probe', version: '1.0.0', private: true }));
    step('npm install <tgz> into an empty project (better-sqlite3 is compiled if no binary fits)');
    const t0 = Date.now();
    sh(NPM, ['install', '--no-audit', '--no-fund', tgz], { cwd: project, timeout: 900_000 });
    step(`installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const installed = path.join(project, 'node_modules');
    check(!fs.existsSync(path.join(installed, 'typescript')), 'installing brought TypeScript');
    check(fs.existsSync(path.join(installed, '.bin', 'split-sandbox')), 'no split-sandbox in node_modules/.bin');
    const version = require(path.join(ROOT, 'package.json')).version;
    check(sh(NPX, ['split-sandbox', '--version'], { cwd: project, timeout: 60_000 }).trim() === version, 'npx split-sandbox --version');

    step('npx split-sandbox start');
    const ready = path.join(project, 'ready.json');
    server = spawn(NPX, ['split-sandbox', 'start', '--port', '0', '--card-port', '0', '--db', 'sandbox.db', '--ready-file', ready, '--quiet'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    server.stdout.resume();
    const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
    const { BaseURL, CardBaseURL, PID } = await until('the ready file', 60_000, () => fs.existsSync(ready) && JSON.parse(fs.readFileSync(ready, 'utf8')));
    pid = PID;
    sh(NPX, ['split-sandbox', 'wait', '--base-url', BaseURL, '--timeout', '10s'], { cwd: project, timeout: 60_000 });

    const created = await fetch(`${BaseURL}/v1/payments`, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        Payment: { MerchantTransactionID: 'package-1', Amount: '1000', Currency: 'EUR', MethodID: 42, ReturnURL: 'https://shop.example/return',
          Splits: [{ SiteID: 30202, Amount: '600', MerchantTransactionID: 'package-1-a' }, { SiteID: 30203, Amount: '400', MerchantTransactionID: 'package-1-b' }] },
      }),
    });
    const body = await created.json();
    check(created.status === 201, `create answered ${created.status}: ${JSON.stringify(body)}`);
    check(body.Payment.RedirectURL.startsWith(`${BaseURL}/Home?PaymentToken=`), `RedirectURL ${body.Payment.RedirectURL}`);
    const got = await fetch(`${BaseURL}/v1/payments/${body.Payment.ID}`, { headers: { Authorization: AUTH } });
    check(got.status === 200, `get answered ${got.status}`);
    check((await fetch(`${CardBaseURL}/v1/payments`, { headers: { Authorization: AUTH } })).status === 200, 'card list');
    step(`payment ${body.Payment.ID} created and read back on ${BaseURL}`);

    step('the library entry: require("split-sandbox").startSandbox');
    const lib = `require('split-sandbox').startSandbox({ port: 0, cardPort: 0, db: ':memory:', quiet: true })
      .then(async (s) => { const r = await fetch(s.baseUrl + '/_sandbox/health'); await s.stop(); process.exit(r.status === 200 ? 0 : 1); })`;
    sh(process.execPath, ['-e', lib], { cwd: project, timeout: 60_000 });

    step('SIGTERM');
    const t1 = Date.now();
    process.kill(PID, 'SIGTERM');
    const end = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 10_000))]);
    check(end !== null, 'npx split-sandbox start did not stop within 10 s of SIGTERM');
    check(end.code === 0, `it exited with ${JSON.stringify(end)}`);
    check(!fs.existsSync(ready), 'the ready file was left behind');
    step(`stopped cleanly in ${Date.now() - t1} ms`);
    server = undefined;
    console.log('check-package: ok');
  } finally {
    if (server && server.exitCode === null) {
      // npx and the sandbox it started.
      server.kill('SIGKILL');
      if (pid !== undefined) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`check-package: FAILED: ${e.message}${e.stderr ? `\n${e.stderr}` : ''}`);
  process.exit(1);
});
