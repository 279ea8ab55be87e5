// Real ↔ shadow IDs of one drift run, by kind, learnt from the two answers of the same call.

export type IdKind = 'payment' | 'split' | 'refund' | 'capture' | 'preapproval' | 'payout' | 'card token' | 'dispute';

/** The kind an `ID` holds inside an object under this key (`{"Payment": {"ID": …}}`, `"Splits": [{"ID": …}]`). */
const CONTAINER_KINDS: Record<string, IdKind> = {
  payment: 'payment',
  payments: 'payment',
  split: 'split',
  splits: 'split',
  refund: 'refund',
  refunds: 'refund',
  capture: 'capture',
  captures: 'capture',
  preapproval: 'preapproval',
  preapprovals: 'preapproval',
  payout: 'payout',
  payouts: 'payout',
  dispute: 'dispute',
  disputes: 'dispute',
};

/** Fields that name an ID of a kind wherever they stand (a request body's `PreapprovalID`, a refund's `SplitID`). */
const FIELD_KINDS: Record<string, IdKind> = {
  paymentid: 'payment',
  initialpaymentid: 'payment',
  splitid: 'split',
  refundid: 'refund',
  captureid: 'capture',
  preapprovalid: 'preapproval',
  payoutid: 'payout',
  disputeid: 'dispute',
  creditcardtoken: 'card token',
  cardtoken: 'card token',
};

/** Path segments followed by an ID of a kind (`/v1/payments/{id}`, `/v1/card/token/{token}`). */
const SEGMENT_KINDS: Record<string, IdKind> = { ...CONTAINER_KINDS, token: 'card token' };
/** Words after such a segment that are routes of their own, not IDs. */
const NOT_IDS = new Set(['recurrent', 'types', 'status', 'statuss', 'capture', 'cancel', 'authenticate', 'challenge']);

export function fieldKind(key: string): IdKind | undefined {
  return FIELD_KINDS[key.toLowerCase()];
}

export function containerKind(key: string): IdKind | undefined {
  return CONTAINER_KINDS[key.toLowerCase()];
}

type Id = string | number;
const keyOf = (v: Id) => String(v);

export class IdMap {
  private readonly toShadow = new Map<IdKind, Map<string, Id>>();
  private readonly toReal = new Map<IdKind, Map<string, Id>>();

  /** Pairs a real ID with its shadow; an ID already paired keeps its first partner. */
  learn(kind: IdKind, real: Id, shadow: Id): void {
    const there = this.side(this.toShadow, kind);
    const back = this.side(this.toReal, kind);
    if (there.has(keyOf(real)) || back.has(keyOf(shadow))) return;
    there.set(keyOf(real), shadow);
    back.set(keyOf(shadow), real);
  }

  shadowOf(kind: IdKind, real: Id): Id | undefined {
    return this.toShadow.get(kind)?.get(keyOf(real));
  }

  realOf(kind: IdKind, shadow: Id): Id | undefined {
    return this.toReal.get(kind)?.get(keyOf(shadow));
  }

  /**
   * The upstream ID a shadow ID inside a value stands for (a generated MerchantTransactionID's
   * `…-R<refund ID>`): refunds and payments first, as those are the IDs such values carry.
   */
  realOfAny(shadow: Id): Id | undefined {
    for (const kind of ['refund', 'payment', 'split', 'capture', 'preapproval', 'payout', 'dispute'] as const) {
      const r = this.realOf(kind, shadow);
      if (r !== undefined) return r;
    }
    return undefined;
  }

  private side(of: Map<IdKind, Map<string, Id>>, kind: IdKind): Map<string, Id> {
    let m = of.get(kind);
    if (!m) of.set(kind, (m = new Map()));
    return m;
  }

  /**
   * Walks the upstream's and the shadow's answers of one call side by side and pairs the IDs that
   * stand at the same place. Lists of items are paired by position only when both hold as many.
   */
  learnFrom(real: unknown, shadow: unknown, container?: IdKind): void {
    if (Array.isArray(real) && Array.isArray(shadow)) {
      if (real.length !== shadow.length) return;
      real.forEach((r, i) => this.learnFrom(r, shadow[i], container));
      return;
    }
    if (!isObject(real) || !isObject(shadow)) return;
    for (const [key, value] of Object.entries(real)) {
      if (!(key in shadow)) continue;
      const other = shadow[key];
      if (key === 'ID' && container && isId(value) && isId(other)) this.learn(container, value, other);
      else if (fieldKind(key) && isId(value) && isId(other)) this.learn(fieldKind(key)!, value, other);
      else if (typeof value === 'object' && value !== null) this.learnFrom(value, other, containerKind(key));
    }
  }

  /**
   * The path with each real ID replaced by its shadow, or null when it names an ID this run never
   * saw (the call is forwarded and not compared).
   */
  shadowPath(path: string): string | null {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const kind = SEGMENT_KINDS[parts[i - 1]!.toLowerCase()];
      const part = parts[i]!;
      if (!kind || part === '' || NOT_IDS.has(part.toLowerCase())) continue;
      const shadow = this.shadowOf(kind, decodeURIComponent(part));
      if (shadow === undefined) return null;
      parts[i] = encodeURIComponent(String(shadow));
    }
    return parts.join('/');
  }

  /**
   * A request body with the real IDs it names replaced by the shadow's, or null when it names one
   * this run never saw.
   */
  shadowBody(body: unknown, container?: IdKind): unknown | null {
    let unknownId = false;
    const walk = (v: unknown, kind?: IdKind): unknown => {
      if (Array.isArray(v)) return v.map((x) => walk(x, kind));
      if (!isObject(v)) return v;
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(v)) {
        const k = key === 'ID' ? kind : fieldKind(key);
        if (k && isId(value)) {
          const s = this.shadowOf(k, value);
          if (s === undefined) unknownId = true;
          out[key] = s === undefined ? value : typeof value === 'number' ? Number(s) : String(s);
        } else out[key] = walk(value, containerKind(key));
      }
      return out;
    };
    const mapped = walk(body, container);
    return unknownId ? null : mapped;
  }

  /** A query string with its ID fields mapped (`?PreapprovalID=…`), or null for an unknown ID. */
  shadowQuery(query: string): string | null {
    if (query === '') return query;
    const params = new URLSearchParams(query);
    for (const [key, value] of [...params.entries()]) {
      const kind = fieldKind(key);
      if (!kind || value === '') continue;
      const s = this.shadowOf(kind, value);
      if (s === undefined) return null;
      params.set(key, String(s));
    }
    return params.toString();
  }

  /**
   * The shadow's answer with its IDs written as the upstream's, so that the comparison sees mapped
   * IDs as equal (an ID without a partner stays as it is, and shows as a difference of value).
   */
  asReal(body: unknown, container?: IdKind): unknown {
    if (Array.isArray(body)) return body.map((x) => this.asReal(x, container));
    if (!isObject(body)) return body;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) {
      const k = key === 'ID' ? container : fieldKind(key);
      if (k && isId(value)) {
        const r = this.realOf(k, value);
        out[key] = r === undefined ? value : typeof value === 'number' ? Number(r) : String(r);
      } else out[key] = this.asReal(value, containerKind(key));
    }
    return out;
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isId(v: unknown): v is Id {
  return (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
}
