// A payment that differed, as a story file (`split-sandbox replay` and `POST /_sandbox/replay` take
// it): the upstream's payment told from the calls the integration made on it and the statuses the
// upstream showed, so that the sandbox, once fixed, replays what the real service did. Pure: no I/O.
//
// The input (the proxy records it for each payment it saw created; IDs are the upstream's, bodies
// masked or not: everything kept goes through the masking here):
//   {
//     paymentId: '3005042',                  // the upstream's payment ID
//     siteId: 30201,                         // the shadow's marketplace (Story.SiteID), optional
//     calls: [                               // in the order made, the create first
//       { method: 'POST', path: '/v1/payments', body: {Payment: …}, at: 1768471200000, status: 201, answer: {Payment: …} },
//       { method: 'POST', path: '/v1/payments/3005042/capture', body: undefined, at: …, status: 200, answer: {Payment: …} },
//       …
//     ],
//     seen: [                                // statuses the upstream showed outside an answer to a change
//       { at: …, statusId: 9 },              //   (a notification, a GET): the payment's…
//       { at: …, statusId: 2, refundId: '501' },  // …or a refund's
//     ],
//     differences: [ … ],                    // the payment's differences, told in the Description
//   }
// `body` and `answer` are parsed JSON (undefined: none); `at` is milliseconds on any one clock.
import type { StoryFile, StoryStep } from '../stories/story';
import type { CallRef, Difference } from './differences';
import { maskPath, maskValue } from './mask';

export interface RecordedCall {
  method: string;
  path: string;
  body?: unknown;
  at: number;
  /** The upstream's HTTP status; a call the upstream refused changes nothing and is no step. */
  status: number;
  answer?: unknown;
  /** The call as a difference names it: a difference first shown by a create (no ID in its path) is told with its payment by it. */
  ref?: CallRef;
}

export interface PaymentRecording {
  paymentId: string;
  siteId?: number;
  calls: readonly RecordedCall[];
  seen?: readonly { at: number; statusId: number; refundId?: string }[];
  differences?: readonly Difference[];
}

/** A story as drift writes it: the story file, with the calls and differences that made it. */
export type DriftStory = Omit<StoryFile, 'Story'> & {
  Story: Omit<StoryFile['Story'], 'SiteID' | 'Scenario' | 'Created' | 'History' | 'Refused'> & {
    /** The shadow's marketplace; absent: a replay takes the sandbox's first marketplace. */
    SiteID?: number;
    Scenario: null;
    /** The calls the integration made on the payment, in order, at their offsets. */
    Calls: { After: string; Method: string; Path: string; Status: number }[];
    Differences: Difference[];
  };
};

export class StoryError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const ms = (n: number) => `${Math.max(0, Math.round(n))}ms`;

/** The status ID an answer shows for its payment, if any. */
function paymentStatusOf(answer: unknown): number | undefined {
  const id = isObj(answer) && isObj(answer.Payment) && isObj(answer.Payment.Status) ? answer.Payment.Status.ID : undefined;
  return typeof id === 'number' ? id : undefined;
}

/** An amount as a step takes it: minor units as a digit string (never a float). */
function stepAmount(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return String(v);
  if (typeof v === 'string' && /^[0-9]{1,12}$/.test(v)) return v;
  return undefined;
}

const PROVIDER: Record<number, StoryStep['Do']> = { 9: 'authorize', 2: 'succeed', 4: 'fail', 5: 'expire', 3: 'cancel' };

/**
 * The story of one upstream payment. The create request is kept (masked: a card number or a security
 * code in it is not replayed); splits and refunds are named by index, as every story names them.
 */
export function storyOfPayment(r: PaymentRecording): DriftStory {
  const create = r.calls[0];
  if (!create || create.method !== 'POST' || !/^\/v1\/payments\/?(?:\?.*)?$/.test(create.path) || !isObj(create.body) || !isObj(create.body.Payment)) {
    throw new StoryError(`payment ${r.paymentId}: its first recorded call is not its create request (POST /v1/payments with a Payment)`);
  }
  const start = create.at;
  const answerSplits = (a: unknown) => (isObj(a) && isObj(a.Payment) && Array.isArray(a.Payment.Splits) ? (a.Payment.Splits as unknown[]) : []);
  const splitIds: string[] = answerSplits(create.answer).map((s) => String(isObj(s) ? s.ID : ''));
  const splitIndex = (id: unknown) => {
    const i = splitIds.indexOf(String(id));
    return i < 0 ? undefined : i;
  };
  const refundIds: string[] = [];
  const steps: StoryStep[] = [];
  const step = (at: number, s: Omit<StoryStep, 'On' | 'After'>) => steps.push({ On: 'created', After: ms(at - start), ...s });
  let status = paymentStatusOf(create.answer) ?? 1;
  let captureRequested = false;
  const id = r.paymentId.replace(/[^0-9]/g, '');
  const on = (rest: string) => new RegExp(`^/v1/payments/${id}${rest}/?(?:\\?(.*))?$`);

  type Event = { at: number; order: number; call?: RecordedCall; seen?: { statusId: number; refundId?: string } };
  const events: Event[] = [
    ...r.calls.slice(1).map((call, i) => ({ at: call.at, order: i * 2, call })),
    ...(r.seen ?? []).map((seen, i) => ({ at: seen.at, order: i * 2 + 1, seen })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);

  const seenStatus = (at: number, next: number) => {
    if (next === status) return;
    if (next === 2 && status === 13) step(at, { Do: 'settle' });
    else if (PROVIDER[next]) step(at, { Do: PROVIDER[next]! });
    status = next;
  };

  for (const e of events) {
    if (e.seen) {
      if (e.seen.refundId === undefined) seenStatus(e.at, e.seen.statusId);
      else {
        const index = refundIds.indexOf(e.seen.refundId);
        if (index >= 0 && (e.seen.statusId === 2 || e.seen.statusId === 4)) step(e.at, { Do: e.seen.statusId === 2 ? 'refund-succeed' : 'refund-fail', Refund: index });
      }
      continue;
    }
    const c = e.call!;
    if (c.status >= 400) continue;
    const body = isObj(c.body) ? c.body : {};
    let m: RegExpExecArray | null;
    const after = paymentStatusOf(c.answer);
    if (c.method === 'GET') {
      if (after !== undefined) seenStatus(c.at, after);
      continue;
    }
    if (c.method !== 'POST') continue;
    if ((m = on('/capture').exec(c.path))) {
      const splits = isObj(body.Payment) && Array.isArray(body.Payment.Splits) ? (body.Payment.Splits as unknown[]) : null;
      if (splits) {
        const parts = splits.filter(isObj).map((s) => ({ Split: splitIndex(s.ID), Amount: stepAmount(s.Amount) }));
        if (parts.some((p) => p.Split === undefined)) throw new StoryError(`payment ${r.paymentId}: a capture names a split its create did not answer`);
        step(c.at, { Do: 'capture-splits', Splits: parts.map((p) => ({ Split: p.Split!, Amount: p.Amount ?? '100%' })) });
      } else {
        step(c.at, { Do: 'capture' });
        if (after === 13) captureRequested = true;
      }
    } else if ((m = on('/splits/([0-9]+)/capture').exec(c.path))) {
      const amount = stepAmount(new URLSearchParams(m[2] ?? '').get('amount') ?? undefined);
      step(c.at, { Do: 'capture-split', Split: splitIndexOrFail(r, splitIndex(m[1]), m[1]!), ...(amount ? { Amount: amount } : {}) });
    } else if (on('/cancel').test(c.path)) {
      step(c.at, { Do: 'merchant-cancel' });
    } else if ((m = on('(?:/splits/([0-9]+))?/refunds').exec(c.path))) {
      const refund = isObj(body.Refund) ? body.Refund : {};
      const amount = stepAmount(refund.Amount);
      const s: Omit<StoryStep, 'On' | 'After'> = { Do: 'refund', ...(m[1] ? { Split: splitIndexOrFail(r, splitIndex(m[1]), m[1]) } : {}), ...(amount ? { Amount: amount } : {}) };
      if (typeof refund.Description === 'string') s.Description = refund.Description;
      if (typeof refund.MerchantTransactionID === 'string' && refund.MerchantTransactionID !== '') s.MerchantTransactionID = refund.MerchantTransactionID;
      step(c.at, s);
      const answered = isObj(c.answer) && isObj(c.answer.Refund) ? c.answer.Refund.ID : undefined;
      refundIds.push(String(answered ?? `#${refundIds.length}`));
      continue;
    } else if (on('/splits').test(c.path)) {
      const added = Array.isArray(body.Splits) ? body.Splits.filter(isObj) : [];
      if (added.length > 0) step(c.at, { Do: 'add-splits', NewSplits: added.map((s) => maskValue(s) as Obj) });
      const answered = isObj(c.answer) && Array.isArray(c.answer.Splits) ? (c.answer.Splits as unknown[]) : [];
      for (const s of answered) splitIds.push(String(isObj(s) ? s.ID : ''));
      continue;
    } else continue;
    if (after !== undefined) status = after;
  }

  const request = maskValue(create.body) as { Payment: Obj };
  const described = (r.differences ?? []).map((d) => `${d.Kind} ${d.Route}${d.Field ? ` ${d.Field}` : ''}`);
  const mtid = typeof create.body.Payment.MerchantTransactionID === 'string' ? create.body.Payment.MerchantTransactionID : '';
  return {
    Name: `drift-${id}`.slice(0, 64),
    Description: `What the real service did with payment ${id}${mtid ? ` (${maskValue(mtid)})` : ''}, where the sandbox differed${described.length ? `: ${described.join('; ')}` : ''}.`,
    CaptureRequested: captureRequested,
    Steps: steps,
    Refunds: { Outcome: 'none' },
    Request: request,
    Story: {
      PaymentID: Number(id),
      ...(r.siteId === undefined ? {} : { SiteID: r.siteId }),
      Scenario: null,
      Calls: r.calls.map((c) => ({ After: ms(c.at - start), Method: c.method, Path: maskPath(c.path), Status: c.status })),
      Differences: (r.differences ?? []).map((d) => ({ ...d, Upstream: maskValue(d.Upstream), Shadow: maskValue(d.Shadow), Call: { ...d.Call, Path: maskPath(d.Call.Path) } })),
    },
  };
}

function splitIndexOrFail(r: PaymentRecording, index: number | undefined, id: string): number {
  if (index === undefined) throw new StoryError(`payment ${r.paymentId}: split ${id} is not one its create or an added split answered`);
  return index;
}

/** The upstream payment ID a call's path names (`/v1/payments/3005042/capture` → `3005042`), or null. */
export function paymentIdOfPath(path: string): string | null {
  return /^\/v1\/payments\/([0-9]+)(?:[/?]|$)/.exec(path)?.[1] ?? null;
}

/** How many payments a recorder keeps at most: the oldest are let go first. */
export const RECORDED_PAYMENTS_MAX = 10_000;

/**
 * The calls and statuses of each payment a run saw created, kept for its story (bounded: the oldest
 * payments are let go past RECORDED_PAYMENTS_MAX). The proxy records; storyOf tells.
 */
export class PaymentRecorder {
  private readonly payments = new Map<string, { calls: RecordedCall[]; seen: { at: number; statusId: number; refundId?: string }[] }>();

  constructor(private readonly max = RECORDED_PAYMENTS_MAX) {}

  /** A create the upstream answered with a payment: its recording starts. */
  created(paymentId: string, call: RecordedCall): void {
    if (this.payments.size >= this.max) this.payments.delete(this.payments.keys().next().value!);
    this.payments.set(paymentId, { calls: [call], seen: [] });
  }

  /** A later call on a payment (ignored for one whose create this run did not see). */
  call(paymentId: string, call: RecordedCall): void {
    this.payments.get(paymentId)?.calls.push(call);
  }

  /** A status the upstream showed outside an answer to a call (a notification): the payment's, or a refund's. */
  seen(paymentId: string, at: number, statusId: number, refundId?: string): void {
    this.payments.get(paymentId)?.seen.push({ at, statusId, ...(refundId === undefined ? {} : { refundId }) });
  }

  has(paymentId: string): boolean {
    return this.payments.has(paymentId);
  }

  /** The recorded payment a difference's call was made on: by its path's ID, or (a create) by the call itself. */
  ownerOf(d: Difference): string | null {
    const id = paymentIdOfPath(d.Call.Path);
    if (id !== null) return this.payments.has(id) ? id : null;
    const same = (r: CallRef | undefined) => r !== undefined && r.Method === d.Call.Method && r.At === d.Call.At && (r.JournalID ?? null) === (d.Call.JournalID ?? null);
    for (const [paymentId, p] of this.payments) if (p.calls.some((c) => same(c.ref))) return paymentId;
    return null;
  }

  /** The payments (upstream IDs) that showed a difference, in the order first shown, recorded ones only. */
  differing(diffs: readonly Difference[]): string[] {
    const ids = diffs.map((d) => this.ownerOf(d)).filter((id): id is string => id !== null);
    return [...new Set(ids)];
  }

  /** The story of a recorded payment, with the differences its calls showed; undefined for one not recorded. */
  storyOf(paymentId: string, diffs: readonly Difference[] = [], siteId?: number): DriftStory | undefined {
    const p = this.payments.get(paymentId);
    if (!p) return undefined;
    const own = diffs.filter((d) => this.ownerOf(d) === paymentId);
    return storyOfPayment({ paymentId, calls: p.calls, seen: p.seen, differences: own, ...(siteId === undefined ? {} : { siteId }) });
  }
}
