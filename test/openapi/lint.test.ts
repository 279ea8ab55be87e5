import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { makeWorld, type World } from '../helpers/world';

const ROOT = join(__dirname, '..', '..');
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** `#/paths/~1v1~1payments/post/responses` → `POST /v1/payments (createPayment)`, so a failure names the operation. */
function where(doc: any, pointer: string): string {
  const parts = pointer.replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts[0] !== 'paths' || parts.length < 3) return pointer;
  const op = doc.paths?.[parts[1]!]?.[parts[2]!];
  return `${parts[2]!.toUpperCase()} ${parts[1]} (${op?.operationId ?? 'no operationId'})${parts.length > 3 ? ` at ${parts.slice(3).join('/')}` : ''}`;
}

/** redocly lint with the project's redocly.yaml: one line per problem, naming the rule and the operation. */
async function lint(dir: string, name: string, doc: unknown): Promise<string[]> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  let out: string;
  try {
    out = (await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    })).stdout;
  } catch (e) {
    // redocly exits 1 when it finds an error; its report is on stdout all the same.
    out = (e as { stdout?: string }).stdout ?? '';
    if (!out.trim().startsWith('{')) throw e;
  }
  const report = JSON.parse(out) as { problems: Problem[] };
  return report.problems.map((p) => `${p.severity} ${p.ruleId}: ${where(doc, p.location[0]?.pointer ?? '')}: ${p.message}`);
}

describe("redocly's recommended rules (redocly.yaml)", () => {
  let w: World;
  let dir: string;
  beforeAll(() => {
    w = makeWorld();
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-lint-'));
  });
  afterAll(() => {
    w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['api', 'card'])('find nothing in the served document of the %s address', async (surface) => {
    const doc = (await request(w.api).get(`/_sandbox/openapi.json?surface=${surface}`).expect(200)).body;
    expect(await lint(dir, surface, doc)).toEqual([]);
  });

  it('name the operation and the rule of what they find', async () => {
    const doc = (await request(w.api).get('/_sandbox/openapi.json').expect(200)).body;
    delete doc.paths['/v1/payments'].post.operationId;
    doc.paths['/dashboard/logout'].post.responses = { 400: { description: 'Refused' } };
    delete doc.paths['/v1/payments'].get.security;
    const problems = await lint(dir, 'broken', doc);
    expect(problems).toEqual(
      expect.arrayContaining([
        'warn operation-operationId: POST /v1/payments (no operationId) at operationId: Operation object should contain `operationId` field.',
        expect.stringMatching(/^error rule\/success-or-see-other: POST \/dashboard\/logout \(dashboardLogout\) at responses: /),
        expect.stringMatching(/^error security-defined: GET \/v1\/payments \(listPayments\)/),
      ]),
    );
  });
});
