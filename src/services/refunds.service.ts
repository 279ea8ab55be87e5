// Refunds on the API address: of a split, or of a whole payment without splits; and refund reads on both addresses.
import { canRefundWhole, refundableAmount } from '../domain/payment.machine';
import { parseAmount } from '../domain/money';
import { Status, statusInfo } from '../domain/statuses';
import { HttpError, Rejection, notFound } from '../errors/errors';
import { reason } from '../errors/reasons';
import { refundRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { Json, PaymentRecord, RefundRecord, SiteRecord, SplitRecord, Surface } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import { recordRefundStatus } from './changes';
import type { ServiceContext } from './context';
import { findSplit, loadPayment, parseId, reload } from './lookup';
import { refundCreated, trigger } from './triggers.service';
import { generatedRefundMtid } from '../domain/causes';

interface RefundInput {
  MerchantTransactionID?: string | null;
  OriginatorTransactionID?: string | null;
  Amount: number | string;
  Description?: string | null;
  Articles?: Json[] | null;
}

/** Refunds are TypeID 1 (Native) unless a method says otherwise. */
export const NATIVE_REFUND = 1;

/** What is left to refund on `split`, or on the whole payment: what was taken less what was refunded. */
export function refundLeft(ctx: ServiceContext, p: PaymentRecord, split: SplitRecord | undefined): bigint {
  const of = split ?? p;
  return refundableAmount({
    statusId: of.statusId,
    amount: of.amount,
    capturedAmount: of.capturedAmount,
    refunded: split ? ctx.store.refunds.refundedOnSplit(split.id) : ctx.store.refunds.refundedOnPayment(p.id),
  });
}

/** `POST /v1/payments/{id}/splits/{splitId}/refunds`: a refund starts Open. */
export function refundSplit(ctx: ServiceContext, site: SiteRecord, rawId: string, rawSplitId: string, body: unknown): RefundRecord {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId);
    const split = findSplit(view, rawSplitId);
    return makeRefund(ctx, view, split, body);
  });
}

/**
 * `POST /v1/payments/{id}/refunds`: a refund of the whole payment, for a payment without splits (a
 * payment with splits is refunded per split: reason 11). Same bounds, steps and notifications as a
 * split's refund; it shows `"SplitID": 0`.
 */
export function refundPayment(ctx: ServiceContext, site: SiteRecord, rawId: string, body: unknown): RefundRecord {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId);
    const whole = canRefundWhole(view.payment.hasSplits);
    if (!whole.ok) throw new Rejection([reason(11, whole.info)]);
    return makeRefund(ctx, view, undefined, body);
  });
}

/** A new Open refund of `split`, or of the whole payment; bounded by what was taken less what was refunded. */
function makeRefund(ctx: ServiceContext, view: PaymentView, split: SplitRecord | undefined, body: unknown): RefundRecord {
  const schemaReasons = validateRequest(refundRequest, body, ctx.settings.strictFields === true);
  if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
  const input = (body as { Refund: RefundInput }).Refund;
  const amount = parseAmount(input.Amount)!;
  const p = view.payment;
  const left = refundLeft(ctx, p, split);
  const what = split ? `split ${split.id}` : `payment ${p.id}`;
  if (left === 0n) {
    throw new Rejection([reason(18, `Refund is invalid: ${what} has nothing captured or paid left to refund`)]);
  }
  if (amount > left) {
    throw new Rejection([reason(18, `Refund is invalid: Refund.Amount ${amount} is more than the ${left} left to refund on ${what}`)]);
  }
  const id = ctx.store.refunds.insert({
    paymentId: p.id,
    splitId: split?.id ?? null,
    siteId: split?.siteId ?? p.siteId,
    merchantTransactionId: input.MerchantTransactionID ?? '',
    originatorTransactionId: input.OriginatorTransactionID ?? null,
    amount,
    currency: p.currency,
    description: input.Description ?? '',
    typeId: NATIVE_REFUND,
    statusId: Status.Open,
    createdAt: ctx.clock.now(),
    articles: input.Articles ?? null,
  });
  // The generated MerchantTransactionID carries the refund's own ID, known only after the insert.
  if (!input.MerchantTransactionID) ctx.store.refunds.setMerchantTransactionId(id, generatedRefundMtid(p.merchantTransactionId, id));
  const refund = ctx.store.refunds.get(id)!;
  recordRefundStatus(ctx, refund, view, 'refund requested', false);
  refundCreated(ctx, p, refund.id);
  trigger(ctx, p, { kind: 'action', action: 'refund' });
  return refund;
}

/** `GET /v1/payments/{id}/refunds` (either address): the payment's refunds, oldest first, each in its current status. */
export function listRefunds(ctx: ServiceContext, site: SiteRecord, rawId: string, surface: Surface): RefundRecord[] {
  const view = loadPayment(ctx, site, rawId, surface);
  return ctx.store.refunds.ofPayment(view.payment.id);
}

/** `GET /v1/payments/{id}/refunds/{refundId}` (either address): one refund of the payment, or 404. */
export function getRefund(ctx: ServiceContext, site: SiteRecord, rawId: string, rawRefundId: string, surface: Surface): RefundRecord {
  const view = loadPayment(ctx, site, rawId, surface);
  const id = parseId(rawRefundId);
  const refund = id === null ? undefined : ctx.store.refunds.get(id);
  if (!refund || refund.paymentId !== view.payment.id) throw notFound('Refund');
  return refund;
}

/** The provider's answer to a refund: Open → Success or Failed, with its notification. */
export function applyRefundEvent(ctx: ServiceContext, refundId: number, outcome: 'succeed' | 'fail'): RefundRecord {
  return ctx.store.tx(() => {
    const refund = ctx.store.refunds.get(refundId);
    if (!refund) throw notFound('Refund');
    if (refund.statusId !== Status.Open) {
      throw new HttpError(400, `Event ${outcome} refused for refund ${refund.id}: only an Open refund can ${outcome} (it is ${statusInfo(refund.statusId)})`);
    }
    ctx.store.refunds.setStatus(refund.id, outcome === 'succeed' ? Status.Success : Status.Failed);
    const after = ctx.store.refunds.get(refund.id)!;
    recordRefundStatus(ctx, after, reload(ctx, refund.paymentId), `refund ${outcome}`);
    return after;
  });
}
