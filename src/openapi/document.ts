// The OpenAPI 3.1 document of each address, built from the route catalogue (src/routes/catalogue.ts)
// and the same schemas that validate requests and describe responses: a route's security and the
// answers of its guard, of the body reader and of faults follow from its path (guardOf). redocly lints the
// result (test/openapi/lint.test.ts) and every answer of the tests is checked against it
// (test/setup/conformance.ts).
import type { Schema } from '../schemas/common';
import { REQUEST_EXAMPLES } from './examples';
import { COOKIE as SESSION_COOKIE } from '../http/dashboard/session';
import { QUERY_PARAMETERS } from '../schemas/queries';
import { amountIn, countryIn, currencyIn } from '../schemas/common';
import * as controlSchemas from '../schemas/control';
import * as reproduceSchemas from '../schemas/reproduce';
import * as requestSchemas from '../schemas/requests';
import * as merchantSiteSchemas from '../schemas/merchant-sites';
import * as responseSchemas from '../schemas/responses';
import { messageResponse } from '../schemas/responses';
import { type Guard, type Operation, type Surface, guardOf, operations } from '../routes/catalogue';

export { type Guard, type Operation, type Surface, guardOf, operations };

/** Every /v1 request may carry its own fault (no control access needed). */
const FAULT_HEADER = {
  name: 'X-Sandbox-Fault',
  in: 'header',
  required: false,
  description: 'Sandbox only: a fault for this request alone. 500, 502, 503, 504, 429 or 408 answers that status and does nothing; reset closes the connection (nothing happens); lose-answer commits, then closes the connection with no answer; delay=2s answers late.',
  schema: { type: 'string', pattern: '^(500|502|503|504|429|408|reset|lose-answer|delay=[0-9.]+(ms|s|m|h))$' },
};

const json = (schema: Schema | undefined, example?: unknown) => ({
  'application/json': { schema: schema ?? {}, ...(example === undefined ? {} : { example }) },
});


const SECURITY: Record<Guard, Record<string, string[]>[]> = {
  basic: [{ basic: [] }],
  // The empty requirement: a client that --control-from trusts (loopback by default) needs no token.
  control: [{ controlToken: [] }, {}],
  session: [{ dashboardSession: [] }],
  open: [],
  // A marketplace's own routes: the control API's clients, or that marketplace's Basic credentials.
  own: [{ controlToken: [] }, { basic: [] }, {}],
};

/**
 * Answers every operation may give, whatever its route: the request body is read before routing
 * (a route that answers 400 in an envelope of its own says so instead), and every answer waits for
 * a restore under way and for its changes to be committed (503 when either fails).
 */
const EVERY_ROUTE = {
  400: { $ref: '#/components/responses/UnreadableBody' },
  413: { $ref: '#/components/responses/BodyTooLarge' },
  415: { $ref: '#/components/responses/UnsupportedBody' },
  503: { $ref: '#/components/responses/Unavailable' },
};

/** Answers of a fault (the X-Sandbox-Fault header, or a fault rule): every /v1 request may get one. */
const FAULT_ANSWERS = Object.fromEntries([408, 429, 500, 502, 503, 504].map((code) => [code, { $ref: '#/components/responses/Fault' }]));

/** Answers the guard itself gives, before the route runs. */
function guardAnswers(guard: Guard, op: Operation): Record<number, Schema | undefined> {
  switch (guard) {
    case 'control':
      return { 401: messageResponse, 403: messageResponse };
    case 'own':
      // Another marketplace's credentials: 404, as if it did not exist.
      return { 401: messageResponse, 403: messageResponse, 404: messageResponse };
    case 'basic':
      return { 401: messageResponse };
    case 'session':
      // No session: to the sign-in page. A form without the session's form token: a 403 page.
      return op.method === 'post' ? { 303: undefined, 403: undefined } : { 303: undefined };
    case 'open':
      return {};
  }
}

function parameters(op: Operation): Record<string, unknown>[] {
  return [
    ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema:
        m[1] === 'from' || m[1] === 'to' || m[1] === 'currency'
          ? { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 currency code (any case)' }
          : m[1] === 'country'
          ? { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country code (any case)' }
          : m[1] === 'token'
          ? { type: 'string', pattern: '^[0-9A-Fa-f]{32}$', description: 'A credit card token: 32 hexadecimal characters' }
          : m[1] === 'action' || m[1] === 'file' || m[1] === 'name'
            ? { type: 'string' }
            : { type: 'integer', minimum: 1 },
    })),
    ...(op.query ?? []).map((name) => {
      const q = QUERY_PARAMETERS[name];
      if (!q) throw new Error(`${op.operationId}: query parameter ${name} is not in QUERY_PARAMETERS`);
      return { name, in: 'query', required: false, description: q.description, schema: q.schema };
    }),
    ...(op.headers ?? []),
    ...(op.path.startsWith('/v1/') ? [FAULT_HEADER] : []),
  ];
}

function tagOf(op: Operation, surface: Surface): string {
  if (op.html) return op.path.startsWith('/dashboard') ? 'merchant dashboard' : 'payment page';
  if (op.control) return 'sandbox control';
  if (op.path.startsWith('/v1/methods') || op.image) return 'payment methods';
  return surface === 'api' ? 'split payments' : 'card payments';
}

function content(op: Operation, code: string, schema: Schema | undefined): Record<string, unknown> {
  // A page's answers are HTML, unless a schema says JSON (a download).
  if (op.html && schema === undefined) return { 'text/html': { schema: { type: 'string' } } };
  if (op.image && code === '200') return { [op.image]: { schema: { type: 'string', contentMediaType: op.image } } };
  if (op.file && code === '200') return { [op.file]: { schema: { type: 'string', contentMediaType: op.file } } };
  return json(schema);
}

const REASONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: queued',
  204: 'No content',
  303: 'See other: the page to go to next',
  400: 'Refused: the request is not valid here',
  401: 'Credentials missing or wrong',
  403: 'Forbidden: this client may not use the control API, or a dashboard form lacks its session’s token',
  404: 'Not found',
  408: 'Nothing matched in time',
  410: 'Gone: the token has expired',
  503: 'The change could not be saved',
};

/**
 * The exported schemas, each under the name of its export (PaymentResponse, SplitOut, …): the
 * document holds each once, in components/schemas, and generators make one named type of it.
 */
const NAMED = new Map<object, string>();
for (const [name, value] of Object.entries({ amountIn, countryIn, currencyIn, ...controlSchemas, ...reproduceSchemas, ...requestSchemas, ...responseSchemas, ...merchantSiteSchemas })) {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !NAMED.has(value)) NAMED.set(value, name[0]!.toUpperCase() + name.slice(1));
}

/** A copy of `value` in which every named schema is a $ref to components/schemas, which it fills. */
function referenced(value: unknown, schemas: Record<string, unknown>, self?: object): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => referenced(v, schemas, self));
  const name = value === self ? undefined : NAMED.get(value);
  if (name !== undefined) {
    if (!(name in schemas)) {
      schemas[name] = {}; // taken before its parts are walked, so a schema that holds itself ends
      schemas[name] = referenced(value, schemas, value);
    }
    return { $ref: `#/components/schemas/${name}` };
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referenced(v, schemas, self)]));
}

export function openApiDocument(surface: Surface, serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const named = new Set<string>();
  for (const op of operations(surface)) {
    // Client generators name methods by operationId: two operations of one name would collide.
    if (named.has(op.operationId)) throw new Error(`operationId ${op.operationId} is given twice (${op.method.toUpperCase()} ${op.path})`);
    named.add(op.operationId);
    const guard = guardOf(op);
    const params = parameters(op);
    const answers = { ...guardAnswers(guard, op), ...op.responses };
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.doneWith === undefined ? {} : { 'x-done-with': op.doneWith }),
      tags: [tagOf(op, surface)],
      security: SECURITY[guard],
      ...(params.length ? { parameters: params } : {}),
      ...(op.request
        ? { requestBody: { required: false, content: json(op.request, REQUEST_EXAMPLES[`${op.method.toUpperCase()} ${op.path} ${op.control ? 'control' : surface}`]) } }
        : {}),
      responses: {
        ...EVERY_ROUTE,
        ...Object.fromEntries(
          Object.entries(answers).map(([code, schema]) => [
            code,
            { description: REASONS[code] ?? `HTTP ${code}`, ...(code === '303' || code === '204' ? {} : { content: content(op, code, schema) }) },
          ]),
        ),
        ...(op.path.startsWith('/v1/') ? FAULT_ANSWERS : {}),
      },
    };
  }
  const schemas: Record<string, unknown> = {};
  return {
    openapi: '3.1.0',
    info: {
      title: surface === 'api' ? 'split-sandbox: split-payments API' : 'split-sandbox: card API',
      version: require('../../package.json').version as string,
      description: 'Amounts are integers in minor units. `x-reason` on a schema names the reason code a value failing it is refused with.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: surface === 'api' ? 'split payments' : 'card payments', description: surface === 'api' ? 'Payments with splits, their captures and refunds' : 'Card payments, their captures and refunds' },
      ...(surface === 'api' ? [{ name: 'payment methods', description: 'The payment methods and their logos' }] : []),
      { name: 'payment page', description: 'The pages a payer sees at RedirectURL (HTML)' },
      ...(surface === 'api' ? [{ name: 'merchant dashboard', description: 'The merchant dashboard (HTML forms)' }] : []),
      { name: 'sandbox control', description: 'The sandbox’s own API: time, events, notifications, faults, snapshots' },
    ],
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'base64("SiteID:APIKey")' },
        controlToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token the sandbox was started with (--control-token). The clients --control-from names need none: by default loopback when no token is set, nobody when one is.',
        },
        ...(surface === 'api' ? { dashboardSession: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by POST /dashboard/login' } } : {}),
      },
      responses: referenced({
        BodyTooLarge: { description: 'The request body is larger than 1 MiB', content: json(messageResponse) },
        Fault: {
          description: 'Sandbox only: the answer of a fault that X-Sandbox-Fault or a fault rule asked for (503 also: the change could not be saved)',
          content: json(messageResponse),
        },
        UnreadableBody: { description: 'The request body could not be read: not JSON, or not in the charset it names', content: json(messageResponse) },
        Unavailable: {
          description: 'The change could not be saved (a full disk), or a snapshot being restored took too long (Retry-After): nothing was done',
          content: json(messageResponse),
        },
        UnsupportedBody: { description: 'The body’s charset or content encoding is not one the sandbox reads', content: json(messageResponse) },
      }, schemas),
      schemas,
    },
    paths: referenced(paths, schemas),
  };
}
