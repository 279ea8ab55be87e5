// The package.json `npm pack` ships: without the `prepare` script (a clone and a git dependency build
// with it; an installed tarball has nothing to prepare, and npm 11.16+ would ask every project that
// installs the package to approve it), and the clone's own put back after the pack.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'pack-manifest.cjs');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('the package.json npm pack ships', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-pack-manifest-'));
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const manifest = (command: string) => {
    execFileSync(process.execPath, [SCRIPT, command, dir]);
    return readFileSync(join(dir, 'package.json'), 'utf8');
  };
  /** The same command called in this process: the script's commands are run as processes by the first test. */
  const called = (command: 'strip' | 'restore') => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require(SCRIPT) as Record<typeof command, (dir: string) => void>)[command](dir);
    return readFileSync(join(dir, 'package.json'), 'utf8');
  };

  it('is stripped of prepare by prepack, after the build, and put back by postpack', () => {
    expect(pkg.scripts.prepare).toBe('npm run build');
    expect(pkg.scripts.prepack).toBe('npm run build && node scripts/pack-manifest.cjs strip');
    expect(pkg.scripts.postpack).toBe('node scripts/pack-manifest.cjs restore');

    const original = readFileSync(join(dir, 'package.json'), 'utf8');
    const packed = JSON.parse(manifest('strip'));
    expect(packed.scripts.prepare).toBeUndefined();
    // Nothing else changes: the same fields, dependencies and allowScripts.
    expect(packed).toEqual({ ...pkg, scripts: Object.fromEntries(Object.entries(pkg.scripts).filter(([name]) => name !== 'prepare')) });
    expect(manifest('restore')).toBe(original);
    expect(existsSync(join(dir, '.package.json.before-pack'))).toBe(false);
  });

  it('a pack that died before postpack is undone by the next prepack, which keeps the clone’s own prepare', () => {
    const original = readFileSync(join(dir, 'package.json'), 'utf8');
    called('strip');
    // The second strip starts from the saved copy, not from the stripped one.
    expect(JSON.parse(called('strip')).scripts.prepare).toBeUndefined();
    expect(called('restore')).toBe(original);
  });

  it('the saved copy is not shipped and git does not see it', () => {
    expect(execFileSync('git', ['check-ignore', '.package.json.before-pack'], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe('.package.json.before-pack');
    expect(pkg.files).not.toContain('.package.json.before-pack');
  });
});
