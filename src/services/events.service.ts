// Provider and payer events: what the real service's providers and payers do to a payment.
import { cardEvent } from '../domain/card.machine';
import { type PaymentEvent, applyEvent as decide } from '../domain/payment.machine';
import { Status } from '../domain/statuses';
import { HttpError, notFound } from '../errors/errors';
import type { PaymentRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import { cardEntered } from './card-actions.service';
import { captureOnAuthorize } from './capture.service';
import { recordCardCapture } from './card-captures.service';
import type { ServiceContext } from './context';
import { parseId } from './lookup';
import { movePayment } from './transition';

export class EventRefused extends HttpError {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(400, message);
  }
}

export interface EventOptions {
  cause?: string;
  scenario?: boolean;
}

/**
 * Applies `event` to payment `id` (any site's: the control API and scenarios speak for the provider).
 * `scenario` events come from the payment's own scenario, which decides its story whatever the
 * method's flow; events from the control API follow the method's flow.
 */
export function applyPaymentEvent(ctx: ServiceContext, rawId: string | number, event: PaymentEvent, opts: EventOptions = {}): PaymentView {
  return ctx.store.tx(() => {
    const id = typeof rawId === 'number' ? rawId : parseId(rawId);
    const payment = id === null ? undefined : ctx.store.payments.getAny(id);
    if (!payment) throw notFound('Payment');
    return applyEvent(ctx, { payment, splits: ctx.store.splits.ofPayment(payment.id) }, event, opts);
  });
}

/**
 * The same, to a payment read in the transaction this runs in (a scenario step has read it already).
 * Refused, it throws before any write. A plain move of the payment, inside a running tx(), writes
 * without a savepoint of its own: nothing it does refuses after its first write, and a failure of
 * the database undoes the caller's transaction (or savepoint) anyway. A savepoint costs its RELEASE and
 * a copy of each page the change touches (a scenario step's authorization, under load).
 */
export function applyEventTo(ctx: ServiceContext, view: PaymentView, event: PaymentEvent, opts: EventOptions = {}): PaymentView {
  return applyDecided(ctx, decidePaymentEvent(ctx, view, event, opts));
}

/** An event decided for a payment read in the running transaction, not yet applied. */
export interface DecidedEvent {
  readonly view: PaymentView;
  readonly event: PaymentEvent;
  readonly opts: EventOptions;
  readonly decided: Decided;
}

/** applyEventTo's decision alone: reads only, and refuses (EventRefused) what applyDecided would not do. */
export function decidePaymentEvent(ctx: ServiceContext, view: PaymentView, event: PaymentEvent, opts: EventOptions = {}): DecidedEvent {
  return { view, event, opts, decided: decideEvent(ctx, view.payment, event, opts) };
}

/**
 * applyEventTo's move, as decided. A plain move can refuse nothing: only the others (a capture at
 * authorization, a card payment's capture or card entered) may refuse after a write, in a savepoint.
 */
export function applyDecided(ctx: ServiceContext, d: DecidedEvent): PaymentView {
  if (ctx.store.inTx && plainMove(d.view.payment, d.decided)) return act(ctx, d.view, d.decided, d.event, d.opts);
  return ctx.store.tx(() => act(ctx, d.view, d.decided, d.event, d.opts));
}

function applyEvent(ctx: ServiceContext, view: PaymentView, event: PaymentEvent, opts: EventOptions): PaymentView {
  return act(ctx, view, decideEvent(ctx, view.payment, event, opts), event, opts);
}

/** The status an event takes a payment to, or a card payment's card entered. */
type Decided = number | 'card-entered';

/** Where `event` takes the payment, or EventRefused; reads only. */
function decideEvent(ctx: ServiceContext, payment: PaymentRecord, event: PaymentEvent, opts: EventOptions): Decided {
  const method = payment.methodId === null ? undefined : ctx.store.methods.get(payment.methodId);
  // Card payments follow the card API's own states (QueuedForCapturing, Captured …).
  const decision =
    payment.surface === 'card' ? cardEvent(event, payment.statusId) : decide(event, payment.statusId, opts.scenario ? null : (method?.flow ?? null));
  if (!decision.ok) throw new EventRefused(`Event ${event} refused for payment ${payment.id}: ${decision.info}`, decision.code);
  return decision.value;
}

/** An API payment created with Capture true is captured as it is authorized (captureOnAuthorize). */
const capturesAtAuthorization = (payment: PaymentRecord, decided: Decided): boolean => decided === Status.Authorized && payment.surface === 'api' && payment.capture === true;

/** Whether act() only moves the payment (movePayment and nothing else that could refuse or call out). */
function plainMove(payment: PaymentRecord, decided: Decided): boolean {
  return decided !== 'card-entered' && decided !== Status.Captured && !capturesAtAuthorization(payment, decided);
}

function act(ctx: ServiceContext, view: PaymentView, decided: Decided, event: PaymentEvent, opts: EventOptions): PaymentView {
  const payment = view.payment;
  const cause = opts.cause ?? `event ${event}`;
  if (decided === 'card-entered') return cardEntered(ctx, view, cause);
  const extra: Partial<PaymentRecord> = {};
  if (decided === Status.Cancelled || decided === Status.Expired) {
    extra.token = null;
    extra.tokenLifetime = null;
  }
  if (decided === Status.Captured) {
    extra.capturedAmount = payment.amount;
    // The provider completed a card payment's requested or queued capture: that capture is recorded.
    if (payment.surface === 'card') recordCardCapture(ctx, view, payment.amount, Status.Success);
  }
  if (capturesAtAuthorization(payment, decided)) return captureOnAuthorize(ctx, view, cause);
  return movePayment(ctx, view, decided, cause, extra);
}
