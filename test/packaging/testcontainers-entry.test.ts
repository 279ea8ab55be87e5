// The Testcontainers entry as the package ships it: its own export, testcontainers an optional peer
// that the main entry never loads, and a sentence saying what to install when it is missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const built = existsSync(join(ROOT, 'dist', 'testcontainers', 'index.js'));
const maybe = built ? test : test.skip;
if (!built) console.warn('testcontainers entry tests skipped: no dist/ (npm run build)');

test('split-sandbox/testcontainers is exported, with testcontainers 11 as an optional peer dependency', () => {
  expect(pkg.exports['./testcontainers']).toEqual({ types: './dist/testcontainers/index.d.ts', default: './dist/testcontainers/index.js' });
  expect(pkg.peerDependencies).toEqual({ testcontainers: '^11.0.0' });
  expect(pkg.peerDependenciesMeta).toEqual({ testcontainers: { optional: true } });
  expect(pkg.dependencies.testcontainers).toBeUndefined();
});

maybe('the main entry does not load testcontainers; the module entry does, on Node 20', () => {
  // One fresh process: whether testcontainers is loaded once the main entry is, then once the module entry is too.
  const loaded = execFileSync(
    process.execPath,
    ['-e', `const loaded = () => Object.keys(require.cache).some((f) => /node_modules[\\\\/]testcontainers[\\\\/]/.test(f));
require('split-sandbox'); console.log(loaded());
require('split-sandbox/testcontainers'); console.log(loaded());`],
    { cwd: ROOT, encoding: 'utf8' },
  ).trim();
  expect(loaded.split('\n')).toEqual(['false', 'true']);
});

maybe('without testcontainers installed, the module entry says what to install', () => {
  const hide = `const M = require('module'); const r = M._resolveFilename;
M._resolveFilename = function (req, ...a) { if (req === 'testcontainers') throw Object.assign(new Error('not found'), { code: 'MODULE_NOT_FOUND' }); return r.call(this, req, ...a); };
require('split-sandbox/testcontainers');`;
  const r = spawnSync(process.execPath, ['-e', hide], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('split-sandbox/testcontainers needs the testcontainers package, 11.x: npm install --save-dev testcontainers@11');
});
