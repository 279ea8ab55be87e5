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

// Two rows reused by every call: a request no route takes is measured against each route.
let rows = [new Int32Array(64), new Int32Array(64)] as const;

/**
 * Edit distance (insertions, deletions, substitutions) between two short strings; any number from
 * `limit` up once it is known not to be below it (each row's least value is a bound of the answer).
 */
export function distance(a: string, b: string, limit = Infinity): number {
  if (rows[0].length <= b.length) rows = [new Int32Array(b.length + 1), new Int32Array(b.length + 1)];
  let [prev, row] = rows;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    const c = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (c === b.charCodeAt(j - 1) ? 0 : 1));
      row[j] = d;
      if (d < least) least = d;
    }
    if (least >= limit) return least;
    [prev, row] = [row, prev];
  }
  return prev[b.length]!;
}

/** The template with the request's own values (its segments, `want`) where it has parameters, to compare like with like. */
function filledWith(template: string, want: string[]): string {
  return segments(template)
    .map((t, i) => (t.startsWith('{') && want[i] !== undefined && want[i] !== '' ? want[i] : t))
    .join('/');
}

/** A different method costs as much as this many characters of the path. */
const METHOD_COST = 3;

/** The route nearest the request by method and path, when it is near enough to be what was meant. */
export function nearestRoute(routes: readonly RouteEntry[], method: string, path: string): RouteEntry | undefined {
  const want = segments(path);
  const asked = want.join('/');
  // Farther than a third of the path is another request altogether, not a slip.
  const near = Math.max(METHOD_COST, Math.floor(asked.length / 3));
  // The first of the nearest routes, among those near enough: each route's distance is worked out only
  // as far as it could still beat the best so far (a request no route takes is measured against each).
  let best: RouteEntry | undefined;
  let bestCost = near + 1;
  for (const r of routes) {
    const methodCost = r.method === method ? 0 : METHOD_COST;
    const limit = bestCost - methodCost;
    if (limit <= 0) continue;
    const filled = filledWith(r.path, want);
    // The difference in length is a bound of the distance.
    if (Math.abs(filled.length - asked.length) >= limit) continue;
    const cost = distance(asked, filled, limit) + methodCost;
    if (cost < bestCost) {
      best = r;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * The path with the API's base put right, when it has another: whatever stands before a version
 * segment (`/api/v1/…`, `/v2/…`) becomes `/v1`, and a path with no version gets one (`/payments/5`).
 */
export function withApiBase(path: string): string | undefined {
  const parts = path.split('/').filter((s) => s !== '');
  const version = parts.findIndex((s) => /^v[0-9]+$/i.test(s));
  const rest = version < 0 ? parts : parts.slice(version + 1);
  if (rest.length === 0) return undefined;
  const fixed = `/v1/${rest.join('/')}`;
  return fixed.toLowerCase() === `/${parts.join('/')}`.toLowerCase() ? undefined : fixed;
}

/**
 * Why a request matched no route of its address: `POST /v1/payment: no such route; nearest POST
 * /v1/payments`, the route is on the other address, or the path's base is not the API's (`GET
 * /v2/payments/5 matches no route; did you mean GET /v1/payments/{id}?`).
 */
export function noRouteNote(method: string, path: string, address: Surface, own: readonly RouteEntry[], other: readonly RouteEntry[]): string {
  const asked = `${method} ${path}`;
  const otherAddress: Surface = address === 'api' ? 'card' : 'api';
  // A wrong base URL is the commonest slip of a client's configuration: said first, with the route meant.
  const based = withApiBase(path);
  if (based !== undefined) {
    const meant = routeOf(own, method, based);
    if (meant) return `${asked} matches no route; did you mean ${meant.method} ${meant.path}? Paths begin /v1, right after the host`;
    const there = routeOf(other, method, based);
    if (there) return `${asked} on the ${ADDRESS[address]} address matches no route; did you mean ${there.method} ${there.path} on the ${ADDRESS[otherAddress]} address?`;
  }
  const elsewhere = routeOf(other, method, path);
  if (elsewhere) return `${asked} on the ${ADDRESS[address]} address: no such route; ${elsewhere.method} ${elsewhere.path} is on the ${ADDRESS[otherAddress]} address`;
  const near = nearestRoute(own, method, based ?? path);
  return near ? `${asked}: no such route; nearest ${near.method} ${near.path}` : `${asked}: no such route`;
}

/** The card method, the one the card address takes (MethodID 6, or none). */
const CARD_METHOD = 6;

/**
 * A create body sent to the wrong address, told by its own members: a card's (Payment.Card or
 * Payment.CreditCardToken) on the API address, another method's (split payments' among them) on the card
 * address. `body` is the request's text; anything but a JSON object with a Payment says nothing.
 */
export function bodyAddressNote(method: string, path: string, address: Surface, body: unknown): string | undefined {
  let payment: unknown;
  try {
    payment = typeof body === 'string' ? (JSON.parse(body) as { Payment?: unknown })?.Payment : undefined;
  } catch {
    return undefined;
  }
  if (payment === null || typeof payment !== 'object' || Array.isArray(payment)) return undefined;
  const p = payment as Record<string, unknown>;
  const asked = `${method} ${path} on the ${ADDRESS[address]} address`;
  if (address === 'api') {
    const card = ['Card', 'CreditCardToken'].find((k) => p[k] !== undefined && p[k] !== null);
    return card === undefined ? undefined : `${asked}: Payment.${card} makes it a card payment's body; send card payments to the card address`;
  }
  if (typeof p.MethodID === 'number' && p.MethodID !== CARD_METHOD) {
    return `${asked}: Payment.MethodID ${p.MethodID} is not the card method (6): this looks like a body for the API address (split payments and every other method); send it there`;
  }
  return undefined;
}

/** A path parameter that cannot be an ID (`/v1/payments/abc`): IDs are whole numbers. */
export function notAnIdNote(method: string, path: string, route: string, param: string, value: string): string {
  const parts = route.split('/');
  const at = parts.indexOf(`{${param}}`);
  const noun = at > 0 ? parts[at - 1]!.toLowerCase().replace(/s$/, '') : 'resource';
  return `${method} ${path}: ${JSON.stringify(value)} is not a ${noun} ID; ${noun} IDs are whole numbers`;
}

/**
 * A payment that is not the caller's, or none at all: said alike, so that a marketplace never
 * learns whether another's payment exists.
 */
export function notYoursNote(method: string, path: string, paymentId: number): string {
  return `${method} ${path}: no payment ${paymentId} of yours`;
}

/** Whose the payment of a `notYoursNote` is, for the whole sandbox's journal only (the control API). */
export function ownerNote(note: string, paymentId: number | null, owner: { siteId: number; ownerSiteId: number } | undefined): string {
  if (paymentId === null || !note.endsWith(`: no payment ${paymentId} of yours`)) return note;
  if (owner === undefined) return `${note}; there is no payment ${paymentId} at all`;
  return `${note}; payment ${paymentId} is marketplace ${owner.ownerSiteId}'s${owner.siteId === owner.ownerSiteId ? '' : ` (SiteID ${owner.siteId})`}`;
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
