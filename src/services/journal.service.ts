// The notification journal and the payment story, as the control API shows them.
import { preapprovalStatusInfo } from '../domain/preapproval.machine';
import { statusInfo } from '../domain/statuses';
import { formatTimestamp } from '../domain/time';
import type { NotificationFilter, NotificationRecord, NotificationState } from '../store/notifications.repo';
import { HttpError } from '../errors/errors';
import { MAX_JOURNAL_PAGE_SIZE, NOTIFICATION_STATES as JOURNAL_STATES } from '../schemas/queries';
import { heldNote } from './payer-hold.service';
import type { ServiceContext } from './context';

export function notificationView(ctx: ServiceContext, n: NotificationRecord) {
  return {
    ID: n.id,
    PaymentID: n.paymentId,
    RefundID: n.refundId,
    /** A preapproval's notification names it here (PaymentID null). */
    PreapprovalID: n.preapprovalId,
    /** A card payout's notification names it here (PaymentID null). */
    PayoutID: n.payoutId ?? null,
    SiteID: n.siteId,
    StatusID: n.statusId,
    StatusInfo: n.preapprovalId === null ? statusInfo(n.statusId) : preapprovalStatusInfo(n.statusId),
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

export const NOTIFICATION_STATES: readonly NotificationState[] = JOURNAL_STATES;

export function listNotifications(ctx: ServiceContext, f: NotificationFilter) {
  return ctx.store.notifications.list(f).map((n) => notificationView(ctx, n));
}

/** How the journal is paged, as the payment list is: 1-based pages, newest first unless asked otherwise. */
export interface JournalPaging {
  PageSize?: number;
  PageIndex?: number;
  SortDirection?: 'asc' | 'desc';
}

/** A page when none is named: larger than the payment list's, as a test reading a payment's notifications wants them all. */
export const JOURNAL_PAGE_SIZE = 100;

export function checkedPaging(p: JournalPaging): Required<JournalPaging> {
  const whole = (name: keyof JournalPaging, v: unknown, max: number) => {
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= max)) {
      throw new HttpError(400, `${name} must be a whole number from 1 to ${max}`);
    }
  };
  whole('PageSize', p.PageSize, MAX_JOURNAL_PAGE_SIZE);
  whole('PageIndex', p.PageIndex, 2147483647);
  const direction = typeof p.SortDirection === 'string' ? p.SortDirection.toLowerCase() : p.SortDirection;
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') throw new HttpError(400, 'SortDirection must be asc or desc');
  return { PageSize: p.PageSize ?? JOURNAL_PAGE_SIZE, PageIndex: p.PageIndex ?? 1, SortDirection: direction ?? 'desc' };
}

/** One page of the journal in the payment list's envelope; TotalCount says how many match in all. */
export function notificationPage(ctx: ServiceContext, f: NotificationFilter, paging: JournalPaging = {}) {
  const p = checkedPaging(paging);
  const items = ctx.store.notifications.page(f, { limit: p.PageSize, offset: (p.PageIndex - 1) * p.PageSize, descending: p.SortDirection === 'desc' });
  const total = ctx.store.notifications.count(f);
  return {
    Notifications: items.map((n) => notificationView(ctx, n)),
    Count: items.length,
    TotalPages: Math.ceil(total / p.PageSize),
    TotalCount: total,
    PageIndex: p.PageIndex,
    PageSize: p.PageSize,
    SortDirection: p.SortDirection,
  };
}

export function paymentStory(ctx: ServiceContext, paymentId: number) {
  return {
    History: ctx.store.history.ofPayment(paymentId).map((h) => ({
      At: formatTimestamp(h.at),
      RefundID: h.refundId,
      ...(h.disputeId == null ? {} : { DisputeID: h.disputeId }),
      StatusID: h.statusId,
      StatusInfo: statusInfo(h.statusId),
      Cause: h.cause,
    })),
    Steps: ctx.store.jobs.ofPayment(paymentId).map((j) => {
      const held = heldNote(j);
      return {
        ID: j.id,
        Step: j.stepIndex >= 0 ? j.stepIndex : null,
        RefundID: j.refundId,
        Do: j.action,
        // Held: when it runs if the payer does nothing; Planned: when the scenario meant it to.
        Due: formatTimestamp(j.dueAt),
        Planned: j.plannedDueAt === null ? null : formatTimestamp(j.plannedDueAt),
        State: held ? 'held' : j.state,
        Ran: j.ranAt === null ? null : formatTimestamp(j.ranAt),
        Outcome: j.outcome ?? held,
      };
    }),
  };
}

/**
 * Queues a notification to be sent again. Refused, changing nothing, when there is nowhere to send it:
 * its merchant has no notification URL and the sandbox no default one (each attempt would fail).
 */
export function redeliverNotification(ctx: ServiceContext, n: NotificationRecord): void {
  const url = ctx.store.sites.get(n.siteId)?.notificationUrl ?? ctx.settings.defaultNotificationUrl ?? null;
  if (url === null) {
    throw new HttpError(
      400,
      `Notification ${n.id} cannot be redelivered: merchant ${n.siteId} has no notification URL, and the sandbox none for it (--notify-url). ` +
        `Set one with PATCH /_sandbox/merchants/${n.siteId} {"NotificationURL": "…"} first.`,
    );
  }
  ctx.store.tx(() => ctx.store.notifications.redeliver(n, ctx.clock.now()));
  ctx.wake?.();
}
