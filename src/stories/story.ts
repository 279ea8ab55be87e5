// A payment's story: what happened to it, in order and at its sandbox offsets, told as a scenario
// file (every step at a fixed offset from creation) plus the request that created it. Pure: it reads
// only the records it is given.
import { statusInfo } from '../domain/statuses';
import { MERCHANT_ACTIONS, type Scenario, type Step, type StepAction } from '../scenarios/scenario';
import type { JobRecord } from '../store/jobs.repo';
import type { HistoryRecord, Json, PaymentRecord, RefundRecord, SplitRecord } from '../store/records';
import type { RequestRecord } from '../store/requests.repo';
import { CAUSE, capturedSplit, generatedRefundMtid } from '../domain/causes';

/** A step of a story: always counted from the payment's creation. */
export interface StoryStep {
  On: 'created';
  After: string;
  Do: StepAction;
  Split?: number;
  Amount?: string | number;
  Splits?: { Split: number; Amount: string | number }[];
  NewSplits?: Record<string, unknown>[];
  Refund?: number;
  Description?: string;
  MerchantTransactionID?: string;
}

export interface StoryFile {
  Name: string;
  Description: string;
  CaptureRequested: boolean;
  Steps: StoryStep[];
  /** Each refund's outcome is a step of its own. */
  Refunds: { Outcome: 'none' };
  /** The request that created the payment. */
  Request: { Payment: Json };
  Story: {
    PaymentID: number;
    SiteID: number;
    Scenario: string | null;
    Created: string;
    /** The statuses the payment and its refunds (by index) went through, at their offsets. */
    History: { After: string; StatusID: number; StatusInfo: string; Refund: number | null; Cause: string }[];
    /** The calls on the payment that were refused (4xx, 5xx) or got no answer, from the request journal. */
    Refused: RefusedCall[];
  };
}

/** A refused call, as a story tells it: at its offset, with what it asked and why it was refused. */
export interface RefusedCall {
  After: string;
  Method: string;
  Path: string;
  Route: string | null;
  Status: number | null;
  ReasonCodes: number[];
  Fault: string | null;
  NearMiss: string | null;
}

/** What the store holds about one payment. */
export interface StoryFacts {
  payment: PaymentRecord;
  /** The TokenLifetime it was created with (a cancel or an expiry erases it from the row). */
  tokenLifetime: number | null;
  /** Its splits in ID order, each with the history row it was added after (null: it came with the payment). */
  splits: (SplitRecord & { addedAfter: number | null })[];
  refunds: RefundRecord[];
  history: HistoryRecord[];
  jobs: JobRecord[];
  /** The payment's scenario, for the steps its jobs name. */
  scenario: Scenario | undefined;
  createdStamp: string;
  /** Its refused calls (the request journal's entries of it answered 4xx or 5xx, or not at all), oldest first. */
  refused?: RequestRecord[];
}

const PROVIDER_EVENT: Record<number, StepAction> = { 9: 'authorize', 2: 'succeed', 4: 'fail', 5: 'expire', 3: 'cancel' };
const MERCHANT: ReadonlySet<string> = new Set(MERCHANT_ACTIONS);

const ms = (n: number) => `${n}ms`;
/** Digit strings, as amounts in requests: money never becomes a float. */
const amount = (n: bigint) => n.toString();

/** Non-null values of a stored customer or address, as a request carries them (the stored ID left out). */
function requestObject(o: Json | null): Json | undefined {
  if (o === null) return undefined;
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) if (k !== 'ID' && v !== null) out[k] = v;
  return out;
}

function createRequest(f: StoryFacts): { Payment: Json } {
  const p = f.payment;
  const out: Json = { MerchantTransactionID: p.merchantTransactionId };
  const put = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) out[key] = value;
  };
  put('OriginatorTransactionID', p.originatorTransactionId);
  out.Amount = amount(p.amount);
  out.Currency = p.currency;
  put('MethodID', p.methodId);
  put('MethodOptionID', p.methodOptionId);
  put('SkinID', p.skinId);
  put('ClientIP', p.clientIp);
  put('ReturnURL', p.returnUrl);
  put('Description', p.description);
  put('TokenLifetime', f.tokenLifetime);
  put('Customer', requestObject(p.customer));
  put('BillingAddress', requestObject(p.billingAddress));
  put('ShippingAddress', requestObject(p.shippingAddress));
  const initial = f.splits.filter((s) => s.addedAfter === null);
  if (initial.length > 0) out.Splits = initial.map(splitRequest);
  return { Payment: out };
}

function splitRequest(s: SplitRecord): Json {
  const out: Json = { SiteID: s.siteId, Amount: amount(s.amount), MerchantTransactionID: s.merchantTransactionId };
  if (s.originatorTransactionId !== null) out.OriginatorTransactionID = s.originatorTransactionId;
  return out;
}

/** A scenario's step in the file format, as the story carries it. */
function stepOfScenario(step: Step): Omit<StoryStep, 'On' | 'After'> {
  const out: Omit<StoryStep, 'On' | 'After'> = { Do: step.do };
  if (step.split !== undefined) out.Split = step.split;
  if (step.amount !== undefined) out.Amount = step.amount;
  if (step.splits) out.Splits = step.splits.map((x) => ({ Split: x.split, Amount: x.amount }));
  if (step.newSplits) out.NewSplits = step.newSplits;
  if (step.refund !== undefined) out.Refund = step.refund;
  if (step.description !== undefined) out.Description = step.description;
  if (step.merchantTransactionId !== undefined) out.MerchantTransactionID = step.merchantTransactionId;
  return out;
}

interface Beat {
  at: number;
  /** Order among beats at the same time: after history row `[0]`, then by kind `[1]`, then `[2]`. */
  order: [number, number, number];
  step: Omit<StoryStep, 'On' | 'After'>;
}

const byTimeThenOrder = (a: Beat, b: Beat) =>
  a.at - b.at || a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2];

/**
 * Tells the story of a payment of the split-payments API:
 * - provider and payer events, from the statuses it went through;
 * - the merchant's actions (capture in each form with its amounts, cancel, refunds, added splits),
 *   from the history causes, the splits' captured amounts and the refunds;
 * - each refund's outcome;
 * - merchant steps of its scenario that were rejected (the rejection is part of the story), and the
 *   steps its scenario has already scheduled.
 * Splits and refunds are named by index, so the story replays on a sandbox whose IDs differ.
 */
export function tellStory(f: StoryFacts): StoryFile {
  const p = f.payment;
  const created = p.createdAt;
  const splitIndex = new Map(f.splits.map((s, i) => [s.id, i]));
  const refundIndex = new Map(f.refunds.map((r, i) => [r.id, i]));
  const beats: Beat[] = [];
  let status = f.history[0]?.statusId ?? 1;
  let captureRequested = false;

  for (const h of f.history.slice(1)) {
    // A dispute is the card holder's bank's doing: no step of a story replays it.
    if (h.disputeId != null) continue;
    const at = { at: h.at, order: [h.id, 0, 0] as [number, number, number] };
    if (h.refundId !== null) {
      const r = f.refunds.find((x) => x.id === h.refundId);
      const index = refundIndex.get(h.refundId);
      if (!r || index === undefined) continue;
      if (h.statusId === 1) {
        // A refund of the whole payment (one without splits) names no split.
        const step: Beat['step'] = { Do: 'refund', ...(r.splitId === null ? {} : { Split: splitIndex.get(r.splitId)! }), Amount: amount(r.amount), Description: r.description };
        // A MerchantTransactionID the sandbox generated is generated again; one the merchant gave is kept.
        if (r.merchantTransactionId !== generatedRefundMtid(p.merchantTransactionId, r.id)) step.MerchantTransactionID = r.merchantTransactionId;
        beats.push({ ...at, step });
      } else if (h.statusId === 2 || h.statusId === 4) {
        beats.push({ ...at, step: { Do: h.statusId === 2 ? 'refund-succeed' : 'refund-fail', Refund: index } });
      }
      continue;
    }
    const step = merchantStep(h, f, splitIndex) ?? providerStep(status, h);
    if (h.cause === CAUSE.capture && h.statusId === 13) captureRequested = true;
    status = h.statusId;
    if (step) beats.push({ ...at, step });
  }

  // Splits added together (one call) share their history row and time.
  const added = new Map<string, (SplitRecord & { addedAfter: number | null })[]>();
  for (const s of f.splits) {
    if (s.addedAfter === null) continue;
    const key = `${s.addedAfter}:${s.createdAt}`;
    added.set(key, [...(added.get(key) ?? []), s]);
  }
  for (const group of added.values()) {
    const first = group[0]!;
    beats.push({ at: first.createdAt, order: [first.addedAfter!, 1, first.id], step: { Do: 'add-splits', NewSplits: group.map(splitRequest) } });
  }

  for (const j of f.jobs) {
    const pending = j.state === 'pending';
    const rejected = j.state === 'skipped' && MERCHANT.has(j.action) && (j.outcome ?? '').startsWith('rejected:');
    if (!pending && !rejected) continue;
    let step: Beat['step'] | undefined;
    if (j.refundId !== null) {
      const index = refundIndex.get(j.refundId);
      if (index !== undefined) step = { Do: j.action as StepAction, Refund: index };
    } else {
      const def = f.scenario?.steps[j.stepIndex];
      if (def && def.do === j.action) step = stepOfScenario(def);
    }
    if (!step) continue;
    if (pending) beats.push({ at: j.dueAt, order: [Number.MAX_SAFE_INTEGER, 3, j.id], step });
    else {
      const at = j.ranAt ?? j.dueAt;
      const before = f.history.filter((h) => h.at <= at).at(-1)?.id ?? 0;
      beats.push({ at, order: [before, 2, j.id], step });
    }
  }

  beats.sort(byTimeThenOrder);
  const paymentStatuses = f.history.filter((h) => h.refundId === null && h.disputeId == null).map((h) => statusInfo(h.statusId));
  const refundOutcomes = f.refunds.map((r, i) => `refund ${i + 1} ${statusInfo(r.statusId)}`);
  return {
    Name: `story-${p.id}`,
    Description: `What happened to payment ${p.id} (${p.merchantTransactionId}): ${paymentStatuses.join(' → ')}${refundOutcomes.length ? `; ${refundOutcomes.join(', ')}` : ''}.`,
    CaptureRequested: captureRequested,
    Steps: beats.map((b) => ({ On: 'created', After: ms(Math.max(0, b.at - created)), ...b.step })),
    Refunds: { Outcome: 'none' },
    Request: createRequest(f),
    Story: {
      PaymentID: p.id,
      SiteID: p.ownerSiteId,
      Scenario: p.scenario,
      Created: f.createdStamp,
      History: f.history.map((h) => ({
        After: ms(h.at - created),
        StatusID: h.statusId,
        StatusInfo: statusInfo(h.statusId),
        Refund: h.refundId === null ? null : (refundIndex.get(h.refundId) ?? null),
        Cause: h.cause,
      })),
      Refused: (f.refused ?? []).map((r) => ({
        After: ms(Math.max(0, r.at - created)),
        Method: r.method,
        Path: r.path,
        Route: r.route,
        Status: r.status,
        ReasonCodes: r.reasons,
        Fault: r.fault,
        NearMiss: r.nearMiss,
      })),
    },
  };
}

/** The merchant action a payment status change came from, by the cause the services record. */
function merchantStep(h: HistoryRecord, f: StoryFacts, splitIndex: Map<number, number>): Beat['step'] | undefined {
  if (h.cause === CAUSE.capture) return { Do: 'capture' };
  if (h.cause === CAUSE.cancel) return { Do: 'merchant-cancel' };
  if (h.cause === CAUSE.capturePerSplit) {
    const captured = f.splits.filter((s) => s.capturedAmount !== null);
    return { Do: 'capture-splits', Splits: captured.map((s) => ({ Split: splitIndex.get(s.id)!, Amount: amount(s.capturedAmount!) })) };
  }
  const one = capturedSplit(h.cause);
  if (one !== null) {
    const s = f.splits.find((x) => x.id === one);
    if (s) return { Do: 'capture-split', Split: splitIndex.get(s.id)!, Amount: amount(s.capturedAmount ?? s.amount) };
  }
  return undefined;
}

/** The provider or payer event behind a status change; none for an expiry the TokenLifetime brings again. */
function providerStep(before: number, h: HistoryRecord): Beat['step'] | undefined {
  if (h.statusId === 2 && before === 13) return { Do: 'settle' };
  // Expired by its TokenLifetime: the replayed request carries it, and expires by itself.
  if (h.statusId === 5 && h.cause === CAUSE.lifetimeExpiry) return undefined;
  const event = PROVIDER_EVENT[h.statusId];
  return event ? { Do: event } : undefined;
}
