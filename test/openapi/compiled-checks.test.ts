// The tests' schema checks, compiled once per run (test/helpers/compiled-checks.ts), are the same
// checks as those a test file compiles itself: same verdicts, same messages; a changed schema never
// gets the code of another.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Surface } from '../../src/openapi/document';
import { listResponse, messageResponse, paymentErrorResponse, paymentResponse } from '../../src/schemas/responses';
import { compile } from '../../src/schemas/validator';
import { answerChecks, answerSchemas, precompileAnswerChecks, precompileSchemaChecks, schemaCheck } from '../helpers/compiled-checks';
import { nonConformity } from '../helpers/conformance';
import { authorizedPayment, expectSchema, makeWorld } from '../helpers/world';

let empty: string;
beforeAll(() => (empty = mkdtempSync(join(tmpdir(), 'split-sandbox-checks-'))));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const BODIES: unknown[] = [
  null,
  [],
  'text',
  {},
  { Message: 5 },
  { Payment: { ID: 'one' } },
  { Payments: [{}], TotalCount: 'x', Error: null },
  { Payment: null, Error: { Code: 'x' } },
];

describe('answer checks', () => {
  it.each(['api', 'card'] as Surface[])('the %s address’s come compiled from the run’s cache', (surface) => {
    expect(answerChecks(surface).precompiled).toBe(true);
    expect(answerChecks(surface, empty).precompiled).toBe(false);
  });

  it('refuses, through the compiled checks, an answer the document does not describe', () => {
    const problem = nonConformity('api', {
      method: 'GET',
      path: '/v1/payments/1',
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: { Payment: { ID: 'one' } },
      requestHeaders: {},
    });
    expect(problem).toMatch(/^GET \/v1\/payments\/\{id\} \(getPayment\) on the api address answered 200 with a body its schema refuses: data\/Payment /);
  });

  it.each(['api', 'card'] as Surface[])('the %s address’s give the verdicts and messages of checks compiled in the test file', async (surface) => {
    const compiled = answerChecks(surface);
    const here = answerChecks(surface, empty);
    const w = makeWorld();
    try {
      const paid = await authorizedPayment(w);
      const bodies = [...BODIES, { Payment: paid }, { Payment: { ...paid, Amount: 1000 } }, { Payments: [paid], TotalCount: 1, Error: null }];
      // A sample of the document's answers (compiling all of them here would cost what the cache saves).
      const schemas = [...answerSchemas(compiled.doc).values()].filter((_, i) => i % 6 === 0);
      expect(schemas.length).toBeGreaterThan(3);
      for (const schema of schemas) {
        const [a, b] = [compiled.check(schema), here.check(schema)];
        expect(a).not.toBe(b);
        for (const body of bodies) {
          expect([a(body), compiled.errorsText(a.errors)]).toEqual([b(body), here.errorsText(b.errors)]);
        }
      }
    } finally {
      w.close();
    }
  });

  it('are compiled again for a changed document, and the checks of the old one removed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-checks-'));
    try {
      const doc = (type: string) => ({
        paths: { '/v1/x': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } } } } },
        components: { schemas: { X: { type: 'object', properties: { A: { type } }, required: ['A'] } } },
      });
      const before = precompileAnswerChecks('api', doc('string'), dir);
      expect(precompileAnswerChecks('api', doc('string'), dir)).toBe(before);
      const after = precompileAnswerChecks('api', doc('integer'), dir);
      expect(after).not.toBe(before);
      expect(readdirSync(dir)).toEqual([`answers-api-${after}`]);
      const check: (body: unknown) => boolean = require(join(dir, `answers-api-${after}`, '0.js'));
      expect([check({ A: 1 }), check({ A: '1' })]).toEqual([true, false]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('response schema checks (expectSchema)', () => {
  it.each([
    ['paymentResponse', paymentResponse],
    ['paymentErrorResponse', paymentErrorResponse],
    ['listResponse', listResponse],
    ['messageResponse', messageResponse],
  ])('%s comes compiled from the run’s cache, with the errors of the one the sandbox compiles', (_, schema) => {
    const a = schemaCheck(schema);
    const b = compile(schema);
    expect(a).not.toBe(b);
    for (const body of BODIES) {
      expect(a(body)).toBe(b(body));
      // What expectSchema prints: every error, with its schema (the options are verbose).
      expect(JSON.stringify(a.errors, null, 1)).toBe(JSON.stringify(b.errors, null, 1));
    }
    expect(schemaCheck(schema, empty)).toBe(b);
  });

  it('still fails a body its schema refuses', async () => {
    const w = makeWorld();
    try {
      const res = await request(w.api).get('/v1/payments/999999').set('Authorization', w.auth);
      expect(() => expectSchema(paymentResponse, res.body)).toThrow(/^response does not match its schema: \[/);
      expect(() => expectSchema(messageResponse, { Message: 'x', Extra: 1 })).toThrow(/"additionalProperty": "Extra"/);
    } finally {
      w.close();
    }
  });

  it('are compiled again for a changed schema, and the code of the old one removed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-checks-'));
    try {
      const before = { type: 'object', properties: { A: { type: 'string' } }, required: ['A'], additionalProperties: false } as const;
      const after = { ...before, properties: { A: { type: 'integer' } } } as const;
      precompileSchemaChecks([before], dir);
      expect(readdirSync(join(dir, 'schemas'))).toHaveLength(1);
      precompileSchemaChecks([after], dir);
      expect(readdirSync(join(dir, 'schemas'))).toHaveLength(1);
      const check = schemaCheck(after, dir);
      expect(check).not.toBe(compile(after));
      expect([check({ A: 1 }), check({ A: '1' })]).toEqual([true, false]);
      // The old schema's code is gone: a test checking against it compiles it itself.
      expect(schemaCheck(before, dir)).toBe(compile(before));
      expect(existsSync(join(dir, 'schemas'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
