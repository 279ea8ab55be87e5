// What `npm pack` ships and what package.json says of the package: the README's images travel with
// it, the tarball is not left for git to see, and the install scripts of the dependencies are
// reviewed in allowScripts (npm 11.16+ warns about the others; npm 12 will not run them).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const npm = (args: string[]) => execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } });

describe('the npm package', () => {
  it('ships every image the README shows', () => {
    const packed = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts']))[0].files.map((f: { path: string }) => f.path);
    const images = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(images).toEqual(['docs/payer-page.png', 'docs/payment-page.png']);
    for (const image of images) expect([image, packed.includes(image)]).toEqual([image, true]);
    expect(packed).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'bin/split-sandbox', 'dist/index.js']));
  });

  it('says what it is for a search of the registry', () => {
    expect(pkg.keywords).toEqual(expect.arrayContaining(['sandbox', 'payments', 'split-payments', 'marketplace', 'smart2pay', 'nuvei']));
  });

  it('the tarball npm pack leaves in the clone is ignored by git', () => {
    expect(execFileSync('git', ['check-ignore', `${pkg.name}-${pkg.version}.tgz`], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(`${pkg.name}-${pkg.version}.tgz`);
  });

  it('allows the install scripts of better-sqlite3 and esbuild, denies the optional native helpers testcontainers brings, and leaves none unreviewed', () => {
    // ssh2, cpu-features and protobufjs come with the testcontainers dev dependency: their scripts build optional
    // speed-ups (ssh2 falls back to JavaScript) or check a CLI's versions, which the tests never use.
    expect(pkg.allowScripts).toEqual({ 'better-sqlite3': true, esbuild: true, 'cpu-features': false, protobufjs: false, ssh2: false });
    let pending: string;
    try {
      pending = npm(['approve-scripts', '--allow-scripts-pending']);
    } catch {
      // An npm before 11.16 has no allowScripts: nothing to warn about.
      return;
    }
    expect(pending.trim()).toBe('No packages with unreviewed install scripts.');
  });
});
