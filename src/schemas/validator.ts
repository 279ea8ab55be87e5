// Request validators, compiled once (at build time where possible); ajv errors turned into reasons.
import { join } from 'node:path';
import type Ajv from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { type Reason, type ReasonCode, reason } from '../errors/reasons';
import type { Schema } from './common';
import { VALIDATED } from './registry';

/** The options every validator is compiled with, at build time and at run time alike. */
export const AJV_OPTIONS: Options = { allErrors: true, strict: true, verbose: true, allowUnionTypes: true };

/**
 * The options of a schema's check: whether a body is valid, the same answer as its validator's, without
 * collecting every error with its schema and data on the way (a failed branch of an anyOf makes them
 * too) and with each enum compared value by value rather than in a loop of deep equality: some three
 * times less work on a valid payment. A body the check refuses goes to the validator for its reasons.
 */
export const CHECK_OPTIONS: Options = { allErrors: false, verbose: false, loopEnum: 100_000 };

/** An ajv with the project's annotations: the reason code of a failing value, and OpenAPI's example. */
export function createAjv(extra: Options = {}): Ajv {
  // Loaded only when a schema must be compiled at run time (tests, or a schema not precompiled).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const AjvClass = (require('ajv') as { default: typeof Ajv }).default;
  const ajv = new AjvClass({ ...AJV_OPTIONS, ...extra });
  ajv.addKeyword({ keyword: 'x-reason', schemaType: 'number' });
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
}

let runtime: Ajv | undefined;
const compiled = new WeakMap<Schema, ValidateFunction>();
const checks = new WeakMap<Schema, ValidateFunction | null>();
const NAMES = new Map<Schema, string>(Object.entries(VALIDATED).map(([name, schema]) => [schema, name]));

/**
 * Where the precompiled validators are from the bundle's folder, in the bundle only (scripts/bundle.cjs
 * writes it in): they stay files of their own beside it, half the bundle's bytes that a start would
 * read and no start runs, each loaded when its body is first seen.
 */
declare const BUNDLED_VALIDATORS_DIR: string | undefined;

/**
 * The checks every start runs, of the shipped fixtures and scenarios: required by name, so that the
 * bundle holds them and its code cache their compiled code.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const AT_START: Record<string, () => ValidateFunction> = {
  'scenarioFile.check': () => require('./generated/scenarioFile.check.js') as ValidateFunction,
  'merchantsFixture.check': () => require('./generated/merchantsFixture.check.js') as ValidateFunction,
  'methodsFixture.check': () => require('./generated/methodsFixture.check.js') as ValidateFunction,
  'exchangeRatesFixture.check': () => require('./generated/exchangeRatesFixture.check.js') as ValidateFunction,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The build's precompiled validators, when this runs from dist/ (absent when running the sources). */
function precompiled(name: string): ValidateFunction | undefined {
  try {
    const start = AT_START[name];
    if (start) return start();
    // Any other by a name the bundler cannot follow, so that it leaves the file out (the tests map the
    // relative name to their own compiled copies).
    const file = typeof BUNDLED_VALIDATORS_DIR === 'string' ? join(__dirname, BUNDLED_VALIDATORS_DIR, `${name}.js`) : `./generated/${name}.js`;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file) as ValidateFunction;
  } catch {
    return undefined;
  }
}

export function compile(schema: Schema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    const name = NAMES.get(schema);
    fn = (name && process.env.SANDBOX_RUNTIME_SCHEMAS !== '1' ? precompiled(name) : undefined) ?? (runtime ??= createAjv()).compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/**
 * The build's check of a schema (CHECK_OPTIONS), or none (a schema not precompiled, the sources run
 * without a build): then its validator decides alone, and no second compile is paid for at run time.
 */
export function checkOf(schema: Schema): ValidateFunction | null {
  let fn = checks.get(schema);
  if (fn === undefined) {
    const name = NAMES.get(schema);
    fn = (name && process.env.SANDBOX_RUNTIME_SCHEMAS !== '1' ? precompiled(`${name}.check`) : undefined) ?? null;
    checks.set(schema, fn);
  }
  return fn;
}

const HINTS: Partial<Record<number, string>> = {
  118: 'expected an amount in minor units: a JSON integer or a string of 1 to 12 digits, greater than 0',
  100: 'expected an ISO 4217 currency code in upper case, such as EUR',
  120: 'expected an ISO 3166-1 alpha-2 country code in upper case, such as NL',
  102: 'expected an email address',
};

/** `/Payment/Splits/1/SiteID` → `Payment.Splits[1].SiteID`. */
export function fieldName(pointer: string, prefix = ''): string {
  let out = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `expected ${String(p.type).replace(',', ' or ')}`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minLength':
      return `must not be empty`;
    case 'minimum':
    case 'maximum':
      return `must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${String(p.limit)}`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item(s)`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).filter((v) => v !== null).slice(0, 10).join(', ')}`;
    case 'pattern':
      return 'has the wrong format';
    case 'minProperties':
      return 'must name at least one field';
    case 'maxProperties':
      return `must name at most ${String(p.limit)} field(s)`;
    default:
      return e.message ?? 'is not valid';
  }
}

/**
 * Validates `body` against `schema` and returns one reason per faulty field, in the order of the
 * schema; an empty list when the body is valid. `root` names the body in Info ("Payment.Amount").
 */
export function validate(schema: Schema, body: unknown, root = ''): Reason[] {
  if (checkOf(schema)?.(body) === true) return [];
  const fn = compile(schema);
  if (fn(body)) return [];
  const byField = new Map<string, { code: number; info: string }>();
  for (const e of fn.errors ?? []) {
    const p = e.params as Record<string, string>;
    let pointer = e.instancePath;
    if (e.keyword === 'required') pointer += '/' + p.missingProperty;
    if (e.keyword === 'additionalProperties') pointer += '/' + p.additionalProperty;
    const field = fieldName(pointer, root) || 'The request body';
    const xReason = (e.parentSchema as Schema | undefined)?.['x-reason'] as number | undefined;
    let entry: { code: number; info: string };
    if (e.keyword === 'required') entry = { code: 1, info: `${field} is missing` };
    else if (e.keyword === 'additionalProperties') entry = { code: 2, info: `${field} is not a known field` };
    else if (xReason !== undefined) entry = { code: xReason, info: `${field} is invalid: ${HINTS[xReason] ?? describe(e)}` };
    else entry = { code: 2, info: `${field} is invalid: ${describe(e)}` };
    const seen = byField.get(field);
    // Within anyOf, the branch errors come first; the reason-coded error of the whole value wins.
    if (!seen || (xReason !== undefined && seen.code === 2)) byField.set(field, entry);
  }
  return [...byField.values()].map((r) => reason(r.code as ReasonCode, r.info));
}

/** The fields of each lenient request body that were dropped, by the body (its parsed object). */
const IGNORED = new WeakMap<object, string[]>();

/**
 * Removes from `body`, in place, every member its schema does not name, wherever the schema closes an
 * object (`additionalProperties: false`), and returns their names (`Payment.Customer.Foo`). Members
 * kept are followed down through `properties` and array `items`.
 */
export function dropUnknownFields(schema: Schema, body: unknown, prefix = ''): string[] {
  const dropped: string[] = [];
  const walk = (s: Schema | undefined, v: unknown, at: string): void => {
    if (s === undefined || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      const items = s.items as Schema | undefined;
      if (items) v.forEach((item, i) => walk(items, item, `${at}[${i}]`));
      return;
    }
    const props = s.properties as Record<string, Schema> | undefined;
    if (!props) return;
    const obj = v as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const name = at === '' ? key : `${at}.${key}`;
      if (Object.hasOwn(props, key)) walk(props[key], obj[key], name);
      else if (s.additionalProperties === false) {
        dropped.push(name);
        delete obj[key];
      }
    }
  };
  walk(schema, body, prefix);
  return dropped;
}

/**
 * Validates a request body of the API. Fidelity: the real service (ASP.NET Web API) ignores members it
 * does not read, and the official .NET SDK sends every property of its classes; so unless `strict`,
 * such members are dropped before validation (ignoredFields names them) instead of refused.
 */
export function validateRequest(schema: Schema, body: unknown, strict: boolean): Reason[] {
  if (!strict && body !== null && typeof body === 'object') {
    const dropped = dropUnknownFields(schema, body);
    if (dropped.length > 0) IGNORED.set(body, dropped);
  }
  return validate(schema, body);
}

/** The members validateRequest dropped from this body, if it dropped any. */
export function ignoredFields(body: unknown): readonly string[] | undefined {
  return body !== null && typeof body === 'object' ? IGNORED.get(body) : undefined;
}
