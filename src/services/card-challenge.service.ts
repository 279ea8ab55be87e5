// Card fraud challenges: a card payment the fraud check holds (PendingChallengeConfirmation, 30) until
// the merchant accepts (it goes on as its authorization would have) or rejects it (Cancelled).
import { EVENT_CHALLENGE_REASON, cardChallenge, challengeAnswered } from '../domain/card.machine';
import { Status } from '../domain/statuses';
import { Rejection, notFound } from '../errors/errors';
import { type ReasonCode, reason } from '../errors/reasons';
import type { PaymentRecord, SiteRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import { scheduleCardOutcome } from './card-actions.service';
import type { ServiceContext } from './context';
import { EventRefused } from './events.service';
import { loadPayment, parseId } from './lookup';
import { movePayment } from './transition';

/**
 * The provider's fraud check holds card payment `rawId` (any site's: the control API and the dashboard
 * speak for the provider): an Open or Authorized one becomes PendingChallengeConfirmation, notified.
 */
export function holdForChallenge(ctx: ServiceContext, rawId: string | number, cause = 'event challenge'): PaymentView {
  return ctx.store.tx(() => {
    const id = typeof rawId === 'number' ? rawId : parseId(rawId);
    const payment = id === null ? undefined : ctx.store.payments.getAny(id);
    if (!payment) throw notFound('Payment');
    if (payment.surface !== 'card') throw new EventRefused(`Event challenge refused for payment ${payment.id}: fraud challenges hold card payments`, 11);
    const decision = cardChallenge(payment.statusId);
    if (!decision.ok) throw new EventRefused(`Event challenge refused for payment ${payment.id}: ${decision.info}`, decision.code);
    const view: PaymentView = { payment, splits: ctx.store.splits.ofPayment(payment.id) };
    // Held, the payer's part is over: the card form closes.
    return movePayment(ctx, view, decision.value.status, cause, { token: null, fraudReason: EVENT_CHALLENGE_REASON });
  });
}

/** `POST /v1/payments/{id}/challenge/accept` on the card address: the payment goes on (Authorized, or captured as Capture asked). */
export function acceptChallenge(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentView {
  return answer(ctx, site, rawId, true);
}

/** `POST /v1/payments/{id}/challenge/reject` on the card address: the payment is Cancelled (3). */
export function rejectChallenge(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentView {
  return answer(ctx, site, rawId, false);
}

function answer(ctx: ServiceContext, site: SiteRecord, rawId: string, accept: boolean): PaymentView {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId, 'card');
    const p = view.payment;
    const decision = challengeAnswered(p.statusId, p.amount, p.capture ?? true, accept);
    if (!decision.ok) throw new Rejection([reason(decision.code as ReasonCode, decision.info)], view);
    const state = decision.value;
    const extra: Partial<PaymentRecord> = { capturedAmount: state.capturedAmount };
    if (state.status === Status.Cancelled) (extra.token = null), (extra.tokenLifetime = null);
    const after = movePayment(ctx, view, state.status, accept ? 'challenge accepted' : 'challenge rejected', extra);
    scheduleCardOutcome(ctx, p.id, state);
    return after;
  });
}
