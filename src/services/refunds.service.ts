// Refunds of a split.
import { refundableAmount } from '../domain/payment.machine';
import { parseAmount } from '../domain/money';
import { Status, statusInfo } from '../domain/statuses';
import { HttpError, Rejection, notFound } from '../errors/errors';
import { reason } from '../errors/reasons';
import { refundRequest } from '../schemas/requests';
import { validate } from '../schemas/validator';
import type { RefundRecord, SiteRecord } from '../store/records';
import { recordRefundStatus } from './changes';
import type { ServiceContext } from './context';
import { findSplit, loadPayment, reload } from './lookup';
import { refundCreated, trigger } from './triggers.service';

interface RefundInput {
  MerchantTransactionID?: string | null;
  OriginatorTransactionID?: string | null;
  Amount: number | string;
  Description?: string | null;
}

/** Refunds are TypeID 1 (Native) unless a method says otherwise. */
const NATIVE_REFUND = 1;

/** `POST /v1/payments/{id}/splits/{splitId}/refunds`: a refund starts Open. */
export function refundSplit(ctx: ServiceContext, site: SiteRecord, rawId: string, rawSplitId: string, body: unknown): RefundRecord {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId);
    const split = findSplit(view, rawSplitId);
    const schemaReasons = validate(refundRequest, body);
    if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
    const input = (body as { Refund: RefundInput }).Refund;
    const amount = parseAmount(input.Amount)!;
    const left = refundableAmount({
      statusId: split.statusId,
      amount: split.amount,
      capturedAmount: split.capturedAmount,
      refunded: ctx.store.refunds.refundedOnSplit(split.id),
    });
    if (left === 0n) {
      throw new Rejection([reason(18, `Refund is invalid: split ${split.id} has nothing captured or paid left to refund`)]);
    }
    if (amount > left) {
      throw new Rejection([reason(18, `Refund is invalid: Refund.Amount ${amount} is more than the ${left} left to refund on split ${split.id}`)]);
    }
    const id = ctx.store.refunds.insert({
      paymentId: view.payment.id,
      splitId: split.id,
      siteId: split.siteId,
      merchantTransactionId: input.MerchantTransactionID ?? '',
      originatorTransactionId: input.OriginatorTransactionID ?? null,
      amount,
      currency: view.payment.currency,
      description: input.Description ?? '',
      typeId: NATIVE_REFUND,
      statusId: Status.Open,
      createdAt: ctx.clock.now(),
    });
    // The generated MerchantTransactionID carries the refund's own ID, known only after the insert.
    if (!input.MerchantTransactionID) ctx.store.refunds.setMerchantTransactionId(id, `${view.payment.merchantTransactionId}-R${id}`);
    const refund = ctx.store.refunds.get(id)!;
    recordRefundStatus(ctx, refund, view, 'refund requested', false);
    refundCreated(ctx, view.payment, refund.id);
    trigger(ctx, view.payment, { kind: 'action', action: 'refund' });
    return refund;
  });
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
