// The notification journal and the payment story, as the control API shows them.
import { statusInfo } from '../domain/statuses';
import { formatTimestamp } from '../domain/time';
import type { NotificationFilter, NotificationRecord, NotificationState } from '../store/notifications.repo';
import type { ServiceContext } from './context';

export function notificationView(ctx: ServiceContext, n: NotificationRecord) {
  return {
    ID: n.id,
    PaymentID: n.paymentId,
    RefundID: n.refundId,
    SiteID: n.siteId,
    StatusID: n.statusId,
    StatusInfo: statusInfo(n.statusId),
    State: n.state,
    Created: formatTimestamp(n.createdAt),
    NextAttempt: n.state === 'pending' ? formatTimestamp(n.nextAttemptAt) : null,
    Delivered: n.deliveredAt === null ? null : formatTimestamp(n.deliveredAt),
    /** What a fault did to it ("delayed 5s by fault 3"), or null. */
    Fault: n.fault,
    Body: JSON.parse(n.body) as unknown,
    Attempts: ctx.store.notifications.attemptsOf(n.id).map((a) => ({
      At: formatTimestamp(a.at),
      URL: a.url,
      HTTPStatus: a.httpStatus,
      Error: a.error,
      DurationMs: a.durationMs,
    })),
  };
}

export const NOTIFICATION_STATES: readonly NotificationState[] = ['pending', 'delivered', 'failed', 'no-url', 'dropped'];

export function listNotifications(ctx: ServiceContext, f: NotificationFilter) {
  return ctx.store.notifications.list(f).map((n) => notificationView(ctx, n));
}

export function paymentStory(ctx: ServiceContext, paymentId: number) {
  return {
    History: ctx.store.history.ofPayment(paymentId).map((h) => ({
      At: formatTimestamp(h.at),
      RefundID: h.refundId,
      StatusID: h.statusId,
      StatusInfo: statusInfo(h.statusId),
      Cause: h.cause,
    })),
    Steps: ctx.store.jobs.ofPayment(paymentId).map((j) => ({
      ID: j.id,
      Step: j.stepIndex >= 0 ? j.stepIndex : null,
      RefundID: j.refundId,
      Do: j.action,
      Due: formatTimestamp(j.dueAt),
      State: j.state,
      Ran: j.ranAt === null ? null : formatTimestamp(j.ranAt),
      Outcome: j.outcome,
    })),
  };
}
