// Faults on the notification channel, decided where the worker picks a due notification: Drop,
// Duplicate and Delay. A notification is shaped once, on its first pick; what was done is written
// in its journal entry (`fault`), and a delayed one steps out of its payment's queue until its time.
import type { Logger } from '../log';
import type { ServiceContext } from '../services/context';
import type { NotificationRecord } from '../store/notifications.repo';
import { describeEffect } from './rules';

/**
 * Whether the worker sends `n` now. False when a fault drops it or holds it back, or when its hold
 * ended behind an older notification of its payment that is still waiting (it then goes after it).
 */
export function shapeNotification(ctx: ServiceContext, n: NotificationRecord, log: Logger): boolean {
  const store = ctx.store;
  if (n.held) return store.tx(() => store.notifications.release(n));
  const faults = ctx.faults;
  if (faults === undefined || faults.notificationRules === 0 || n.attempts > 0 || n.fault !== null) return true;
  const rule = faults.matchNotification(n);
  if (!rule) return true;
  const effect = rule.effect;
  const by = `by fault ${rule.id}`;
  const now = ctx.clock.now();
  let fault = `${describeEffect(effect)} ${by}`;
  let send = true;
  store.tx(() => {
    if (effect.kind === 'drop') {
      store.notifications.drop(n, fault);
      send = false;
    } else if (effect.kind === 'delay') {
      store.notifications.hold(n, now + effect.ms, fault);
      send = false;
    } else if (effect.kind === 'duplicate') {
      const copies: number[] = [];
      for (let i = 2; i <= effect.copies; i++) {
        copies.push(store.notifications.insertCopy(n.id, now, `copy ${i} of ${effect.copies} of notification ${n.id}, ${by}`));
      }
      fault = `${fault} (copies: notifications ${copies.join(', ')})`;
      store.notifications.setFault(n.id, fault);
    }
  });
  // A real-time scheduler sets its timer for the end of the hold.
  if (effect.kind === 'delay') ctx.wake?.();
  log.info(`notify ${fault}`, { notification: n.id, payment: n.paymentId, refund: n.refundId ?? undefined, status: n.statusId });
  faults.told({ FaultID: rule.id, Channel: 'notifications', Effect: describeEffect(effect), Target: `notification ${n.id}` });
  return send;
}
