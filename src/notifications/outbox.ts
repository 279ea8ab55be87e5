// The outbox: each status change writes its notification in the same transaction as the change.
import type { ChangeSink } from '../services/changes';
import type { ServiceContext } from '../services/context';
import type { PayoutRecord, PreapprovalRecord, RefundRecord } from '../store/records';
import { preapprovalToWire } from '../wire/preapprovals';
import { disputeToWire, payoutNotificationToWire } from '../wire/card-objects';
import { type PaymentView, cardPaymentToWire, paymentToWire, refundToWire } from '../wire/serializers';

export interface OutboxOptions {
  /** The API address, for RedirectURL in bodies. */
  baseUrl: () => string;
  /** The card API address, for a card payment's RedirectURL (the API address when absent). */
  cardBaseUrl?: () => string;
  /** Notification URL of merchants that have none of their own (`start --notify-url`). */
  defaultUrl?: string | undefined;
  /** Told when a notification is journaled in its final state at once (no URL), for those waiting for one. */
  journaled?: () => void;
}

export function notificationUrl(ctx: ServiceContext, siteId: number, defaultUrl?: string): string | null {
  return ctx.store.sites.get(siteId)?.notificationUrl ?? defaultUrl ?? null;
}

const paymentOf = (view: PaymentView, refundId: number | null) => ({ site: view.payment.ownerSiteId, paymentId: view.payment.id, preapprovalId: null, refundId });


export function createOutbox(opts: OutboxOptions): ChangeSink {
  // Whose notification it is: a payment's (and maybe one of its refunds), a preapproval's or a payout's.
  type Of = { site: number; paymentId: number | null; preapprovalId: number | null; refundId: number | null; payoutId?: number };
  const write = (ctx: ServiceContext, of: Of, statusId: number, body: unknown) => {
    const site = of.site;
    // A merchant may choose which statuses it hears of; the others are not written at all.
    const only = ctx.store.sites.get(site)?.notifyStatuses;
    if (only && !only.includes(statusId)) return;
    const now = ctx.clock.now();
    // A merchant without a URL gets nothing, but the journal still shows what would have been sent.
    const state = notificationUrl(ctx, site, opts.defaultUrl) === null ? 'no-url' : 'pending';
    ctx.store.notifications.insert({
      paymentId: of.paymentId,
      preapprovalId: of.preapprovalId,
      payoutId: of.payoutId ?? null,
      refundId: of.refundId,
      siteId: site,
      statusId,
      body: JSON.stringify(body),
      state,
      nextAttemptAt: now,
      createdAt: now,
    });
    if (state !== 'pending') opts.journaled?.();
    ctx.wake?.();
  };
  return {
    paymentChanged(ctx, view) {
      const wire = { baseUrl: opts.baseUrl(), cardBaseUrl: (opts.cardBaseUrl ?? opts.baseUrl)() };
      // Fidelity: card payments are notified as `{"Payment": …}` too, the card payment as the card API shows it.
      const payment = view.payment.surface === 'card' ? cardPaymentToWire(view.payment, wire, view.splits) : paymentToWire(view, wire);
      write(ctx, paymentOf(view, null), view.payment.statusId, { Payment: payment });
    },
    refundChanged(ctx, refund: RefundRecord, view) {
      write(ctx, paymentOf(view, refund.id), refund.statusId, { Refund: refundToWire(refund) });
    },
    preapprovalChanged(ctx, p: PreapprovalRecord) {
      // Fidelity: `{"Preapproval": …}`, the preapproval as the API shows it (SDK-NET NotificationType.cs).
      const of = { site: p.ownerSiteId, paymentId: null, preapprovalId: p.id, refundId: null };
      write(ctx, of, p.statusId, { Preapproval: preapprovalToWire(p, opts.baseUrl()) });
    },
    payoutChanged(ctx, p: PayoutRecord) {
      // Fidelity: `{"Payout": …}`, as SDK-NET's NotificationProcessor reads it (PayoutNotificationTests).
      const of = { site: p.siteId, paymentId: null, preapprovalId: null, refundId: null, payoutId: p.id };
      write(ctx, of, p.statusId, { Payout: payoutNotificationToWire(p) });
    },
    // A dispute is told in its payment's queue, after what the payment went through before it.
    disputeChanged(ctx, dispute, view) {
      write(ctx, paymentOf(view, null), dispute.statusId, { Dispute: disputeToWire(dispute, view.payment.methodId) });
    },
  };
}
