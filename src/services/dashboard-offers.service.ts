// What the dashboard offers on a payment's page: each action its state allows now, or why not, from
// the same decisions the services take when the action is sent (so a button shown is not refused).
import { cardCancel, cardCapture, cardChallenge, cardEvent, challengeAnswered } from '../domain/card.machine';
import type { Flow } from '../domain/flows';
import { type Decision, type PaymentEvent, applyEvent, canAddSplits, canCancel, canCapture, canRefundWhole } from '../domain/payment.machine';
import { statusInfo } from '../domain/statuses';
import type { SiteRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';
import { refundLeft } from './refunds.service';

export type Offer = { ok: true } | { ok: false; why: string };

export interface Offers {
  /** Provider events, in the order the page shows them. */
  events: { event: PaymentEvent; offer: Offer }[];
  /** Every form of capture (full, one split, per split; on a card payment, whole or part). */
  capture: Offer;
  cancel: Offer;
  /** A refund of a split, or of the whole payment when it has no splits (card payments: either). */
  refund: Offer;
  addSplit: Offer;
  /** Redelivering one of its notifications: only when there is a URL to send it to. */
  redeliver: Offer;
  /** A card payment held for a fraud challenge (the provider's check), and the merchant's answer to one. */
  challenge: Offer;
  challengeAnswer: Offer;
}

const offer = (d: Decision<unknown>): Offer => (d.ok ? { ok: true } : { ok: false, why: d.info });

export function offersFor(ctx: ServiceContext, site: SiteRecord, view: PaymentView, flow: Flow | null, events: readonly PaymentEvent[]): Offers {
  const p = view.payment;
  const card = p.surface === 'card';
  const status = p.statusId;
  const left = view.splits.length > 0 ? view.splits.reduce((n, s) => n + refundLeft(ctx, p, s), 0n) : 0n;
  const wholeLeft = refundLeft(ctx, p, undefined);
  const nothingLeft: Offer = {
    ok: false,
    why: `nothing to refund: no money taken and not yet refunded${view.splits.length > 0 ? ' on any split' : ''} (it is ${statusInfo(status)})`,
  };
  let refund: Offer;
  if (card) refund = wholeLeft > 0n || left > 0n ? { ok: true } : nothingLeft;
  else if (view.splits.length > 0) refund = left > 0n ? { ok: true } : nothingLeft;
  else refund = !canRefundWhole(false).ok ? offer(canRefundWhole(false)) : wholeLeft > 0n ? { ok: true } : nothingLeft;
  const url = site.notificationUrl ?? ctx.settings.defaultNotificationUrl ?? null;
  return {
    events: events.map((event) => ({ event, offer: offer(card ? cardEvent(event, status) : applyEvent(event, status, flow)) })),
    capture: offer(card ? cardCapture(status, p.amount, p.amount) : canCapture(status)),
    cancel: offer(card ? cardCancel(status, p.amount, ctx.settings.cancelOpen) : canCancel(status, ctx.settings.cancelOpen)),
    refund,
    addSplit: card ? { ok: false, why: 'card payments take no added splits' } : offer(canAddSplits(p.id, ctx.store.refunds.existForPayment(p.id))),
    redeliver: url === null ? { ok: false, why: 'no notification URL: set one in Settings (or start the sandbox with --notify-url)' } : { ok: true },
    challenge: card ? offer(cardChallenge(status)) : { ok: false, why: 'fraud challenges hold card payments' },
    challengeAnswer: card ? offer(challengeAnswered(status, p.amount, p.capture ?? true, true)) : { ok: false, why: 'fraud challenges hold card payments' },
  };
}
