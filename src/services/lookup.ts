// Finding the resources a request names, scoped to the authenticated site.
import { notFound } from '../errors/errors';
import type { SiteRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';

/** Path IDs are positive integers the store can hold; anything else names nothing. */
export function parseId(raw: string): number | null {
  if (!/^[0-9]{1,16}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && Number.isSafeInteger(n) ? n : null;
}

/** The payment with its splits, or 404 when it does not exist or belongs to another site. */
export function loadPayment(ctx: ServiceContext, site: SiteRecord, rawId: string, surface: 'api' | 'card' = 'api'): PaymentView {
  const id = parseId(rawId);
  // One read transaction: the splits of the same moment as the payment, and one look at the WAL.
  const view =
    id === null
      ? undefined
      : ctx.store.reading(() => {
          const payment = ctx.store.payments.get(id, site.siteId, surface);
          return payment && { payment, splits: ctx.store.splits.ofPayment(payment.id) };
        });
  if (!view) throw notFound('Payment');
  return view;
}

/** A payment of the site on either address (the dashboard shows both), or 404. */
export function loadAnyPayment(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentView {
  const id = parseId(rawId);
  const payment = id === null ? undefined : (ctx.store.payments.get(id, site.siteId, 'api') ?? ctx.store.payments.get(id, site.siteId, 'card'));
  if (!payment) throw notFound('Payment');
  return { payment, splits: ctx.store.splits.ofPayment(payment.id) };
}

export function findSplit(view: PaymentView, rawSplitId: string) {
  const id = parseId(rawSplitId);
  const split = view.splits.find((s) => s.id === id);
  if (!split) throw notFound('Split');
  return split;
}

/** Re-reads a payment after a change, for the response. */
export function reload(ctx: ServiceContext, id: number): PaymentView {
  const payment = ctx.store.payments.getAny(id)!;
  return { payment, splits: ctx.store.splits.ofPayment(id) };
}
