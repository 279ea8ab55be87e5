// The hosted payment page's view of a payment, found by the token of its RedirectURL.
import type { PaymentEvent } from '../domain/payment.machine';
import { authorizesFirst } from '../domain/flows';
import { Status } from '../domain/statuses';
import type { MethodRecord, SiteRecord, Surface } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';
import { applyPaymentEvent } from './events.service';
import { parseId, reload } from './lookup';
import { holdForPayer, releaseToPayer } from './payer-hold.service';

export type PayerAction = 'pay' | 'authorize' | 'fail' | 'cancel';

const EVENTS: Record<PayerAction, PaymentEvent> = { pay: 'succeed', authorize: 'authorize', fail: 'fail', cancel: 'cancel' };

export interface PayerPage {
  view: PaymentView;
  merchant: SiteRecord | undefined;
  method: MethodRecord | undefined;
  sites: Map<number, SiteRecord | undefined>;
  actions: PayerAction[];
}

/** Why a token shows no payment: unknown (404) or no longer usable (410). */
export class TokenRefused extends Error {
  constructor(
    readonly status: 404 | 410,
    message: string,
  ) {
    super(message);
  }
}

/** `<32 hex>.<PaymentID>`, as in RedirectURL; each address's page shows only its own payments. */
export function openPayment(ctx: ServiceContext, paymentToken: string | undefined, surface: Surface = 'api'): PayerPage {
  const m = /^([0-9A-F]{32})\.([0-9]{1,16})$/.exec(paymentToken ?? '');
  const id = m ? parseId(m[2]!) : null;
  const payment = id === null ? undefined : ctx.store.payments.getAny(id);
  if (!m || !payment || payment.token !== m[1] || String(payment.id) !== m[2] || payment.surface !== surface) {
    throw new TokenRefused(404, 'This payment link is not known. It may have been cancelled, or mistyped.');
  }
  if (payment.tokenLifetime !== null && ctx.clock.now() >= payment.createdAt + payment.tokenLifetime * 60_000) {
    throw new TokenRefused(410, 'This payment link has expired.');
  }
  if (payment.statusId !== Status.Open) {
    throw new TokenRefused(410, 'This payment has already been completed.');
  }
  const view = reload(ctx, payment.id);
  const method = payment.methodId === null ? undefined : ctx.store.methods.get(payment.methodId);
  const twoStep = method ? authorizesFirst(method.flow) : false;
  return {
    view,
    merchant: ctx.store.sites.get(payment.ownerSiteId),
    method,
    sites: new Map(view.splits.map((s) => [s.siteId, ctx.store.sites.get(s.siteId)])),
    actions: twoStep ? ['authorize', 'fail', 'cancel'] : ['pay', 'fail', 'cancel'],
  };
}

/** The page a payer opens: the payer now decides, and the scenario's provider steps wait (payer-hold.service). */
/** The services as the work of the payment a link names sees them (its marketplace's own clock, when it has one). */
export function servicesForLink(ctx: ServiceContext, paymentToken: string | undefined): ServiceContext {
  const id = /\.([0-9]{1,16})$/.exec(paymentToken ?? '')?.[1];
  const owner = id === undefined ? undefined : ctx.store.payments.getAny(Number(id))?.ownerSiteId;
  return owner === undefined ? ctx : (ctx.forSite?.(owner) ?? ctx);
}

export function showPayment(ctx: ServiceContext, paymentToken: string | undefined, surface: Surface = 'api'): PayerPage {
  const page = openPayment(ctx, paymentToken, surface);
  holdForPayer(ctx, page.view.payment);
  return page;
}

/** A button pressed on the page: applied once; a second press finds the payment no longer Open (410). */
export function pressButton(ctx: ServiceContext, paymentToken: string | undefined, action: string, surface: Surface = 'api'): PaymentView {
  return ctx.store.tx(() => {
    const page = openPayment(ctx, paymentToken, surface);
    if (!page.actions.includes(action as PayerAction)) throw new TokenRefused(404, 'This page has no such button.');
    const view = applyPaymentEvent(ctx, page.view.payment.id, EVENTS[action as PayerAction], { cause: `payer: ${action}` });
    releaseToPayer(ctx, view.payment.id, action);
    return view;
  });
}
