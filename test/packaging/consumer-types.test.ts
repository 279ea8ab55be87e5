// The published types compile in a strict consumer project as they are (no skipLibCheck): a project
// holding the built package and exactly what `npm install` of it brings (the lock's production
// dependencies), type-checked with --strict.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ROOT, ensureBuilt } from '../cli/process';

/**
 * tsc's record of what it checked last time (--incremental), kept from run to run: tsc checks again
 * each file whose text changed and each file that depends on one, and replays its findings on the
 * others (the installed @types/node's, most of its work here, for as long as they stay the same).
 */
const BUILD_INFO = join(ROOT, 'node_modules', '.cache', 'split-sandbox-consumer-types', 'consumer.tsbuildinfo');
/**
 * The hash of every input of the last check in which tsc found nothing (inputsOf): with the same
 * inputs, tsc would read the same files and replay the same findings, none, at some 4 s of a core.
 */
const PASSED = join(dirname(BUILD_INFO), 'passed.sha256');

/** The command, as tsc runs in the project. */
const TSC_ARGS = (info: string) => ['--strict', '--noEmit', '--skipDefaultLibCheck', '--incremental', '--tsBuildInfoFile', info, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', 'consumer.ts'];

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

/**
 * A hash of all that tsc's check in `dir` depends on, by `record` (tsc's record of a check there): the
 * command, TypeScript's version and Node's, the consumer's code, the package's package.json and the
 * names of its dist/ files (what a path resolves to), the lock and the package.json of each package
 * installed beside it (where its types are), and the text of every file the recorded check read (the
 * package's declarations, its dependencies', TypeScript's lib files). Undefined without a record, or
 * when a file it names is gone.
 */
function inputsOf(dir: string, record: string, production: string[]): string | undefined {
  if (!existsSync(record)) return undefined;
  const hash = createHash('sha256');
  const add = (name: string, data: string | Buffer) => hash.update(`${name}\0${data.length}\0`).update(data);
  add('command', JSON.stringify(TSC_ARGS('consumer.tsbuildinfo')));
  add('node', process.version);
  add('typescript', readFileSync(require.resolve('typescript/package.json')));
  add('consumer.ts', CONSUMER);
  add('package.json', readFileSync(join(ROOT, 'package.json')));
  add('dist', readdirSync(join(ROOT, 'dist'), { recursive: true }).map(String).sort().join('\n'));
  add('package-lock.json', readFileSync(join(ROOT, 'package-lock.json')));
  for (const path of production) {
    const manifest = join(ROOT, path, 'package.json');
    add(path, existsSync(manifest) ? readFileSync(manifest) : '');
  }
  for (const file of (JSON.parse(readFileSync(record, 'utf8')) as { fileNames: string[] }).fileNames) {
    const at = resolve(dir, file);
    if (!existsSync(at)) return undefined;
    add(file, readFileSync(at));
  }
  return hash.digest('hex');
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
    const production = Object.entries(lock.packages)
      .filter(([path, entry]) => !(path === '' || entry.dev || entry.devOptional || path.lastIndexOf('node_modules/') !== 0))
      .map(([path]) => path);
    for (const path of production) {
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
    // The same inputs as a check that found nothing: tsc would replay its findings, none.
    const kept = inputsOf(dir, info, production);
    if (kept !== undefined && existsSync(PASSED) && readFileSync(PASSED, 'utf8') === kept) return;
    let out = '';
    try {
      // --skipDefaultLibCheck: TypeScript's own lib files (lib.dom.d.ts and the like, half of tsc's work
      // here) are not checked again; they are no part of the package, and a global of the package at
      // odds with them is reported at the package's own declaration too.
      execFileSync(process.execPath, [tsc, ...TSC_ARGS(info)], { cwd: dir, encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out).toBe('');
    mkdirSync(dirname(BUILD_INFO), { recursive: true });
    copyFileSync(info, `${BUILD_INFO}.${process.pid}`);
    renameSync(`${BUILD_INFO}.${process.pid}`, BUILD_INFO);
    // The inputs of this check, by the files its record names: the next run with the same ones need not run tsc.
    writeFileSync(`${PASSED}.${process.pid}`, inputsOf(dir, info, production) ?? '');
    renameSync(`${PASSED}.${process.pid}`, PASSED);
  }, 120_000);
});
