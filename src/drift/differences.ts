// Where the shadow sandbox's answer differs from the upstream's, by domain (status, reasons, fields,
// types, values) rather than by bytes, and the run's list of such differences. Pure but for the
// listeners a report calls: no I/O.
import { SECURITY_CODE_MASK } from '../domain/card-data';
import { maskPath, maskValue } from './mask';
import { timeFormat, urlShape, volatileField, type VolatileField } from './volatile';

export type DifferenceKind =
  | 'http status'
  | 'status'
  | 'reason'
  | 'missing field'
  | 'extra field'
  | 'null'
  | 'type'
  | 'value'
  | 'notification'
  | 'notification order'
  | 'status path';

export const DIFFERENCE_KINDS: readonly DifferenceKind[] = [
  'http status',
  'status',
  'reason',
  'missing field',
  'extra field',
  'null',
  'type',
  'value',
  'notification',
  'notification order',
  'status path',
];

/** The call that first showed a difference. Path as the integration sent it (on the upstream's IDs), masked. */
export interface CallRef {
  Method: string;
  Path: string;
  /** Its entry in the request journal, when it has one. */
  JournalID: number | null;
  At: string;
}

export interface Difference {
  Kind: DifferenceKind;
  /** `POST /v1/payments/{id}/capture`, `card POST /v1/payments`, `notification Payment`. */
  Route: string;
  /** `Payment.Splits[].Amount`: dotted, `[]` for an array's items; null when the difference is the whole answer's. */
  Field: string | null;
  /** The upstream's value (absent: the field was missing), masked. */
  Upstream: unknown;
  Shadow: unknown;
  /** How many times it was seen. */
  Count: number;
  /** The first call that showed it. */
  Call: CallRef;
}

export type Found = Omit<Difference, 'Count'>;

export interface Side {
  status: number;
  /** Parsed JSON; undefined when the answer had no body or not a JSON one. */
  body: unknown;
}

export interface Exchange {
  /** The route's template: `POST /v1/payments/{id}/capture` (`card ` before the card address's). */
  route: string;
  call: CallRef;
  upstream: Side;
  shadow: Side;
  /**
   * The upstream ID a shadow ID stands for, when known (the proxy's map). Used on values that hold an
   * ID inside them (a generated refund's MerchantTransactionID, `…-R<refund ID>`): each whole digit
   * run of a shadow's value that is a mapped ID is read as the upstream's before comparing.
   */
  upstreamIdOf?: (shadowId: string) => string | undefined;
}

type JsonType = 'absent' | 'null' | 'string' | 'number' | 'boolean' | 'array' | 'object';
const typeOf = (v: unknown): JsonType =>
  v === undefined ? 'absent' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'bigint' ? 'number' : (typeof v as JsonType);
const has = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined;

/** How deep bodies are walked field by field. */
const MAX_DEPTH = 64;

/** Objects whose ID and Info are a status: a payment's Status, a split's or a refund's StateDetails. */
const STATUS_KEYS = new Set(['Status', 'StateDetails']);

interface Walk {
  route: string;
  call: CallRef;
  out: Found[];
  upstreamIdOf: ((id: string) => string | undefined) | undefined;
}

/** A value as a difference keeps it: masked, and a hidden field's value left out. */
function kept(value: unknown, key: string | null, hidden: boolean): unknown {
  if (hidden && value !== undefined && value !== null) return typeOf(value) === 'object' || typeOf(value) === 'array' ? `(${typeOf(value)})` : SECURITY_CODE_MASK;
  return maskValue(value, key);
}

function found(w: Walk, kind: DifferenceKind, field: string | null, key: string | null, upstream: unknown, shadow: unknown, hidden = false): void {
  w.out.push({ Kind: kind, Route: w.route, Field: field, Upstream: kept(upstream, key, hidden), Shadow: kept(shadow, key, hidden), Call: maskCall(w.call) });
}

export function maskCall(call: CallRef): CallRef {
  return { ...call, Path: maskPath(call.Path) };
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The reason codes of a Reasons array, in order. */
const codes = (reasons: unknown[]) => reasons.map((r) => (r !== null && typeof r === 'object' ? (r as { Code?: unknown }).Code : r));
const infos = (reasons: unknown[]) => reasons.map((r) => (r !== null && typeof r === 'object' ? (r as { Info?: unknown }).Info : undefined));
const same = (a: unknown, b: unknown) => JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) === JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/** A shadow's string with each mapped ID read as the upstream's. */
function mapped(w: Walk, s: string): string {
  const of = w.upstreamIdOf;
  return of ? s.replace(/[0-9]+/g, (id) => of(id) ?? id) : s;
}

/**
 * Compares two values found at `path` under `key` (for an array's items, the array's key).
 * `volatile`: the entry of an enclosing field that makes all it holds volatile (a token's object).
 */
function walk(w: Walk, u: unknown, s: unknown, path: string, key: string | null, parent: string | null, inherited: VolatileField | null, depth = 0): void {
  // Deeper than any answer of the API: not compared, so that no body can exhaust the stack.
  if (depth > MAX_DEPTH) return;
  const tu = typeOf(u);
  const ts = typeOf(s);
  const field = path === '' ? null : path;
  const isStatus = parent !== null && STATUS_KEYS.has(parent) && (key === 'ID' || key === 'Info');
  const volatile = inherited ?? (key === null || isStatus ? null : volatileField(key));
  const hidden = volatile?.Hidden ?? false;

  if (key === 'Reasons' && parent !== null && STATUS_KEYS.has(parent) && tu === 'array' && ts === 'array') {
    const [a, b] = [u as unknown[], s as unknown[]];
    if (!same(codes(a), codes(b))) found(w, 'reason', field, key, codes(a), codes(b));
    else if (!same(infos(a), infos(b))) found(w, 'reason', `${path}[].Info`, 'Info', infos(a), infos(b));
    return;
  }
  if (tu === 'absent' && ts === 'absent') return;
  if (tu === 'absent' || ts === 'absent') {
    // Only the whole body can be absent here (a field's absence is found by its object): JSON against none.
    found(w, 'type', field, key, tu === 'absent' ? '(no JSON body)' : u, ts === 'absent' ? '(no JSON body)' : s, hidden);
    return;
  }
  if ((tu === 'null') !== (ts === 'null')) {
    found(w, 'null', field, key, u, s, hidden);
    return;
  }
  if (tu !== ts) {
    found(w, 'type', field, key, u, s, hidden);
    return;
  }
  if (tu === 'null') return;
  if (tu === 'object') {
    const [a, b] = [u as Record<string, unknown>, s as Record<string, unknown>];
    const inner = volatile !== null && volatile.Hidden ? volatile : null;
    for (const k of Object.keys(a)) {
      const at = join(path, k);
      if (!has(a, k)) continue;
      if (!has(b, k)) {
        found(w, 'missing field', at, k, a[k], undefined, (inner ?? volatileField(k))?.Hidden ?? false);
        continue;
      }
      walk(w, a[k], b[k], at, k, key, inner, depth + 1);
    }
    for (const k of Object.keys(b)) {
      if (has(b, k) && !has(a, k)) found(w, 'extra field', join(path, k), k, undefined, b[k], (inner ?? volatileField(k))?.Hidden ?? false);
    }
    return;
  }
  if (tu === 'array') {
    const [a, b] = [u as unknown[], s as unknown[]];
    if (volatile !== null && volatile.Treatment === 'type only') return;
    // Items are compared by position (splits, reasons, a list's items the proxy kept for both sides).
    const items = `${path}[]`;
    for (let i = 0; i < Math.min(a.length, b.length); i++) walk(w, a[i], b[i], items, key, parent, volatile !== null && volatile.Hidden ? volatile : null, depth + 1);
    if (a.length !== b.length) found(w, 'value', field, key, `${a.length} item${a.length === 1 ? '' : 's'}`, `${b.length} item${b.length === 1 ? '' : 's'}`);
    return;
  }
  // A leaf of the same JSON type on both sides.
  if (isStatus) {
    if (u !== s) found(w, 'status', field, key, u, s);
    return;
  }
  if (volatile !== null) {
    if (volatile.Treatment === 'format' && typeof u === 'string' && typeof s === 'string' && timeFormat(u) !== timeFormat(s)) found(w, 'type', field, key, u, s, hidden);
    if (volatile.Treatment === 'path' && typeof u === 'string' && typeof s === 'string' && urlShape(u) !== urlShape(mapped(w, s))) found(w, 'value', field, key, u, s, hidden);
    return;
  }
  const sv = typeof s === 'string' ? mapped(w, s) : s;
  if (!same(u, sv)) found(w, 'value', field, key, u, s);
}

/**
 * The differences between the upstream's answer to a call and the shadow's. Differing HTTP statuses
 * are the one difference of the exchange (the bodies of two different answers say nothing more).
 */
export function compareExchange(ex: Exchange): Found[] {
  const w: Walk = { route: ex.route, call: ex.call, out: [], upstreamIdOf: ex.upstreamIdOf };
  if (ex.upstream.status !== ex.shadow.status) {
    found(w, 'http status', null, null, ex.upstream.status, ex.shadow.status);
    return w.out;
  }
  walk(w, ex.upstream.body, ex.shadow.body, '', null, null, null);
  return w.out;
}

/**
 * The differences between a notification the upstream sent and the one the shadow sent for the same
 * change (route `notification <kind>`: `notification Payment`). One of them undefined: that side
 * sent none, one 'notification' difference.
 */
export function compareNotification(kind: string, call: CallRef, upstream: unknown, shadow: unknown, upstreamIdOf?: (shadowId: string) => string | undefined): Found[] {
  const w: Walk = { route: `notification ${kind}`, call, out: [], upstreamIdOf };
  if (upstream === undefined || shadow === undefined) {
    if (upstream !== shadow) found(w, 'notification', null, null, upstream === undefined ? '(none sent)' : kind, shadow === undefined ? '(none sent)' : kind);
    return w.out;
  }
  walk(w, upstream, shadow, '', null, null, null);
  return w.out;
}

/**
 * The order of the notifications each side sent for one payment, by kind (`Payment`, `Refund`…):
 * one 'notification order' difference when both sent the same kinds in another order.
 */
export function compareNotificationOrder(route: string, call: CallRef, upstream: readonly string[], shadow: readonly string[]): Found[] {
  const sorted = (a: readonly string[]) => [...a].sort().join('\n');
  if (same(upstream, shadow) || sorted(upstream) !== sorted(shadow)) return [];
  return [{ Kind: 'notification order', Route: route, Field: null, Upstream: [...upstream], Shadow: [...shadow], Call: maskCall(call) }];
}

/**
 * A payment the upstream showed in a state the shadow's method would not reach with the provider
 * events it has (one-step there, two-step here): one 'status path' difference, its values the
 * statuses each went through.
 */
export function statusPathDifference(route: string, call: CallRef, upstream: unknown, shadow: unknown): Found {
  return { Kind: 'status path', Route: route, Field: null, Upstream: maskValue(upstream), Shadow: maskValue(shadow), Call: maskCall(call) };
}

const identity = (d: Pick<Difference, 'Kind' | 'Route' | 'Field'>) => `${d.Kind}\u0000${d.Route}\u0000${d.Field ?? ''}`;

/**
 * A run's differences: one per (Kind, Route, Field), its Count growing each time it is seen again; the
 * first call and values are kept. Listeners hear of each new difference and each grown count.
 */
export class DriftReport {
  private readonly byIdentity = new Map<string, Difference>();
  private readonly listeners: ((d: Difference) => void)[] = [];

  add(diffs: readonly Found[]): void {
    for (const d of diffs) {
      const id = identity(d);
      let kept = this.byIdentity.get(id);
      if (kept) kept.Count++;
      else {
        // Masked again: a difference the proxy made itself reaches the report masked too (masking is idempotent).
        const key = d.Field === null ? null : (d.Field.split('.').pop() ?? '').replace(/\[\]$/, '');
        kept = { Kind: d.Kind, Route: d.Route, Field: d.Field, Upstream: maskValue(d.Upstream, key), Shadow: maskValue(d.Shadow, key), Count: 1, Call: maskCall(d.Call) };
        this.byIdentity.set(id, kept);
      }
      for (const fn of this.listeners) fn({ ...kept, Call: { ...kept.Call } });
    }
  }

  /** The differences in the order first seen (copies). */
  list(): Difference[] {
    return [...this.byIdentity.values()].map((d) => ({ ...d, Call: { ...d.Call } }));
  }

  get size(): number {
    return this.byIdentity.size;
  }

  on(event: 'difference', fn: (d: Difference) => void): void {
    if (event === 'difference') this.listeners.push(fn);
  }
}
