// Waiting for a notification to be delivered: what an integration test does instead of sleeping.
import type { NotificationFilter, NotificationRecord } from '../store/notifications.repo';
import type { Store } from '../store/store';
import type { NotificationWorker } from './worker';

/**
 * The first delivered notification matching `filter`, as soon as there is one; undefined when none
 * was delivered within `timeoutMs` or `abort` fired first.
 */
export function waitForDelivered(
  store: Store,
  worker: NotificationWorker,
  filter: Omit<NotificationFilter, 'state'>,
  timeoutMs: number,
  abort?: { on(event: 'close', fn: () => void): unknown; off(event: 'close', fn: () => void): unknown },
): Promise<NotificationRecord | undefined> {
  const match = { ...filter, state: 'delivered' as const };
  const found = () => store.notifications.list(match, 1)[0];
  const now = found();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      worker.events.off('delivered', onDelivered);
      abort?.off('close', finish);
      resolve(store.db.open ? found() : undefined);
    };
    const onDelivered = () => {
      if (found()) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    worker.events.on('delivered', onDelivered);
    abort?.on('close', finish);
  });
}
