// What `npm pack` ships and what package.json says of the package: the README's pages, and what they
// link to or show, travel with it, the tarball is not left for git to see, and the install scripts of the dependencies are
// reviewed in allowScripts (npm 11.16+ warns about the others; npm 12 will not run them).
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCS, LINKS } from '../readme/readme';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** npm's stdout, or its failure; started at once, so that the file's two npm commands run side by side. */
const npm = (args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile('npm', args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
// Each a few seconds of npm reading the tree; neither writes anything.
const packed = npm(['pack', '--dry-run', '--json', '--ignore-scripts']);
const scriptsPending = npm(['approve-scripts', '--allow-scripts-pending']);
// Read by one test each; a failure is that test's, not an unhandled rejection.
packed.catch(() => undefined);
scriptsPending.catch(() => undefined);

describe('the npm package', () => {
  it('ships the README, its docs pages, and every file they link to or show', async () => {
    const files: string[] = JSON.parse(await packed)[0].files.map((f: { path: string }) => f.path);
    const pages = Object.keys(DOCS);
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect([page, files.includes(page)]).toEqual([page, true]);
    // Links and images alike, as paths from the package's root: the README's relative links work from node_modules/split-sandbox.
    const linked = [...new Set(LINKS.map((l) => l.path))];
    expect(linked).toEqual(expect.arrayContaining(['docs/payer-page.png', 'docs/payment-page.png', 'docs/api.md', 'bench/findings.md', 'examples/ci/gitlab-ci.yml']));
    expect(linked.filter((f) => !files.includes(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'bin/split-sandbox', 'dist/index.js']));
  }, 60_000);

  it('says what it is for a search of the registry', () => {
    expect(pkg.keywords).toEqual(expect.arrayContaining(['sandbox', 'payments', 'split-payments', 'marketplace', 'smart2pay', 'nuvei']));
  });

  it('the tarball npm pack leaves in the clone is ignored by git', () => {
    expect(execFileSync('git', ['check-ignore', `${pkg.name}-${pkg.version}.tgz`], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(`${pkg.name}-${pkg.version}.tgz`);
  });

  it('allows the install scripts of better-sqlite3 and esbuild, denies the optional native helpers testcontainers brings, and leaves none unreviewed', async () => {
    // ssh2, cpu-features and protobufjs come with the testcontainers dev dependency: their scripts build optional
    // speed-ups (ssh2 falls back to JavaScript) or check a CLI's versions, which the tests never use.
    expect(pkg.allowScripts).toEqual({ 'better-sqlite3': true, esbuild: true, 'cpu-features': false, protobufjs: false, ssh2: false });
    let pending: string;
    try {
      pending = await scriptsPending;
    } catch {
      // An npm before 11.16 has no allowScripts: nothing to warn about.
      return;
    }
    expect(pending.trim()).toBe('No packages with unreviewed install scripts.');
  }, 60_000);
});
