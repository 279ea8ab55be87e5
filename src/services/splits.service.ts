// Adding splits to an existing payment.
import { canAddSplits } from '../domain/payment.machine';
import { sumAmounts } from '../domain/money';
import { Rejection } from '../errors/errors';
import { type Reason, reason } from '../errors/reasons';
import { addSplitsRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { SiteRecord, SplitRecord } from '../store/records';
import type { ServiceContext } from './context';
import { loadPayment } from './lookup';
import { type SplitInput, checkSplits } from './splits.input';
import { trigger } from './triggers.service';

/** `POST /v1/payments/{id}/splits`: the new splits take the payment's status. Returns the new splits. */
export function addSplits(ctx: ServiceContext, site: SiteRecord, rawId: string, body: unknown): { splits: SplitRecord[]; currency: string } {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId);
    const schemaReasons = validateRequest(addSplitsRequest, body, ctx.settings.strictFields === true);
    if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
    const allowed = canAddSplits(view.payment.id, ctx.store.refunds.existForPayment(view.payment.id));
    if (!allowed.ok) throw new Rejection([reason(11, allowed.info)]);
    const input = (body as { Splits: SplitInput[] }).Splits;
    const reasons: Reason[] = [];
    if (view.payment.methodId === null) reasons.push(reason(1, 'Payment.MethodID is missing: a payment with splits needs a method'));
    const already = sumAmounts(view.splits.map((s) => s.amount));
    reasons.push(...checkSplits(ctx, site, input, view.payment.amount, already, 'Splits'));
    if (reasons.length > 0) throw new Rejection(reasons);

    const now = ctx.clock.now();
    const ids = input.map((s) =>
      ctx.store.splits.insert({
        paymentId: view.payment.id,
        siteId: s.SiteID,
        merchantTransactionId: s.MerchantTransactionID,
        originatorTransactionId: s.OriginatorTransactionID ?? null,
        amount: BigInt(s.Amount),
        capturedAmount: null,
        statusId: view.payment.statusId,
        createdAt: now,
      }),
    );
    if (!view.payment.hasSplits) ctx.store.payments.update(view.payment.id, { hasSplits: true });
    // Where the addition falls among the payment's status changes, for its story.
    ctx.store.splits.markAdded(view.payment.id, ids[0]!);
    const created = new Set(ids);
    trigger(ctx, view.payment, { kind: 'action', action: 'add-splits' });
    return { splits: ctx.store.splits.ofPayment(view.payment.id).filter((s) => created.has(s.id)), currency: view.payment.currency };
  });
}
