// Checks an answer against the OpenAPI document of the address that gave it: the operation, the
// status and the body's schema. The jest setup file (test/setup/conformance.ts) runs it on every answer.
import type { ValidateFunction } from 'ajv';
import { openApiDocument, type Surface } from '../../src/openapi/document';
import { createAjv } from '../../src/schemas/validator';

export interface Answer {
  method: string;
  /** The request's path, without the query. */
  path: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
  /** The request's own headers, by lower-case name. */
  requestHeaders: Record<string, unknown>;
}

interface Route {
  pattern: RegExp;
  params: number;
  path: string;
  ops: Record<string, any>;
}

const docs = new Map<Surface, { doc: any; routes: Route[]; base: string }>();
const ajv = createAjv({ strict: false, allErrors: false, verbose: false });
const validators = new Map<unknown, ValidateFunction>();

function documentOf(surface: Surface) {
  let entry = docs.get(surface);
  if (!entry) {
    const doc = openApiDocument(surface, 'http://sandbox.test') as any;
    const routes = Object.entries(doc.paths as Record<string, Record<string, any>>).map(([path, ops]) => ({
      // The router matches paths case-insensitively and with or without a trailing slash.
      pattern: new RegExp('^' + path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+') + '/?$', 'i'),
      params: (path.match(/\{/g) ?? []).length,
      path,
      ops,
    }));
    // A literal segment wins over a parameter (/v1/methods/assigned before /v1/methods/{id}), as in the router.
    routes.sort((a, b) => a.params - b.params);
    // The components, once per address: each answer's schema refers into them, so a named schema
    // is compiled once for all the answers that use it.
    const base = `http://sandbox.test/openapi/${surface}.json`;
    ajv.addSchema({ $id: base, components: doc.components });
    entry = { doc, routes, base };
    docs.set(surface, entry);
  }
  return entry;
}

/** A copy of `schema` whose local $refs (`#/components/…`) point into the document at `base`. */
function within(base: string, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((s) => within(base, s));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? base + v : within(base, v)]),
  );
}

const ROUTER_NOT_FOUND = /^No HTTP resource was found that matches the request URI /;

/**
 * Answers no operation describes, allowed on purpose: each is what a test gets for junk that the
 * document cannot describe per operation.
 */
function allowed(a: Answer, body: any, routed: boolean): boolean {
  // A malformed X-Sandbox-Fault header is refused before the route runs, in the plain envelope.
  if (a.status === 400 && a.requestHeaders['x-sandbox-fault'] !== undefined && typeof body?.Message === 'string') return true;
  if (routed) return false;
  // Before routing, /v1 checks the credentials and /_sandbox the control guard, on any path.
  if (/^\/v1\//i.test(a.path) && a.status === 401 && typeof body?.Message === 'string') return true;
  if (/^\/_sandbox\//i.test(a.path) && (a.status === 401 || a.status === 403) && typeof body?.Message === 'string') return true;
  // A path or method no route serves: the router's own 404, in the real service's words.
  if (a.status === 404 && typeof body?.Message === 'string' && ROUTER_NOT_FOUND.test(body.Message)) return true;
  // Any other path under /dashboard/: the sign-in page for strangers, a 404 page for merchants.
  if (/^\/dashboard\//i.test(a.path) && (a.status === 303 || (a.status === 404 && (a.contentType ?? '').startsWith('text/html')))) return true;
  return false;
}

/** What is wrong with the answer; undefined when the document describes it. */
export function nonConformity(surface: Surface, a: Answer): string | undefined {
  const { doc, routes, base } = documentOf(surface);
  const method = a.method === 'HEAD' ? 'get' : a.method.toLowerCase();
  const route = routes.find((r) => r.pattern.test(a.path) && r.ops[method]);
  const body = a.body;
  if (allowed(a, body, route !== undefined)) return undefined;
  const what = `${a.method} ${a.path} on the ${surface} address answered ${a.status}`;
  if (!route) return `${what}, but the document has no operation for it`;
  const op = route.ops[method];
  const name = `${a.method} ${route.path} (${op.operationId as string}) on the ${surface} address`;
  let response = op.responses[String(a.status)];
  if (!response) return `${name} answered ${a.status}, which the document does not list (it lists ${Object.keys(op.responses).join(', ')})`;
  if (response.$ref) response = doc.components.responses[String(response.$ref).split('/').pop()!];
  const content = response.content as Record<string, { schema?: object }> | undefined;
  if (!content || a.method === 'HEAD') return undefined;
  const media = Object.keys(content)[0]!;
  if (!(a.contentType ?? '').startsWith(media)) return `${name} answered ${a.status} as ${a.contentType ?? 'no content type'}, the document says ${media}`;
  const schema = content[media]!.schema;
  if (media !== 'application/json' || !schema) return undefined;
  // Named schemas are $refs into the document's components, which the ajv holds: compiled once each.
  const key = (schema as { $ref?: string }).$ref ?? schema;
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile({ allOf: [within(base, schema)] })));
  if (validate(body)) return undefined;
  const excerpt = JSON.stringify(body).slice(0, 300);
  return `${name} answered ${a.status} with a body its schema refuses: ${ajv.errorsText(validate.errors)}\n  body: ${excerpt}`;
}
