// Provider and payer events: what the real service's providers and payers do to a payment.
import { type PaymentEvent, applyEvent } from '../domain/payment.machine';
import { Status } from '../domain/statuses';
import { HttpError, notFound } from '../errors/errors';
import type { PaymentRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';
import { parseId, reload } from './lookup';
import { movePayment } from './transition';

export class EventRefused extends HttpError {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(400, message);
  }
}

/** Applies `event` to payment `id` (any site's: the control API and scenarios speak for the provider). */
export function applyPaymentEvent(ctx: ServiceContext, rawId: string | number, event: PaymentEvent, cause = `event ${event}`): PaymentView {
  return ctx.store.tx(() => {
    const id = typeof rawId === 'number' ? rawId : parseId(rawId);
    const payment = id === null ? undefined : ctx.store.payments.getAny(id);
    if (!payment) throw notFound('Payment');
    const view = reload(ctx, payment.id);
    const method = payment.methodId === null ? undefined : ctx.store.methods.get(payment.methodId);
    const decision = applyEvent(event, payment.statusId, method?.flow ?? null);
    if (!decision.ok) throw new EventRefused(`Event ${event} refused for payment ${payment.id}: ${decision.info}`, decision.code);
    const extra: Partial<PaymentRecord> = {};
    if (decision.value === Status.Success && method?.detailsTemplate) extra.details = fillDetails(method.detailsTemplate, payment);
    if (decision.value === Status.Cancelled || decision.value === Status.Expired) {
      extra.token = null;
      extra.tokenLifetime = null;
    }
    return movePayment(ctx, view, decision.value, cause, extra);
  });
}

/** The method's Details template with every key of spec 2.6 present; `{Amount}`, `{Currency}`, `{ID}` filled in. */
function fillDetails(template: Record<string, unknown>, p: PaymentRecord): Record<string, unknown> {
  const fill = (v: unknown) =>
    typeof v === 'string'
      ? v.replace('{Amount}', String(p.amount)).replace('{Currency}', p.currency).replace('{ID}', String(p.id))
      : v;
  const out: Record<string, unknown> = {};
  for (const key of DETAILS_ORDER) out[key] = key in template ? fill(template[key]) : null;
  return out;
}

const DETAILS_ORDER = [
  'AccountNumber', 'AccountHolder', 'IBAN', 'BIC', 'PrepaidCard', 'PrepaidCardPIN', 'SerialNumbers', 'Wallet',
  'ReferenceNumber', 'PayerCountry', 'PayerEmail', 'PayerPhone', 'BankCode', 'BankName', 'BankSortCode',
  'SocialSecurityNumber', 'BillingCycleStart', 'BillingCycleEnd', 'UnsubscribeInstructions', 'CustomerLoginID',
  'PaidAmount', 'PaidCurrency', 'ProviderExchangeRate', 'PayerBankAccountID', 'PayerID',
];
