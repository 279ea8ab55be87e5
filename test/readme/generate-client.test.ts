// docs/openapi.md's "Generate a client", run as written: the document from the CLI and from a running
// sandbox, types from it with openapi-typescript, and the walkthrough through openapi-fetch,
// type-checked with `strict` (no casts in it) before it runs against the sandbox.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { START } from '../helpers/world';
import { ensureBuilt } from '../cli/process';
import { block } from './readme';

const ROOT = join(__dirname, '..', '..');
const SECTION = 'Generate a client';
// A build (when dist/ is stale), generating the types and type-checking take a while on a busy machine.
jest.setTimeout(300_000);

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, ...env }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A project directory as a reader's would be: split-sandbox and the two openapi-ts packages installed. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-client-'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const installed: Record<string, string> = { 'split-sandbox': ROOT };
  for (const name of ['openapi-typescript', 'openapi-fetch']) installed[name] = join(ROOT, 'node_modules', name);
  for (const [name, at] of Object.entries(installed)) symlinkSync(at, join(dir, 'node_modules', name), 'dir');
  symlinkSync(join(ROOT, 'bin', 'split-sandbox'), join(dir, 'node_modules', '.bin', 'split-sandbox'));
  symlinkSync(join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), join(dir, 'node_modules', '.bin', 'openapi-typescript'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
  return dir;
}

/**
 * `npx <name> …` as npx runs an installed package's command: the bin it links in node_modules/.bin
 * (test/readme/guide.test.ts runs npx itself to find one), started without npm around it, which
 * would spend half a second of a core finding it again.
 */
const PRELUDE = 'npx() { local bin="node_modules/.bin/$1"; shift; "$bin" "$@"; }\n';

/** tsc's record of what the type-check checked last time (typeChecker). */
const BUILD_INFO = join(ROOT, 'node_modules', '.cache', 'split-sandbox-generate-client', 'client.tsbuildinfo');

/**
 * The findings of the last check (typeChecker), with the hash of its inputs (inputsOf): with the same
 * inputs, tsc would read the same files and replay the same findings, at some 2 s of a core.
 */
const FOUND = join(dirname(BUILD_INFO), 'found.json');

/**
 * A hash of all that a check in `dir` depends on, by `record` (tsc's record of a check there): its
 * options and root files, TypeScript's version and Node's, the lock and the manifests of openapi-fetch
 * and of what it imports (where its types are), and the text of every file the recorded check read
 * (the roots, the generated types, openapi-fetch's declarations, TypeScript's lib files). Undefined
 * without a record, or when a file it names is gone.
 */
function inputsOf(dir: string, record: string, options: ts.CompilerOptions, roots: string[]): string | undefined {
  if (!existsSync(record)) return undefined;
  const hash = createHash('sha256');
  const add = (name: string, data: string | Buffer) => hash.update(`${name}\0${data.length}\0`).update(data);
  add('options', JSON.stringify({ ...options, tsBuildInfoFile: undefined }));
  add('roots', JSON.stringify(roots.map((f) => relative(dir, f))));
  add('node', process.version);
  add('typescript', ts.version);
  add('package-lock.json', readFileSync(join(ROOT, 'package-lock.json')));
  for (const name of ['openapi-fetch', 'openapi-typescript-helpers']) {
    const manifest = join(ROOT, 'node_modules', name, 'package.json');
    add(name, existsSync(manifest) ? readFileSync(manifest) : '');
  }
  for (const file of (JSON.parse(readFileSync(record, 'utf8')) as { fileNames: string[] }).fileNames) {
    const at = resolve(dirname(record), file);
    if (!existsSync(at)) return undefined;
    add(file, readFileSync(at));
  }
  return hash.digest('hex');
}

/** A call the document does not allow, twice: a query value outside its enum, a path id of the wrong type. */
const WRONG = [
  "import createClient from 'openapi-fetch';",
  "import type { paths } from './split-sandbox';",
  "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });",
  "await api.GET('/v1/payments', { params: { query: { sortDirection: 'up' } } });",
  "await api.POST('/v1/payments/{id}/cancel', { params: { path: { id: '1' } } });",
].join('\n');

/**
 * tsc's findings with `strict`, as one line each, for one program over `files`: each file's are the
 * program's findings less those in the other files. One program, because relating the calls to the
 * generated types is most of tsc's work, and a second program would do it all again. The program's
 * own files and the generated types are checked, as `tsc` checks a project's; the declarations
 * openapi-fetch ships are not checked again (skipLibCheck for them alone: over half of tsc's work
 * here, and no part of the document or of the walkthrough).
 *
 * The program is incremental (tsc --incremental), its record kept from run to run (BUILD_INFO): a
 * file whose text changed is checked again, with each file that depends on it, and the findings on
 * the others are replayed; with the document and the blocks unchanged, nothing is checked again.
 * With every input as the last check's (FOUND), not even the program is made: its findings are read back.
 */
function typeChecker(files: string[], types: string): (file: string) => string[] {
  // tsc writes the record beside the files, and it is kept once read: a run beside this one (another
  // checkout's tests, say) never reads one half written.
  const info = join(dirname(types), 'client.tsbuildinfo');
  if (existsSync(BUILD_INFO)) copyFileSync(BUILD_INFO, info);
  const options: ts.CompilerOptions = {
    incremental: true,
    tsBuildInfoFile: info,
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    // TypeScript's own lib files are not checked again: no part of the walkthrough or of its types.
    skipDefaultLibCheck: true,
  };
  const inputs = inputsOf(dirname(types), info, options, files);
  const kept = existsSync(FOUND) ? (JSON.parse(readFileSync(FOUND, 'utf8')) as { inputs: string; found: { file?: string; line: string }[] }) : undefined;
  const inDir = (found: { file?: string; line: string }[], to: (f: string) => string) => found.map((d) => ({ ...d, file: d.file === undefined ? undefined : to(d.file) }));
  if (inputs !== undefined && kept?.inputs === inputs) return findingsOf(inDir(kept.found, (f) => resolve(dirname(types), f)), files);
  const host = ts.createIncrementalCompilerHost(options);
  // JSDoc parsed only where it can make a type error, as the tsc command parses it (its default since
  // TypeScript 5.3): the API's default parses every comment of lib.dom.d.ts and the generated types.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const builder = ts.createIncrementalProgram({ rootNames: files, options, host });
  const program = builder.getProgram();
  const checked = [...files, types].map((f) => program.getSourceFile(f)!);
  // The files a change made stale, found from the changed ones: those checked here are checked again
  // (the others passed over), before any finding is read from the record.
  const mine = new Set(checked);
  while (builder.getSemanticDiagnosticsOfNextAffectedFile(undefined, (sf) => !mine.has(sf))) {
    // Each checked again as it comes.
  }
  // What ts.getPreEmitDiagnostics gathers, for the checked files only.
  const diagnostics = ts.sortAndDeduplicateDiagnostics([
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...checked.flatMap((sf) => [...builder.getSyntacticDiagnostics(sf), ...builder.getSemanticDiagnostics(sf)]),
    ...builder.getGlobalDiagnostics(),
  ]);
  // noEmit: only the record is written.
  builder.emit();
  mkdirSync(dirname(BUILD_INFO), { recursive: true });
  copyFileSync(info, `${BUILD_INFO}.${process.pid}`);
  renameSync(`${BUILD_INFO}.${process.pid}`, BUILD_INFO);
  const found = diagnostics.map((d) => ({
    file: d.file?.fileName,
    line: (() => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      return `${d.file ? `${d.file.fileName.replace(/.*\//, '')}:${(at?.line ?? 0) + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    })(),
  }));
  writeFileSync(`${FOUND}.${process.pid}`, JSON.stringify({ inputs: inputsOf(dirname(types), info, options, files), found: inDir(found, (f) => relative(dirname(types), f)) }));
  renameSync(`${FOUND}.${process.pid}`, FOUND);
  return findingsOf(found, files);
}

/** Each file's findings: the check's, less those in the other files. */
function findingsOf(found: { file?: string; line: string }[], files: string[]): (file: string) => string[] {
  return (file) => {
    const skip = new Set(files.filter((f) => f !== file));
    return found.filter((d) => d.file === undefined || !skip.has(d.file)).map((d) => d.line);
  };
}

describe("docs/openapi.md's typed client", () => {
  let sb: Sandbox;
  let dir: string;
  // Made by the first test, with the types it generates; the second reads its findings on wrong.ts.
  let typeErrors: (file: string) => string[];
  beforeAll(async () => {
    ensureBuilt(); // `npx split-sandbox openapi` runs the built package
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    dir = project();
  });
  afterAll(async () => {
    await sb?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates types from the served document, type-checks the walkthrough with strict, and runs it', async () => {
    const shell = block('docs/openapi.md', SECTION, 'bash');
    const made = await run('bash', ['-euo', 'pipefail', '-c', PRELUDE + shell], dir, { API: sb.baseUrl });
    expect({ code: made.code, stderr: made.stderr.replace(/^npm warn .*\n/gm, '') }).toEqual({ code: 0, stderr: expect.not.stringMatching(/error/i) });
    // The types come from the served document (the last command wins), which the CLI prints alike.
    const served = (await request(sb.baseUrl).get('/_sandbox/openapi.json').expect(200)).body;
    expect(JSON.parse(readFileSync(join(dir, 'split-sandbox.json'), 'utf8'))).toEqual(served);
    const types = readFileSync(join(dir, 'split-sandbox.d.ts'), 'utf8');
    expect(types).toContain('createPayment: {');

    const code = block('docs/openapi.md', SECTION, 'ts');
    // As written, then run at this sandbox's address.
    expect(code).toContain("baseUrl: 'http://127.0.0.1:8080'");
    // No casts: the generated types carry the walkthrough on their own.
    expect(code).not.toMatch(/\bas\s+[\w{[]|[=(,:]\s*<[\w.]+>|\bany\b|@ts-/);
    // Checked as written; run at this sandbox's address (a string for a string: the same types).
    const file = join(dir, 'walkthrough.ts');
    writeFileSync(file, code);
    const wrong = join(dir, 'wrong.ts');
    writeFileSync(wrong, WRONG);
    typeErrors = typeChecker([file, wrong], join(dir, 'split-sandbox.d.ts'));
    expect(typeErrors(file)).toEqual([]);

    const js = ts.transpileModule(readFileSync(file, 'utf8').replace("'http://127.0.0.1:8080'", JSON.stringify(sb.baseUrl)), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    writeFileSync(join(dir, 'walkthrough.js'), js);
    const ran = await run(process.execPath, ['walkthrough.js'], dir);
    expect(ran.stderr).toBe('');
    const lines = ran.stdout.trim().split('\n');
    expect(lines[0]).toBe('PartiallyCaptured');
    expect(lines[1]).toBe('Open');
    expect(lines[2]).toMatch(/^400 \{/);
    expect(ran.stdout).toMatch(/Reasons: \[/);
    expect(lines[lines.length - 1]).toBe('1');
  });

  it('catches a call the document does not allow, at compile time', () => {
    expect(readFileSync(join(dir, 'wrong.ts'), 'utf8')).toBe(WRONG);
    const errors = typeErrors(join(dir, 'wrong.ts'));
    // tsc names a union's members in the order it first met them, which depends on what it checked before.
    expect(errors).toEqual([
      expect.stringMatching(/^wrong\.ts:4 Type '"up"' is not assignable to type '("desc" \| "asc"|"asc" \| "desc") \| undefined'/),
      expect.stringMatching(/^wrong\.ts:5 Type 'string' is not assignable to type 'number'/),
    ]);
  });
});
