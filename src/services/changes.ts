// Every status a payment or refund enters is recorded here, inside the transaction that changes it:
// the status history, and the outbox that notifications are delivered from.
import type { DisputeRecord, PayoutRecord, PreapprovalRecord, RefundRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';

/** Receives status changes inside their transaction (the notification outbox). */
export interface ChangeSink {
  paymentChanged(ctx: ServiceContext, view: PaymentView, cause: string): void;
  refundChanged(ctx: ServiceContext, refund: RefundRecord, view: PaymentView, cause: string): void;
  preapprovalChanged(ctx: ServiceContext, preapproval: PreapprovalRecord, cause: string): void;
  disputeChanged(ctx: ServiceContext, dispute: DisputeRecord, view: PaymentView, cause: string): void;
  payoutChanged?(ctx: ServiceContext, payout: PayoutRecord, cause: string): void;
}

export function recordPaymentStatus(ctx: ServiceContext, view: PaymentView, cause: string, notify = true): void {
  ctx.store.history.record(view.payment.id, null, view.payment.statusId, ctx.clock.now(), cause);
  if (notify) ctx.changes?.paymentChanged(ctx, view, cause);
}

export function recordRefundStatus(ctx: ServiceContext, refund: RefundRecord, view: PaymentView, cause: string, notify = true): void {
  ctx.store.history.record(refund.paymentId, refund.id, refund.statusId, ctx.clock.now(), cause);
  if (notify) ctx.changes?.refundChanged(ctx, refund, view, cause);
}

export function recordPreapprovalStatus(ctx: ServiceContext, preapproval: PreapprovalRecord, cause: string, notify = true): void {
  ctx.store.history.recordPreapproval(preapproval.id, preapproval.statusId, ctx.clock.now(), cause);
  if (notify) ctx.changes?.preapprovalChanged(ctx, preapproval, cause);
}

/**
 * A card payout's outcome, notified as `{"Payout": …}`. A payout hangs off no payment, so it has no
 * status history: the notification journal is its record.
 */
export function recordPayoutStatus(ctx: ServiceContext, payout: PayoutRecord, cause: string): void {
  ctx.changes?.payoutChanged?.(ctx, payout, cause);
}

/** A dispute's status, in its payment's history (marked with the dispute), and notified as `{"Dispute": …}`. */
export function recordDisputeStatus(ctx: ServiceContext, dispute: DisputeRecord, view: PaymentView, cause: string): void {
  ctx.store.history.record(dispute.paymentId, null, dispute.statusId, ctx.clock.now(), cause, dispute.id);
  ctx.changes?.disputeChanged(ctx, dispute, view, cause);
}
