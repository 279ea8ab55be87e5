// redocly lint, with the project's redocly.yaml, of the documents both addresses serve.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { makeWorld, type World } from '../helpers/world';

const ROOT = join(__dirname, '..', '..');
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
/**
 * redocly's reports from earlier runs, by a hash of all they depend on: the documents and their names, redocly.yaml,
 * the installed redocly (its package.json), the lock (the versions of what redocly brings) and Node.
 * The served documents change only with the code, and a redocly start and lint cost some 5 s of a
 * core; a changed document, rule or tool is another hash, linted by redocly again.
 */
const REPORTS = join(ROOT, 'node_modules', '.cache', 'split-sandbox-redocly');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string; source?: { ref: string } }[];
}

/** `#/paths/~1v1~1payments/post/responses` → `POST /v1/payments (createPayment)`, so a failure names the operation. */
function where(doc: any, pointer: string): string {
  const parts = pointer.replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts[0] !== 'paths' || parts.length < 3) return pointer;
  const op = doc.paths?.[parts[1]!]?.[parts[2]!];
  return `${parts[2]!.toUpperCase()} ${parts[1]} (${op?.operationId ?? 'no operationId'})${parts.length > 3 ? ` at ${parts.slice(3).join('/')}` : ''}`;
}

/** redocly lint's stdout for `files`, with the project's redocly.yaml. */
async function redocly(files: string[]): Promise<string> {
  let out: string;
  try {
    out = (await promisify(execFile)(process.execPath, [REDOCLY, 'lint', ...files, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    })).stdout;
  } catch (e) {
    // redocly exits 1 when it finds an error; its report is on stdout all the same.
    out = (e as { stdout?: string }).stdout ?? '';
    if (!out.trim().startsWith('{')) throw e;
  }
  return out;
}

/**
 * redocly lint with the project's redocly.yaml, one run over every document (each redocly start costs
 * more than a document's lint): for each name, one line per problem, naming the rule and the operation.
 */
async function lint(dir: string, docs: Record<string, unknown>): Promise<Record<string, string[]>> {
  const names = Object.keys(docs);
  const files = names.map((name) => join(dir, `${name}.json`));
  names.forEach((name, i) => writeFileSync(files[i]!, JSON.stringify(docs[name])));
  const hash = createHash('sha256');
  for (const input of [process.version, names.join(' '), ...[join(ROOT, 'node_modules', '@redocly', 'cli', 'package.json'), join(ROOT, 'package-lock.json'), join(ROOT, 'redocly.yaml'), ...files].map((f) => readFileSync(f))]) {
    hash.update(`${input.length}:`).update(input);
  }
  const kept = join(REPORTS, `${hash.digest('hex')}.json`);
  let out: string;
  if (existsSync(kept)) out = readFileSync(kept, 'utf8');
  else {
    out = await redocly(files);
    // Written whole, then named: a run beside this one never reads half a report.
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(`${kept}.${process.pid}`, out);
    renameSync(`${kept}.${process.pid}`, kept);
  }
  // One report per file, in the order given, written one after the other (`}{` where two meet).
  const reports = out.trim().split(/^\}\{$/m).map((part, i, all) => JSON.parse(`${i > 0 ? '{' : ''}${part}${i < all.length - 1 ? '}' : ''}`) as { problems: Problem[] });
  expect(reports).toHaveLength(names.length);
  return Object.fromEntries(
    names.map((name, i) => {
      const { problems } = reports[i]!;
      // Each report is the file's it stands for.
      for (const p of problems) expect([name, p.location[0]?.source?.ref.endsWith(`${name}.json`)]).toEqual([name, true]);
      return [name, problems.map((p) => `${p.severity} ${p.ruleId}: ${where(docs[name], p.location[0]?.pointer ?? '')}: ${p.message}`)];
    }),
  );
}

describe("redocly's recommended rules (redocly.yaml)", () => {
  let w: World;
  let dir: string;
  let found: Promise<Record<string, string[]>> | undefined;
  beforeAll(() => {
    w = makeWorld();
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-lint-'));
  });
  afterAll(() => {
    w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The served document (a copy of it) with three faults: an operation without operationId, a 400 alone, a route without security. */
  function broken(served: any): any {
    const doc = structuredClone(served);
    delete doc.paths['/v1/payments'].post.operationId;
    doc.paths['/dashboard/logout'].post.responses = { 400: { description: 'Refused' } };
    delete doc.paths['/v1/payments'].get.security;
    return doc;
  }

  /** What redocly finds in each document: the two served ones and the broken one, linted once for every test. */
  function findings(): Promise<Record<string, string[]>> {
    found ??= (async () => {
      const served = async (surface: string) => (await request(w.api).get(`/_sandbox/openapi.json?surface=${surface}`).expect(200)).body;
      const api = await served('api');
      return lint(dir, { api, card: await served('card'), broken: broken(api) });
    })();
    return found;
  }

  it.each(['api', 'card'])('find nothing in the served document of the %s address', async (surface) => {
    expect((await findings())[surface]).toEqual([]);
  }, 60_000);

  it('name the operation and the rule of what they find', async () => {
    const problems = (await findings()).broken;
    expect(problems).toEqual(
      expect.arrayContaining([
        'warn operation-operationId: POST /v1/payments (no operationId) at operationId: Operation object should contain `operationId` field.',
        expect.stringMatching(/^error rule\/success-or-see-other: POST \/dashboard\/logout \(dashboardLogout\) at responses: /),
        expect.stringMatching(/^error security-defined: GET \/v1\/payments \(listPayments\)/),
      ]),
    );
  }, 60_000);
});
