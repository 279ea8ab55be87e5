// The outbox: each status change writes its notification in the same transaction as the change.
import type { ChangeSink } from '../services/changes';
import type { ServiceContext } from '../services/context';
import type { RefundRecord } from '../store/records';
import { disputeToWire } from '../wire/card-objects';
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

export function createOutbox(opts: OutboxOptions): ChangeSink {
  const write = (ctx: ServiceContext, view: PaymentView, refundId: number | null, statusId: number, body: unknown) => {
    const site = view.payment.ownerSiteId;
    // A merchant may choose which statuses it hears of; the others are not written at all.
    const only = ctx.store.sites.get(site)?.notifyStatuses;
    if (only && !only.includes(statusId)) return;
    const now = ctx.clock.now();
    // A merchant without a URL gets nothing, but the journal still shows what would have been sent.
    const state = notificationUrl(ctx, site, opts.defaultUrl) === null ? 'no-url' : 'pending';
    ctx.store.notifications.insert({
      paymentId: view.payment.id,
      refundId,
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
      write(ctx, view, null, view.payment.statusId, { Payment: payment });
    },
    refundChanged(ctx, refund: RefundRecord, view) {
      write(ctx, view, refund.id, refund.statusId, { Refund: refundToWire(refund) });
    },
    // A dispute is told in its payment's queue, after what the payment went through before it.
    disputeChanged(ctx, dispute, view) {
      write(ctx, view, null, dispute.statusId, { Dispute: disputeToWire(dispute, view.payment.methodId) });
    },
  };
}
