// Waiting for a notification to reach its final state: what an integration test does instead of
// sleeping. Final is every state but pending: delivered, or journaled without being sent (the merchant
// has no notification URL, the retries ran out, a fault dropped it). Most embedded and CI users have
// no receiver, and their notifications are final the moment they are journaled.
import { preapprovalStatusInfo } from '../domain/preapproval.machine';
import { statusInfo } from '../domain/statuses';
import type { NotificationFilter, NotificationRecord } from '../store/notifications.repo';
import type { Store } from '../store/store';
import type { NotificationWorker } from './worker';

export interface WaitOptions {
  /** Insist on a delivery (a 204 from the merchant), not just a final state. */
  delivered?: boolean;
}

type Abort = { on(event: 'close', fn: () => void): unknown; off(event: 'close', fn: () => void): unknown };

/**
 * The first notification matching `filter` in a final state (delivered, with `delivered`), as soon as
 * there is one; undefined when none was within `timeoutMs`, or `abort` fired first. It looks again
 * after every attempt and every notification journaled as final, once that is committed.
 */
export function waitForNotification(
  store: Store,
  worker: NotificationWorker,
  filter: Omit<NotificationFilter, 'state' | 'final'>,
  timeoutMs: number,
  opts: WaitOptions = {},
  abort?: Abort,
): Promise<NotificationRecord | undefined> {
  const match: NotificationFilter = opts.delivered ? { ...filter, state: 'delivered' } : { ...filter, final: true };
  const found = () => (store.db.open ? store.notifications.list(match, 1)[0] : undefined);
  const now = found();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    let done = false;
    const finish = (n?: NotificationRecord) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.events.off('journaled', onJournaled);
      abort?.off('close', onAbort);
      resolve(n);
    };
    // Only what is committed counts: a group that fails to commit never happened.
    const onJournaled = () =>
      store.afterCommit(() => {
        const n = found();
        if (n) finish(n);
      });
    const onAbort = () => finish();
    const timer = setTimeout(() => finish(found()), timeoutMs);
    worker.events.on('journaled', onJournaled);
    abort?.on('close', onAbort);
  });
}

/** What there is instead, for the message of a wait that timed out. */
export function whatWasFound(store: Store, filter: Omit<NotificationFilter, 'state' | 'final'>): string {
  if (!store.db.open) return 'the sandbox stopped';
  // A preapproval's statuses are its own (4 is ClosedByCustomer there, Failed for a payment).
  const info = (n: NotificationRecord) => (n.preapprovalId === null ? statusInfo(n.statusId) : preapprovalStatusInfo(n.statusId));
  const describe = (n: NotificationRecord) => {
    const what = `notification ${n.id} (${info(n)})`;
    const attempts = `${n.attempts} attempt${n.attempts === 1 ? '' : 's'}`;
    const last = store.notifications.attemptsOf(n.id).at(-1);
    const why = last?.error ? ` (last: ${last.error})` : '';
    switch (n.state) {
      case 'pending':
        return n.attempts === 0 ? `${what} still pending, not yet sent` : `${what} still pending after ${attempts}${why}`;
      case 'failed':
        return `${what} given up after ${attempts}${why}`;
      case 'no-url':
        return `${what} journaled without being sent: its merchant has no notification URL`;
      default:
        return `${what} ${n.state}`;
    }
  };
  const any = store.notifications.list(filter, 1)[0];
  if (any) return `found ${describe(any)}`;
  const owner =
    filter.refundId !== undefined
      ? { refundId: filter.refundId }
      : filter.paymentId !== undefined
        ? { paymentId: filter.paymentId }
        : filter.preapprovalId !== undefined
          ? { preapprovalId: filter.preapprovalId }
          : undefined;
  const whose =
    filter.refundId !== undefined ? `refund ${filter.refundId}` : filter.paymentId !== undefined ? `payment ${filter.paymentId}` : `preapproval ${filter.preapprovalId}`;
  if (owner) {
    const others = store.notifications.list(owner, 5);
    if (others.length > 0) {
      const total = store.notifications.count(owner);
      const list = others.map((n) => `${n.id} ${info(n)} (${n.state})`).join(', ');
      return `no notification with StatusID ${filter.statusId} for ${whose}; it has ${total}: ${list}${total > others.length ? ', …' : ''}`;
    }
    return `no notification for ${whose} at all`;
  }
  return 'no matching notification at all';
}
