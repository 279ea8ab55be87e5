// Near misses, pure: what a request that matched no route, or whose credentials failed, came nearest
// to, or which members of its body the API did not read. Over the route table the OpenAPI document
// lists; the wire answer stays what it was.
import type { Surface } from '../store/records';

/** One route: its method (upper case) and its template (`/v1/payments/{id}/capture`). */
export interface RouteEntry {
  method: string;
  path: string;
}

const ADDRESS: Record<Surface, string> = { api: 'API', card: 'card' };

const segments = (path: string) => path.toLowerCase().replace(/\/+$/, '').split('/');

/** The route whose template the path fills (case-insensitive, a trailing slash ignored), if any. */
export function routeOf(routes: readonly RouteEntry[], method: string, path: string): RouteEntry | undefined {
  const want = segments(path);
  return routes.find((r) => r.method === method && fills(segments(r.path), want));
}

function fills(template: string[], path: string[]): boolean {
  if (template.length !== path.length) return false;
  return template.every((t, i) => (t.startsWith('{') ? path[i] !== '' : t === path[i]));
}

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** The template with the request's own values where it has parameters, to compare like with like. */
function filledWith(template: string, path: string): string {
  const want = segments(path);
  return segments(template)
    .map((t, i) => (t.startsWith('{') && want[i] !== undefined && want[i] !== '' ? want[i] : t))
    .join('/');
}

/** A different method costs as much as this many characters of the path. */
const METHOD_COST = 3;

/** The route nearest the request by method and path, when it is near enough to be what was meant. */
export function nearestRoute(routes: readonly RouteEntry[], method: string, path: string): RouteEntry | undefined {
  const asked = segments(path).join('/');
  let best: RouteEntry | undefined;
  let bestCost = Infinity;
  for (const r of routes) {
    const cost = distance(asked, filledWith(r.path, path)) + (r.method === method ? 0 : METHOD_COST);
    if (cost < bestCost) {
      best = r;
      bestCost = cost;
    }
  }
  // Farther than a third of the path is another request altogether, not a slip.
  return bestCost <= Math.max(METHOD_COST, Math.floor(asked.length / 3)) ? best : undefined;
}

/**
 * Why a request matched no route of its address: `POST /v1/payment: no such route; nearest POST
 * /v1/payments`, or the route is on the other address.
 */
export function noRouteNote(method: string, path: string, address: Surface, own: readonly RouteEntry[], other: readonly RouteEntry[]): string {
  const asked = `${method} ${path}`;
  const elsewhere = routeOf(other, method, path);
  const otherAddress: Surface = address === 'api' ? 'card' : 'api';
  if (elsewhere) return `${asked} on the ${ADDRESS[address]} address: no such route; ${elsewhere.method} ${elsewhere.path} is on the ${ADDRESS[otherAddress]} address`;
  const near = nearestRoute(own, method, path);
  return near ? `${asked}: no such route; nearest ${near.method} ${near.path}` : `${asked}: no such route`;
}

/** A payment asked for on the address it was not made on (its own site's, so nothing is disclosed). */
export function otherAddressNote(method: string, path: string, address: Surface, paymentAddress: Surface): string {
  return `${method} ${path} on the ${ADDRESS[address]} address: that payment is on the ${ADDRESS[paymentAddress]} address`;
}

/** The members of a request body the API does not read (dropped unless --strict-fields), in one note. */
export function unreadFieldsNote(fields: readonly string[]): string {
  return fields.map((f) => `${f} is not a field the API reads`).join('; ');
}

/** What a credentials check found, as the journal says it: never the key. */
export type CredentialsFinding =
  | { kind: 'missing' }
  | { kind: 'not-basic' }
  | { kind: 'malformed' }
  | { kind: 'no-such-site'; siteId: number }
  | { kind: 'no-key'; siteId: number }
  | { kind: 'wrong-key'; siteId: number };

export function credentialsNote(f: CredentialsFinding): string {
  switch (f.kind) {
    case 'missing':
      return 'no Authorization header';
    case 'not-basic':
      return 'Authorization is not Basic';
    case 'malformed':
      return 'Authorization is not base64 of SiteID:APIKey';
    case 'no-such-site':
      return `SiteID ${f.siteId}: no such site`;
    case 'no-key':
      return `SiteID ${f.siteId}: a linked site, without an APIKey of its own`;
    case 'wrong-key':
      return `SiteID ${f.siteId}: wrong APIKey`;
  }
}
