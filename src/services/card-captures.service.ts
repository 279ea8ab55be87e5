// Captures of card payments: the record of each capture (whole, part, or one split's share), the
// capture of one split of a marketplace card payment (the PHP SDK's split_capture), and the capture reads.
import { splitCapture } from '../domain/card-objects.machine';
import { parseAmount } from '../domain/money';
import { Status } from '../domain/statuses';
import { Rejection, notFound } from '../errors/errors';
import { type ReasonCode, reason } from '../errors/reasons';
import type { CaptureRecord, SiteRecord, SplitRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';
import { loadPayment, parseId } from './lookup';
import { movePayment } from './transition';

/**
 * Records a capture of card payment `view` (inside its transaction): `amount` taken (Success), or a
 * capture that failed (Failed). A split's capture is the split's, with the split's site and MerchantTransactionID.
 */
export function recordCardCapture(
  ctx: ServiceContext,
  view: PaymentView,
  amount: bigint,
  statusId: number,
  split?: SplitRecord,
  originatorTransactionId?: string | null,
): CaptureRecord {
  const p = view.payment;
  return ctx.store.captures.insert({
    paymentId: p.id,
    splitId: split?.id ?? null,
    siteId: split?.siteId ?? p.siteId,
    merchantTransactionId: split?.merchantTransactionId ?? p.merchantTransactionId,
    originatorTransactionId: originatorTransactionId ?? split?.originatorTransactionId ?? p.originatorTransactionId,
    amount,
    currency: p.currency,
    statusId,
    createdAt: ctx.clock.now(),
  });
}

export interface SplitCaptured {
  view: PaymentView;
  split: SplitRecord;
  capture: CaptureRecord;
}

interface SplitCaptureInput {
  Split: { ID: number; Amount?: number | string; OriginatorTransactionID?: string | null };
}

/**
 * `POST /v1/payments/{id}/capture` with `{"Payment": {"Split": {"ID", "Amount"}}}` on the card address:
 * captures that split (or `Amount` of it) of an Authorized marketplace card payment. Inside the
 * caller's transaction, with the body validated.
 */
export function captureCardSplit(ctx: ServiceContext, view: PaymentView, input: SplitCaptureInput): SplitCaptured {
  const p = view.payment;
  if (!p.hasSplits) {
    throw new Rejection([reason(11, `Action is invalid: card payment ${p.id} has no splits; capture it without a body`)], view);
  }
  const split = view.splits.find((s) => s.id === input.Split.ID);
  if (!split) throw new Rejection([reason(2, `Payment.Split.ID is invalid: payment ${p.id} has no split ${input.Split.ID}`)], view);
  const amount = input.Split.Amount === undefined ? split.amount : parseAmount(input.Split.Amount)!;
  const decision = splitCapture(p.statusId, p.amount, p.capturedAmount ?? 0n, split, amount);
  if (!decision.ok) throw new Rejection([reason(decision.code as ReasonCode, decision.info)], view);
  const d = decision.value;
  ctx.store.splits.setState(split.id, d.splitStatus, d.splitCaptured);
  const after = movePayment(ctx, view, d.paymentStatus, `capture of split ${split.id} (${amount})`, { capturedAmount: d.paymentCaptured }, false);
  const capture = recordCardCapture(ctx, view, amount, Status.Success, split, input.Split.OriginatorTransactionID || null);
  return { view: after, split: after.splits.find((s) => s.id === split.id)!, capture };
}

/** `GET /v1/payments/{id}/captures`: the card payment's captures, oldest first. */
export function listCaptures(ctx: ServiceContext, site: SiteRecord, rawId: string): CaptureRecord[] {
  const view = loadPayment(ctx, site, rawId, 'card');
  return ctx.store.captures.ofPayment(view.payment.id);
}

/** `GET /v1/payments/{id}/captures/{captureId}`: one capture of the card payment, or 404. */
export function getCapture(ctx: ServiceContext, site: SiteRecord, rawId: string, rawCaptureId: string): CaptureRecord {
  const view = loadPayment(ctx, site, rawId, 'card');
  const id = parseId(rawCaptureId);
  const capture = id === null ? undefined : ctx.store.captures.get(id);
  if (!capture || capture.paymentId !== view.payment.id) throw notFound('Capture');
  return capture;
}
