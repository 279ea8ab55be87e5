// The published types compile in a strict consumer project as they are (no skipLibCheck): a project
// holding the built package and exactly what `npm install` of it brings (the lock's production
// dependencies), type-checked with --strict.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, ensureBuilt } from '../cli/process';

/**
 * tsc's record of what it checked last time (--incremental), kept from run to run: tsc checks again
 * each file whose text changed and each file that depends on one, and replays its findings on the
 * others (the installed @types/node's, most of its work here, for as long as they stay the same).
 */
const BUILD_INFO = join(ROOT, 'node_modules', '.cache', 'split-sandbox-consumer-types', 'consumer.tsbuildinfo');

const CONSUMER = `import { startSandbox, type Sandbox, type RequestEntry, type FaultInput } from 'split-sandbox';

const fault: FaultInput = { Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments' }, Action: { Status: 503 }, Times: 1 };

export async function run(): Promise<number> {
  const sandbox: Sandbox = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', quiet: true });
  sandbox.faults.add(fault);
  await sandbox.clock.advance(2);
  const entries: RequestEntry[] = sandbox.requests.find({ Limit: 10 });
  const marketplace = await sandbox.merchants.create({ clock: 'manual' });
  await sandbox.stop();
  return entries.length + marketplace.SiteID;
}
`;

/**
 * `from`'s files under `to`, each a hard link where both are on one file system (the same bytes, as a
 * copy holds them, for a tenth of the work of copying and removing some 800 files), else a copy.
 */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [join(from, e.name), join(to, e.name)];
    if (e.isDirectory()) linkTree(source, target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

describe('the published types', () => {
  let dir: string;
  beforeAll(() => ensureBuilt(), 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compile with tsc --strict in a project that installed the package, without skipLibCheck', () => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-consumer-'));
    const pkgDir = join(dir, 'node_modules', 'split-sandbox');
    mkdirSync(pkgDir, { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(pkgDir, 'package.json'));
    linkTree(join(ROOT, 'dist'), join(pkgDir, 'dist'));
    // What installing the package brings beside it: the lock's packages that are not for development only.
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || entry.dev || entry.devOptional || path.lastIndexOf('node_modules/') !== 0) continue;
      const target = join(dir, path);
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(join(ROOT, path), target);
    }
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    const tsc = require.resolve('typescript/bin/tsc');
    // tsc writes the record in the project, and it is kept when tsc found nothing: a run beside this
    // one (another checkout's tests, say) never reads one half written.
    const info = join(dir, 'consumer.tsbuildinfo');
    if (existsSync(BUILD_INFO)) copyFileSync(BUILD_INFO, info);
    let out = '';
    try {
      // --skipDefaultLibCheck: TypeScript's own lib files (lib.dom.d.ts and the like, half of tsc's work
      // here) are not checked again; they are no part of the package, and a global of the package at
      // odds with them is reported at the package's own declaration too.
      execFileSync(process.execPath, [tsc, '--strict', '--noEmit', '--skipDefaultLibCheck', '--incremental', '--tsBuildInfoFile', info, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', 'consumer.ts'], { cwd: dir, encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out).toBe('');
    mkdirSync(dirname(BUILD_INFO), { recursive: true });
    copyFileSync(info, `${BUILD_INFO}.${process.pid}`);
    renameSync(`${BUILD_INFO}.${process.pid}`, BUILD_INFO);
  }, 120_000);
});
