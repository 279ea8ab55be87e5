// The tests' schema checks (answers against the OpenAPI document, bodies against response schemas)
// as plain JavaScript: test/setup/validators.ts compiles them once per run, before any test file
// starts; each test file then loads the code instead of compiling the schemas again (jest loads a
// file's modules afresh), and compiles only what it does not find. Each file is named by a digest of
// what it was compiled from, so a changed schema is never checked with the code of another.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type Ajv from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type { Surface } from '../../src/openapi/document';
import type { Schema } from '../../src/schemas/common';

/**
 * The sandbox's validator module, loaded only to compile or to digest: a test file whose answers'
 * checks are all compiled (a sandbox it started, say) needs none of the schemas.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const validator = () => require('../../src/schemas/validator') as typeof import('../../src/schemas/validator');

export const CHECKS = join(__dirname, '..', '..', 'node_modules', '.cache', 'split-sandbox-checks');
const SURFACES: readonly Surface[] = ['api', 'card'];
/** The run's digest of each address's document, set by test/setup/validators.ts for the test files. */
const RUN_DIGESTS = 'SPLIT_SANDBOX_ANSWER_CHECKS';

/**
 * Loads a compiled check (or a document) of the cache: once per jest worker where its environment
 * shares them (test/setup/environment.cjs), else once per test file.
 */
const shared = (globalThis as { [k: symbol]: ((file: string) => unknown) | undefined })[Symbol.for('split-sandbox.shared-module')];
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (file: string): unknown => (shared && file.startsWith(CHECKS + sep) ? shared(file) : require(file));

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * What compiled code depends on besides the schemas (ajv, its options and keywords, this file): a
 * change to any of it compiles every check again.
 */
let compiler: string | undefined;
function compilerDigest(): string {
  if (compiler === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ajv = (require('ajv/package.json') as { version: string }).version;
    const sources = [__filename, join(__dirname, '..', '..', 'src', 'schemas', 'validator.ts')].map((f) => readFileSync(f, 'utf8'));
    compiler = digest(JSON.stringify([ajv, validator().AJV_OPTIONS, ...sources]));
  }
  return compiler;
}

function writeWhole(file: string, text: string): void {
  // Renamed into place: a test file of another worker may look for it meanwhile.
  writeFileSync(`${file}.${process.pid}`, text);
  renameSync(`${file}.${process.pid}`, file);
}

function standalone(ajv: Ajv, validate: ValidateFunction): string {
  // Loaded only to compile: a test file that finds every check compiled needs none of it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('ajv/dist/standalone') as { default: (ajv: Ajv, validate: ValidateFunction) => string }).default(ajv, validate);
}

// ---- Answers against the OpenAPI document (test/helpers/conformance.ts) ----

/** Lenient where the document is (OpenAPI keywords), first error only: what conformance failures print. */
const ANSWER_OPTIONS: Options = { strict: false, allErrors: false, verbose: false };
const BASE_URL = 'http://sandbox.test';

/** The $id the document's components are held under, for the checks' $refs. */
const documentBase = (surface: Surface) => `${BASE_URL}/openapi/${surface}.json`;

/** An ajv holding the document's components: each answer's schema refers into them. */
function answerAjv(surface: Surface, doc: any, extra: Options = {}): Ajv {
  const ajv = validator().createAjv({ ...ANSWER_OPTIONS, ...extra });
  ajv.addSchema({ $id: documentBase(surface), components: doc.components });
  return ajv;
}

/** A copy of `schema` whose local $refs (`#/components/…`) point into the document at `base`. */
function within(base: string, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((s) => within(base, s));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? base + v : within(base, v)]),
  );
}

const answerCheck = (surface: Surface, schema: object) => ({ allOf: [within(documentBase(surface), schema)] });

/** A named schema by its $ref, any other by its text: one check for all the answers that share it. */
const answerKey = (schema: object) => (schema as { $ref?: string }).$ref ?? JSON.stringify(schema);

/** Every JSON body schema of the document's answers, by answerKey. */
export function answerSchemas(doc: any): Map<string, object> {
  const found = new Map<string, object>();
  for (const ops of Object.values(doc.paths as Record<string, Record<string, any>>)) {
    for (const op of Object.values(ops)) {
      for (let response of Object.values((op?.responses ?? {}) as Record<string, any>)) {
        if (response.$ref) response = doc.components.responses[String(response.$ref).split('/').pop()!];
        const content = response?.content as Record<string, { schema?: object }> | undefined;
        // As test/helpers/conformance.ts reads an answer: the first media type, when JSON.
        const media = content && Object.keys(content)[0];
        const schema = media === 'application/json' ? content![media]!.schema : undefined;
        if (schema) found.set(answerKey(schema), schema);
      }
    }
  }
  return found;
}

/** The folder of a document's checks: the document, the key of each check, and one module per check. */
const answerFolder = (dir: string, surface: Surface, key: string) => join(dir, `answers-${surface}-${key}`);

function documentDigest(doc: unknown): string {
  return digest(compilerDigest() + JSON.stringify(doc));
}

/**
 * Compiles the check of every answer of the address's document, unless this document's are there
 * already. One module per check: a test file loads only the checks of the answers it gets. Returns
 * the document's digest.
 */
export function precompileAnswerChecks(surface: Surface, doc: unknown, dir = CHECKS): string {
  const key = documentDigest(doc);
  const folder = answerFolder(dir, surface, key);
  if (existsSync(folder)) return key;
  const temporary = `${folder}.${process.pid}`;
  rmSync(temporary, { recursive: true, force: true });
  mkdirSync(temporary, { recursive: true });
  const ajv = answerAjv(surface, doc, { code: { source: true } });
  const keys: Record<string, number> = {};
  [...answerSchemas(doc)].forEach(([k, schema], i) => {
    // Held by a name of its own, not an $id: the check is the same schema the test file would compile.
    ajv.addSchema(answerCheck(surface, schema), `check${i}`);
    writeFileSync(join(temporary, `${i}.js`), standalone(ajv, ajv.getSchema(`check${i}`)!));
    keys[k] = i;
  });
  writeFileSync(join(temporary, 'keys.json'), JSON.stringify(keys));
  writeFileSync(join(temporary, 'document.json'), JSON.stringify(doc));
  // Renamed into place whole: a folder that is there is complete.
  renameSync(temporary, folder);
  // Other documents' checks are of no use any more.
  for (const old of readdirSync(dir).filter((f) => f.startsWith(`answers-${surface}-`) && f !== `answers-${surface}-${key}`)) rmSync(join(dir, old), { recursive: true, force: true });
  return key;
}

/** For test/setup/validators.ts: compiles each address's checks and tells the test files their digests. */
export function precompileAllAnswerChecks(documentOf: (surface: Surface) => unknown, dir = CHECKS): void {
  const digests = Object.fromEntries(SURFACES.map((s) => [s, precompileAnswerChecks(s, documentOf(s), dir)]));
  process.env[RUN_DIGESTS] = JSON.stringify(digests);
}

export interface AnswerChecks {
  /** The address's OpenAPI document (as JSON), served at http://sandbox.test. */
  doc: any;
  /** Whether the checks come compiled from the cache; false when this file compiles them. */
  precompiled: boolean;
  check(schema: object): ValidateFunction;
  errorsText(errors: ErrorObject[] | null | undefined): string;
}

/**
 * The address's document and its answer checks: from the cache when test/setup/validators.ts wrote
 * them this run (or the document built here has them), else compiled here.
 */
export function answerChecks(surface: Surface, dir = CHECKS): AnswerChecks {
  let doc: any;
  const run = (JSON.parse(process.env[RUN_DIGESTS] ?? '{}') as Record<string, string | undefined>)[surface];
  let folder = run === undefined ? undefined : answerFolder(dir, surface, run);
  // Only read: one copy serves every file of a worker.
  if (folder && existsSync(folder)) doc = load(join(folder, 'document.json'));
  else {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { openApiDocument } = require('../../src/openapi/document') as typeof import('../../src/openapi/document');
    doc = openApiDocument(surface, BASE_URL);
    folder = answerFolder(dir, surface, documentDigest(doc));
  }
  const keys = existsSync(folder) ? (JSON.parse(readFileSync(join(folder, 'keys.json'), 'utf8')) as Record<string, number>) : undefined;
  let ajv: Ajv | undefined;
  const here = () => (ajv ??= answerAjv(surface, doc));
  let wording: Ajv | undefined;
  const compiled = new Map<string, ValidateFunction>();
  return {
    doc,
    precompiled: keys !== undefined,
    check(schema) {
      const key = answerKey(schema);
      let fn = compiled.get(key);
      if (!fn) {
        const i = keys?.[key];
        fn = i === undefined ? here().compile(answerCheck(surface, schema)) : (load(join(folder, `${i}.js`)) as ValidateFunction);
        compiled.set(key, fn);
      }
      return fn;
    },
    // ajv's errorsText reads the errors alone, none of its schemas: with every check compiled, an ajv
    // without the document's components (adding them is most of making one) words them the same.
    errorsText: (errors) => (ajv ?? (wording ??= validator().createAjv(ANSWER_OPTIONS))).errorsText(errors),
  };
}

// ---- Bodies against a response schema (expectSchema in test/helpers/world.ts) ----

const schemaFile = (dir: string, key: string) => join(dir, 'schemas', `${key}.js`);
const schemaDigest = (schema: Schema) => digest(compilerDigest() + JSON.stringify(schema));

/**
 * Compiles each schema with the options the sandbox validates with, one module per schema named by
 * its digest; only those missing. Modules of schemas that are no longer are removed.
 */
export function precompileSchemaChecks(schemas: Iterable<Schema>, dir = CHECKS): void {
  mkdirSync(join(dir, 'schemas'), { recursive: true });
  const wanted = new Set<string>();
  let ajv: Ajv | undefined;
  for (const schema of schemas) {
    const key = schemaDigest(schema);
    if (wanted.has(key)) continue;
    wanted.add(key);
    if (existsSync(schemaFile(dir, key))) continue;
    ajv ??= validator().createAjv({ code: { source: true } });
    let code: string;
    try {
      code = standalone(ajv, ajv.compile(schema));
    } catch {
      // Not a schema ajv takes: a test that checks against it gets the error from compiling it itself.
      continue;
    }
    writeWhole(schemaFile(dir, key), code);
  }
  for (const old of readdirSync(join(dir, 'schemas')).filter((f) => !wanted.has(f.replace(/\.js$/, '')))) rmSync(join(dir, 'schemas', old), { force: true });
}

const schemaChecks = new Map<string, WeakMap<Schema, ValidateFunction>>();

/** The validator of a response schema: compiled by test/setup/validators.ts, else here (as the sandbox does). */
export function schemaCheck(schema: Schema, dir = CHECKS): ValidateFunction {
  let loaded = schemaChecks.get(dir);
  if (!loaded) schemaChecks.set(dir, (loaded = new WeakMap()));
  let fn = loaded.get(schema);
  if (!fn) {
    const file = schemaFile(dir, schemaDigest(schema));
    fn = existsSync(file) ? (load(file) as ValidateFunction) : validator().compile(schema);
    loaded.set(schema, fn);
  }
  return fn;
}
