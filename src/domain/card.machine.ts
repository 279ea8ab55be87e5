// The card API's state machine: what a create, the payer's card form, a capture, a cancel and a refund
// do to a card payment, with the real card test host's test amounts. Pure: decisions, never throws.
import type { Decision, PaymentEvent } from './payment.machine';
import { Status, statusInfo } from './statuses';

const ok = <T>(value: T): Decision<T> => ({ ok: true, value });
const no = (code: number, info: string): Decision<never> => ({ ok: false, code, info });

/**
 * Fidelity: the card test host's test amounts (minor units), as its documentation lists them. Every
 * other amount succeeds (the documentation names 1–10000; the sandbox lets any other amount succeed too).
 */
export const CardTestAmount = {
  /** Every transaction fails. */
  Fails: 10001n,
  /** A capture is queued: QueuedForCapturing (33), return code 5288 "Capture failed but will retry again later". */
  QueuedForCapturing: 10002n,
  /** A capture is requested and stays CaptureRequested (13). */
  CaptureRequested: 10003n,
  /** Captured, but a refund stays Open. */
  RefundStaysOpen: 10004n,
  /** The capture fails: the time limit for capturing is overdue (Failed, 4). */
  CaptureFails: 10005n,
  /** A cancel is queued: QueuedForCanceling (34). */
  QueuedForCanceling: 10006n,
} as const;

/** Fidelity: the return code the card host gives with QueuedForCapturing. */
export const QUEUED_FOR_CAPTURING_REASON = { Code: 5288, Info: 'Capture failed but will retry again later' } as const;

/** What happens a moment after a capture was requested (a step on the sandbox clock), if anything. */
export type CaptureOutcome = 'captured' | 'capture-failed';

export interface CardState {
  status: number;
  /** Set when money was taken. */
  capturedAmount: bigint | null;
  /** The outcome of a requested capture, due a moment later; null when nothing follows by itself. */
  later: CaptureOutcome | null;
}

/**
 * A new card payment. Without card details, or with 3-D Secure asked for, the payer enters the card
 * on the hosted form first: the payment is Open until then.
 */
export function cardCreated(amount: bigint, capture: boolean, payerEntersCard: boolean): CardState {
  if (payerEntersCard) return { status: Status.Open, capturedAmount: null, later: null };
  return cardAuthorized(amount, capture);
}

/**
 * The card is known (sent with the create, or entered on the hosted form). Fidelity: the real test
 * host answers Capture true with CaptureRequested (13); Captured (11) follows a moment later.
 */
export function cardAuthorized(amount: bigint, capture: boolean): CardState {
  if (amount === CardTestAmount.Fails) return { status: Status.Failed, capturedAmount: null, later: null };
  if (!capture) return { status: Status.Authorized, capturedAmount: null, later: null };
  switch (amount) {
    case CardTestAmount.QueuedForCapturing:
      return { status: Status.QueuedForCapturing, capturedAmount: null, later: null };
    case CardTestAmount.CaptureRequested:
      return { status: Status.CaptureRequested, capturedAmount: null, later: null };
    case CardTestAmount.CaptureFails:
      return { status: Status.CaptureRequested, capturedAmount: null, later: 'capture-failed' };
    default:
      return { status: Status.CaptureRequested, capturedAmount: null, later: 'captured' };
  }
}

/** Where a requested capture ends, a moment later: Captured with the whole amount, or Failed. */
export function captureSettled(status: number, amount: bigint, outcome: CaptureOutcome): Decision<CardState> {
  if (status !== Status.CaptureRequested) {
    return no(17, `the capture was requested, but the payment is no longer CaptureRequested (it is ${statusInfo(status)})`);
  }
  return ok(
    outcome === 'captured'
      ? { status: Status.Captured, capturedAmount: amount, later: null }
      : { status: Status.Failed, capturedAmount: null, later: null },
  );
}

/**
 * `POST /v1/payments/{id}/capture[?amount=]` on the card address: the whole amount → Captured (11),
 * less → PartiallyCaptured (35), as the real test host answers. Only an Authorized payment, once.
 */
export function cardCapture(status: number, amount: bigint, requested: bigint): Decision<CardState> {
  if (status === Status.Captured) return no(4997, 'Payment is captured: a card payment is captured once');
  if (status === Status.PartiallyCaptured) return no(4996, 'Payment is partially captured: a card payment is captured once');
  if (status !== Status.Authorized) {
    return no(17, `Payment is invalid: only an Authorized card payment can be captured (it is ${statusInfo(status)})`);
  }
  if (requested > amount) {
    return no(1013, `Payment.AmountToCapture exceeds initial payment authorized amount: ${requested} is more than the authorized ${amount}`);
  }
  switch (amount) {
    case CardTestAmount.QueuedForCapturing:
      return ok({ status: Status.QueuedForCapturing, capturedAmount: null, later: null });
    case CardTestAmount.CaptureRequested:
      return ok({ status: Status.CaptureRequested, capturedAmount: null, later: null });
    case CardTestAmount.CaptureFails:
      return ok({ status: Status.Failed, capturedAmount: null, later: null });
  }
  return ok({ status: requested < amount ? Status.PartiallyCaptured : Status.Captured, capturedAmount: requested, later: null });
}

/** `POST /v1/payments/{id}/cancel` on the card address: an Authorized payment (or an Open one, when allowed). */
export function cardCancel(status: number, amount: bigint, allowOpen: boolean): Decision<number> {
  if (status === Status.Captured) return no(4997, 'Payment is captured: a captured card payment cannot be cancelled; refund it');
  if (status === Status.PartiallyCaptured) {
    return no(4996, 'Payment is partially captured: a captured card payment cannot be cancelled; refund it');
  }
  if (status === Status.Authorized) return ok(amount === CardTestAmount.QueuedForCanceling ? Status.QueuedForCanceling : Status.Cancelled);
  if (status === Status.Open && allowOpen) return ok(Status.Cancelled);
  const allowed = allowOpen ? 'an Open or Authorized card payment' : 'an Authorized card payment';
  return no(105, `Action is invalid: only ${allowed} can be cancelled (it is ${statusInfo(status)})`);
}

/** Fidelity: card refunds succeed at once on the test host, except on amount 10004, where they stay Open. */
export function cardRefundStatus(paymentAmount: bigint): number {
  return paymentAmount === CardTestAmount.RefundStaysOpen ? Status.Open : Status.Success;
}

/**
 * A provider or payer event on a card payment (control API, dashboard, hosted card form).
 * `card-entered`: the payer entered the card on the hosted form; the payment's Capture flag and
 * amount decide what follows (cardAuthorized).
 */
export function cardEvent(event: PaymentEvent, status: number): Decision<number | 'card-entered'> {
  const is = (...states: number[]) => states.includes(status);
  switch (event) {
    case 'authorize':
      if (!is(Status.Open)) return no(17, `only an Open card payment waits for its card (it is ${statusInfo(status)})`);
      return ok('card-entered');
    case 'succeed':
      return no(11, 'card payments are authorized (authorize), then captured: they have no succeed');
    case 'settle':
      // The provider completes what was requested or queued: the capture, or the cancel.
      if (is(Status.QueuedForCanceling)) return ok(Status.Cancelled);
      if (!is(Status.CaptureRequested, Status.QueuedForCapturing)) {
        return no(17, `only a CaptureRequested, QueuedForCapturing or QueuedForCanceling card payment can settle (it is ${statusInfo(status)})`);
      }
      return ok(Status.Captured);
    case 'fail':
      if (!is(Status.Open, Status.Authorized, Status.CaptureRequested, Status.QueuedForCapturing)) {
        return no(17, `only an Open, Authorized, CaptureRequested or QueuedForCapturing card payment can fail (it is ${statusInfo(status)})`);
      }
      return ok(Status.Failed);
    case 'expire':
      if (!is(Status.Open)) return no(17, `only an Open card payment can expire (it is ${statusInfo(status)})`);
      return ok(Status.Expired);
    case 'cancel':
      // The payer cancels on the hosted card form.
      if (!is(Status.Open)) return no(122, `only an Open card payment can be cancelled by the payer (it is ${statusInfo(status)})`);
      return ok(Status.Cancelled);
  }
}

/**
 * Fidelity: the customer e-mail the .NET SDK's challenge tests send (AcceptChallengeTests.cs,
 * RejectChallengeTests.cs) to have the real test host's fraud check challenge a card payment; the
 * documented test amounts have none for it. Compared without regard to case, as e-mail addresses are.
 */
export const CHALLENGE_EMAIL = 'challenge@challenge.com';

/** Whether the fraud check challenges a payment of this customer e-mail. */
export function fraudChallenges(email: unknown): boolean {
  return typeof email === 'string' && email.trim().toLowerCase() === CHALLENGE_EMAIL;
}

/** Why the check challenged a payment of the challenge e-mail (its Fraud.Reason). */
export const EMAIL_CHALLENGE_REASON = 'The customer e-mail is on the fraud check’s review list';
/** Why it challenged one held through the control API or the dashboard. */
export const EVENT_CHALLENGE_REASON = 'Held for review by the fraud check (a sandbox provider event)';

/** The fraud check held the payment before its authorization: PendingChallengeConfirmation (30), until the merchant answers. */
export const HELD_FOR_CHALLENGE: CardState = { status: Status.PendingChallengeConfirmation, capturedAmount: null, later: null };

/**
 * What the fraud check makes of a payment whose card is known (sent with the create, or entered on
 * the hosted form): held, for the challenge e-mail; otherwise `authorized`, what the authorization gives.
 */
export function fraudChecked(email: unknown, authorized: CardState): { state: CardState; fraudReason: string | null } {
  return fraudChallenges(email) ? { state: HELD_FOR_CHALLENGE, fraudReason: EMAIL_CHALLENGE_REASON } : { state: authorized, fraudReason: null };
}

/**
 * The provider's fraud check challenges a card payment (control API, dashboard): it runs before the
 * authorization, so an Open payment (its card not entered yet) or an Authorized one (not captured
 * yet) can be held; anything further along has passed the check.
 */
export function cardChallenge(status: number): Decision<CardState> {
  if (status !== Status.Open && status !== Status.Authorized) {
    return no(105, `Action is invalid: only an Open or Authorized card payment can be held for a fraud challenge (it is ${statusInfo(status)})`);
  }
  return ok(HELD_FOR_CHALLENGE);
}

/**
 * `POST /v1/payments/{id}/challenge/accept` or `/reject`: only a payment held for a challenge. Accepted,
 * it goes on as its authorization would have (Authorized, or captured when it asked for Capture);
 * rejected, it is Cancelled (3), as the .NET SDK's RejectChallengeTests expects.
 */
export function challengeAnswered(status: number, amount: bigint, capture: boolean, accept: boolean): Decision<CardState> {
  if (status !== Status.PendingChallengeConfirmation) {
    const what = accept ? 'accepted' : 'rejected';
    return no(1006, `Payment.State is invalid: only a card payment held for a fraud challenge (PendingChallengeConfirmation, 30) can have its challenge ${what} (it is ${statusInfo(status)})`);
  }
  return ok(accept ? cardAuthorized(amount, capture) : { status: Status.Cancelled, capturedAmount: null, later: null });
}

/** Fidelity: the card host's return code for a rejected challenge (SDK-NET CardReturnCodeId.ChallengeRejected). */
export const CHALLENGE_REJECTED_REASON = { Code: 118, Info: 'Challenge rejected' } as const;
