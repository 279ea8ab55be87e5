// Merchant cancel of a payment.
import { canCancel } from '../domain/payment.machine';
import { Status } from '../domain/statuses';
import { Rejection } from '../errors/errors';
import { reason } from '../errors/reasons';
import type { SiteRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';
import { loadPayment } from './lookup';
import { movePayment } from './transition';
import { trigger } from './triggers.service';
import { CAUSE } from '../domain/causes';

/** `POST /v1/payments/{id}/cancel`: all splits follow; RedirectURL and TokenLifetime become null. */
export function cancelPayment(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentView {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId);
    const allowed = canCancel(view.payment.statusId, ctx.settings.cancelOpen);
    if (!allowed.ok) throw new Rejection([reason(122, allowed.info)], view);
    const after = movePayment(ctx, view, Status.Cancelled, CAUSE.cancel, { token: null, tokenLifetime: null });
    trigger(ctx, after.payment, { kind: 'action', action: 'cancel' });
    return after;
  });
}
