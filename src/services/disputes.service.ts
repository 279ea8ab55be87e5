// Disputes (chargebacks): opened on a captured card payment by the control API or the dashboard (the
// card holder's bank speaks), then won or lost; each status is in the payment's history and notified.
import { DisputeStatus, disputeOpens, disputeResolves } from '../domain/card-objects.machine';
import { notFound } from '../errors/errors';
import type { DisputeRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import { recordDisputeStatus } from './changes';
import type { ServiceContext } from './context';
import { EventRefused } from './events.service';
import { parseId } from './lookup';

export interface DisputeView {
  dispute: DisputeRecord;
  view: PaymentView;
}

/** A dispute opens on payment `rawId` (any site's: the control API speaks for the card holder's bank), for what was captured. */
export function openDispute(ctx: ServiceContext, rawId: string | number): DisputeView {
  return ctx.store.tx(() => {
    const id = typeof rawId === 'number' ? rawId : parseId(rawId);
    const payment = id === null ? undefined : ctx.store.payments.getAny(id);
    if (!payment) throw notFound('Payment');
    if (payment.surface !== 'card') throw new EventRefused(`Event dispute refused for payment ${payment.id}: disputes are opened on card payments`, 11);
    const open = ctx.store.disputes.ofPayment(payment.id).some((d) => d.statusId === DisputeStatus.Open);
    const decision = disputeOpens(payment.statusId, payment.capturedAmount, open);
    if (!decision.ok) throw new EventRefused(`Event dispute refused for payment ${payment.id}: ${decision.info}`, decision.code);
    const view: PaymentView = { payment, splits: ctx.store.splits.ofPayment(payment.id) };
    const dispute = ctx.store.disputes.insert({
      paymentId: payment.id,
      siteId: payment.siteId,
      amount: decision.value,
      currency: payment.currency,
      statusId: DisputeStatus.Open,
      createdAt: ctx.clock.now(),
    });
    recordDisputeStatus(ctx, dispute, view, `dispute ${dispute.id} opened`);
    return { dispute, view };
  });
}

/** Dispute `rawId` is won or lost (the control API and the dashboard), with its notification. */
export function resolveDispute(ctx: ServiceContext, rawId: string | number, event: 'win' | 'lose', site?: number): DisputeView {
  return ctx.store.tx(() => {
    const id = typeof rawId === 'number' ? rawId : parseId(rawId);
    const dispute = id === null ? undefined : ctx.store.disputes.get(id);
    const payment = dispute && ctx.store.payments.getAny(dispute.paymentId);
    if (!dispute || !payment || (site !== undefined && payment.ownerSiteId !== site)) throw notFound('Dispute');
    const decision = disputeResolves(dispute.statusId, event);
    if (!decision.ok) throw new EventRefused(`Event ${event} refused for dispute ${dispute.id}: ${decision.info}`, decision.code);
    ctx.store.disputes.setStatus(dispute.id, decision.value);
    const after: DisputeRecord = { ...dispute, statusId: decision.value };
    const view: PaymentView = { payment, splits: ctx.store.splits.ofPayment(payment.id) };
    recordDisputeStatus(ctx, after, view, `dispute ${dispute.id} ${event === 'win' ? 'won' : 'lost'}`);
    return { dispute: after, view };
  });
}
