// What the card address decides about its other objects, at once and without I/O: a card payout's
// outcome, whether a card can be verified, a card authentication's cancel, a split's capture and a
// dispute's course. Decisions, never throws.
import { CardTestAmount } from './card.machine';
import type { Decision } from './payment.machine';
import { Status, statusInfo } from './statuses';

const ok = <T>(value: T): Decision<T> => ({ ok: true, value });
const no = (code: number, info: string): Decision<never> => ({ ok: false, code, info });

/** A dispute's statuses: Open, then won or lost (the payment status catalogue's IDs). */
export const DisputeStatus = { Open: 1, Won: 23, Lost: 24 } as const;

/** Status Info of a dispute: Open, DisputeWon, DisputeLost. */
export function disputeStatusInfo(id: number): string {
  return statusInfo(id);
}

/** A card's expiry: the last moment of its expiry month (UTC). Two-digit years are 20xx. */
export function cardExpired(month: string, year: string, nowMs: number): boolean {
  const y = year.length === 2 ? 2000 + Number(year) : Number(year);
  const firstOfNextMonth = Date.UTC(y, Number(month), 1);
  return nowMs >= firstOfNextMonth;
}

/** The Luhn check every real card number passes. */
export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface CardFacts {
  number: string;
  month: string;
  year: string;
}

export interface Outcome {
  status: number;
  reasons: { Code: number; Info: string }[];
}

/**
 * Fidelity: a card payout on the real test host answers Success (2) at once, and Failed (4) for an
 * expired card (SDK-NET PayoutServiceTests). The sandbox also fails a payout of the card test amount
 * 10001 ("all the transactions having this amount will fail") and a card number that fails the Luhn check.
 */
export function payoutOutcome(amount: bigint, card: CardFacts, nowMs: number): Outcome {
  if (cardExpired(card.month, card.year, nowMs)) {
    return { status: Status.Failed, reasons: [{ Code: 1205, Info: `Card details are invalid: the card expired (${card.month}/${card.year})` }] };
  }
  // A token's card was checked when it was made (its number is not kept): an empty number skips the check.
  if (card.number !== '' && !luhnValid(card.number)) {
    return { status: Status.Failed, reasons: [{ Code: 1201, Info: 'Card details are invalid: Card.Number fails the Luhn check' }] };
  }
  if (amount === CardTestAmount.Fails) {
    return { status: Status.Failed, reasons: [{ Code: 13, Info: 'Generic error: the card test amount 10001 always fails' }] };
  }
  return { status: Status.Success, reasons: [] };
}

/** A card can be verified (a card authentication made) when it is in date and its number is well formed. */
export function cardVerifiable(card: CardFacts, nowMs: number): Decision<true> {
  if (cardExpired(card.month, card.year, nowMs)) return no(1205, `Card details are invalid: the card expired (${card.month}/${card.year})`);
  if (!luhnValid(card.number)) return no(1201, 'Card details are invalid: Card.Number fails the Luhn check');
  return ok(true);
}

/** A credit card token can pay or be paid out to while it is active. */
export function tokenUsable(active: boolean): Decision<true> {
  return active ? ok(true) : no(2401, 'Credit card token is not available: it was cancelled');
}

/** A credit card token is cancelled once. */
export function cardAuthCancel(active: boolean): Decision<true> {
  return active ? ok(true) : no(2401, 'Credit card token is not available: it was cancelled before');
}

export interface SplitShare {
  id: number;
  amount: bigint;
  capturedAmount: bigint | null;
}

export interface SplitCaptureState {
  /** The split's new status and captured amount. */
  splitStatus: number;
  splitCaptured: bigint;
  /** The payment's new status and captured amount (all its splits' captures together). */
  paymentStatus: number;
  paymentCaptured: bigint;
}

/**
 * A capture of one split of an Authorized marketplace card payment (the PHP SDK's split_capture):
 * `amount` of the split (its whole amount by default) is taken; the split is Captured (11), or
 * PartiallyCaptured (35) for less; the payment is PartiallyCaptured until what its splits took adds up
 * to its Amount, then Captured. Each split is captured once.
 */
export function splitCapture(
  paymentStatus: number,
  paymentAmount: bigint,
  paymentCaptured: bigint,
  split: SplitShare,
  requested: bigint,
): Decision<SplitCaptureState> {
  const splitTaken = split.capturedAmount !== null && split.capturedAmount > 0n;
  if (paymentStatus === Status.PartiallyCaptured && !splitTaken) {
    // Other splits were captured before: this one may still be.
  } else if (paymentStatus === Status.Captured || (paymentStatus === Status.PartiallyCaptured && splitTaken)) {
    return no(4997, `Payment is captured: split ${split.id} was captured before; each split is captured once`);
  } else if (paymentStatus !== Status.Authorized) {
    return no(17, `Payment is invalid: only an Authorized card payment (or one whose other splits were captured) can have a split captured (it is ${statusInfo(paymentStatus)})`);
  }
  if (requested > split.amount) {
    return no(1013, `Payment.AmountToCapture exceeds initial payment authorized amount: ${requested} is more than split ${split.id}'s ${split.amount}`);
  }
  const captured = paymentCaptured + requested;
  return ok({
    splitStatus: requested < split.amount ? Status.PartiallyCaptured : Status.Captured,
    splitCaptured: requested,
    paymentStatus: captured >= paymentAmount ? Status.Captured : Status.PartiallyCaptured,
    paymentCaptured: captured,
  });
}

/**
 * A dispute (chargeback) opens on a payment whose money was taken (Captured or PartiallyCaptured),
 * for what was taken; one at a time.
 */
export function disputeOpens(paymentStatus: number, capturedAmount: bigint | null, openDispute: boolean): Decision<bigint> {
  if (paymentStatus !== Status.Captured && paymentStatus !== Status.PartiallyCaptured) {
    return no(11, `only a Captured or PartiallyCaptured card payment can be disputed (it is ${statusInfo(paymentStatus)})`);
  }
  if (capturedAmount === null || capturedAmount === 0n) return no(11, 'nothing was captured on this payment');
  if (openDispute) return no(11, 'the payment has an Open dispute already; win or lose it first');
  return ok(capturedAmount);
}

/** An Open dispute is won or lost, once. */
export function disputeResolves(status: number, event: 'win' | 'lose'): Decision<number> {
  if (status !== DisputeStatus.Open) return no(11, `only an Open dispute can be won or lost (it is ${disputeStatusInfo(status)})`);
  return ok(event === 'win' ? DisputeStatus.Won : DisputeStatus.Lost);
}
