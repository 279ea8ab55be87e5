// What a marketplace may reach through its own routes: its payments, their refunds, disputes and
// notifications. Another marketplace's is answered as one that does not exist (the same 404), so
// that a marketplace never learns that another's payment is there.
import { notFound } from '../errors/errors';
import type { ServiceContext } from '../services/context';
import { loadAnyPayment, parseId } from '../services/lookup';
import type { NotificationRecord } from '../store/notifications.repo';
import type { RefundRecord, SiteRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';

/** The marketplace's payment `rawId`, on either address, or 404. */
export function ownPayment(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentView {
  return loadAnyPayment(ctx, site, rawId);
}

const owns = (ctx: ServiceContext, site: SiteRecord, paymentId: number | null | undefined): boolean =>
  paymentId != null && ctx.store.payments.getAny(paymentId)?.ownerSiteId === site.siteId;

/** A refund of one of the marketplace's payments, or 404. */
export function ownRefund(ctx: ServiceContext, site: SiteRecord, rawId: string): RefundRecord {
  const id = parseId(rawId);
  const refund = id === null ? undefined : ctx.store.refunds.get(id);
  if (!refund || !owns(ctx, site, refund.paymentId)) throw notFound('Refund');
  return refund;
}

/** A dispute of one of the marketplace's payments, or 404. */
export function ownDisputeId(ctx: ServiceContext, site: SiteRecord, rawId: string): number {
  const id = parseId(rawId);
  const dispute = id === null ? undefined : ctx.store.disputes.get(id);
  if (!dispute || !owns(ctx, site, dispute.paymentId)) throw notFound('Dispute');
  return dispute.id;
}

/** A notification of the marketplace's journal (its payments', preapprovals' and payouts'), or 404. */
export function ownNotification(ctx: ServiceContext, site: SiteRecord, rawId: string): NotificationRecord {
  const id = parseId(rawId);
  const n = id === null ? undefined : ctx.store.notifications.get(id);
  if (!n || n.siteId !== site.siteId) throw notFound('Notification');
  return n;
}
