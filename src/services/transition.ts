// Moving a payment to a new status: the payment, the splits that follow it, and the record of it.
import type { PaymentRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import { recordPaymentStatus } from './changes';
import type { ServiceContext } from './context';
import { reload } from './lookup';

/**
 * Sets the payment's status (and `extra` fields). `allSplits` moves every split with it, as the
 * spec says splits carry the payment's status; partial captures move their splits themselves.
 * Must run inside a transaction.
 */
export function movePayment(
  ctx: ServiceContext,
  view: PaymentView,
  statusId: number,
  cause: string,
  extra: Partial<PaymentRecord> = {},
  allSplits = true,
): PaymentView {
  const now = ctx.clock.now();
  ctx.store.payments.update(view.payment.id, { ...extra, statusId, notificationAt: now });
  if (allSplits) ctx.store.splits.setStatusOfAll(view.payment.id, statusId);
  const after = reload(ctx, view.payment.id);
  recordPaymentStatus(ctx, after, cause);
  return after;
}
