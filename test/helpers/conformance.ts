// Checks an answer against the OpenAPI document of the address that gave it: the operation, the
// status and the body's schema. The jest setup file (test/setup/conformance.ts) runs it on every answer.
import type { ValidateFunction } from 'ajv';
import type { Surface } from '../../src/openapi/document';
import { type AnswerChecks, answerChecks } from './compiled-checks';

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

const docs = new Map<Surface, { doc: any; routes: Route[]; checks: AnswerChecks; validators: Map<unknown, ValidateFunction> }>();

export function documentOf(surface: Surface) {
  let entry = docs.get(surface);
  if (!entry) {
    // Compiled once per run (test/helpers/compiled-checks.ts), not once per test file.
    const checks = answerChecks(surface);
    const doc = checks.doc;
    const routes = Object.entries(doc.paths as Record<string, Record<string, any>>).map(([path, ops]) => ({
      // The router matches paths case-insensitively and with or without a trailing slash.
      pattern: new RegExp('^' + path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+') + '/?$', 'i'),
      params: (path.match(/\{/g) ?? []).length,
      path,
      ops,
    }));
    // A literal segment wins over a parameter (/v1/methods/assigned before /v1/methods/{id}), as in the router.
    routes.sort((a, b) => a.params - b.params);
    entry = { doc, routes, checks, validators: new Map() };
    docs.set(surface, entry);
  }
  return entry;
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
  const { doc, routes, checks, validators } = documentOf(surface);
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
  // Named schemas are $refs into the document's components: one check each, for all the answers using it.
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = checks.check(schema)));
  if (validate(body)) return undefined;
  const excerpt = JSON.stringify(body).slice(0, 300);
  return `${name} answered ${a.status} with a body its schema refuses: ${checks.errorsText(validate.errors)}\n  body: ${excerpt}`;
}
