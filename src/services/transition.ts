// Moving a payment to a new status: the payment, the splits that follow it, and the record of it.
import { Status } from '../domain/statuses';
import { DETAILS_KEYS } from '../schemas/details';
import type { PaymentRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import { recordPaymentStatus } from './changes';
import type { ServiceContext } from './context';

/**
 * Sets the payment's status (and `extra` fields). `allSplits` moves every split with it, as the
 * spec says splits carry the payment's status; partial captures move their splits themselves.
 * Must run inside a transaction, with `view` read in it.
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
  const changes: Partial<PaymentRecord> = { ...extra, statusId, notificationAt: now };
  if (statusId === Status.Success) {
    const method = view.payment.methodId === null ? undefined : ctx.store.methods.get(view.payment.methodId);
    if (method?.detailsTemplate) changes.details = fillDetails(method.detailsTemplate, view.payment);
  }
  ctx.store.payments.update(view.payment.id, changes);
  if (allSplits) ctx.store.splits.setStatusOfAll(view.payment.id, statusId);
  // The view was read in this transaction: what was just written is applied to it rather than read
  // back (the rows hold nothing the store adds). Splits a caller moved itself are read back.
  const after: PaymentView = {
    payment: { ...view.payment, ...changes },
    splits: allSplits ? view.splits.map((s) => ({ ...s, statusId })) : ctx.store.splits.ofPayment(view.payment.id),
  };
  recordPaymentStatus(ctx, after, cause);
  return after;
}

/**
 * Fidelity: a bank-transfer-like method's Success carries Details (spec 2.6): the method's template
 * with every key present, `{Amount}`, `{Currency}` and `{ID}` filled in.
 */
function fillDetails(template: Record<string, unknown>, p: PaymentRecord): Record<string, unknown> {
  const fill = (v: unknown) =>
    typeof v === 'string'
      ? v.replace('{Amount}', String(p.amount)).replace('{Currency}', p.currency).replace('{ID}', String(p.id))
      : v;
  const out: Record<string, unknown> = {};
  for (const key of DETAILS_KEYS) out[key] = key in template ? fill(template[key]) : null;
  return out;
}
