// The payment state machine: which action or event is allowed in which state, and where it leads.
// Pure: every function returns a decision and never throws, so the services decide what to do with it.
import { type Flow, authorizesFirst } from './flows';
import { Status } from './statuses';

export type Decision<T> = { ok: true; value: T } | { ok: false; code: number; info: string };

const ok = <T>(value: T): Decision<T> => ({ ok: true, value });
const no = (code: number, info: string): Decision<never> => ({ ok: false, code, info });

/** Provider and payer events, as the control API and scenarios name them. */
export const PAYMENT_EVENTS = ['authorize', 'succeed', 'fail', 'expire', 'cancel', 'settle'] as const;
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number];

/**
 * The state a provider or payer event leads to. `flow` is null when the payment names no method:
 * the payer chooses one on the hosted page, so both kinds of flow are possible.
 */
export function applyEvent(event: PaymentEvent, status: number, flow: Flow | null): Decision<number> {
  const twoStep = flow === null ? null : authorizesFirst(flow);
  switch (event) {
    case 'authorize':
      if (twoStep === false) return no(11, `the payment's method is one-step: it cannot be authorized, only succeed`);
      if (status !== Status.Open) return no(17, `only an Open payment can be authorized (it is ${name(status)})`);
      return ok(Status.Authorized);
    case 'succeed':
      if (status === Status.CaptureRequested) return ok(Status.Success);
      if (twoStep === true) {
        return no(11, `the payment's method is two-step: authorize it, then capture it through the API`);
      }
      if (status !== Status.Open) return no(17, `only an Open payment can succeed (it is ${name(status)})`);
      return ok(Status.Success);
    case 'settle':
      if (status !== Status.CaptureRequested) {
        return no(17, `only a CaptureRequested payment can settle (it is ${name(status)})`);
      }
      return ok(Status.Success);
    case 'fail':
      if (status !== Status.Open && status !== Status.Authorized && status !== Status.CaptureRequested) {
        return no(17, `only an Open, Authorized or CaptureRequested payment can fail (it is ${name(status)})`);
      }
      return ok(Status.Failed);
    case 'expire':
      if (status !== Status.Open) return no(17, `only an Open payment can expire (it is ${name(status)})`);
      return ok(Status.Expired);
    case 'cancel':
      // The payer cancels on the hosted page, before paying.
      if (status !== Status.Open) return no(122, `only an Open payment can be cancelled by the payer (it is ${name(status)})`);
      return ok(Status.Cancelled);
  }
}

/** Any capture form: exactly one capture per payment, and only of an Authorized payment. */
export function canCapture(status: number): Decision<true> {
  if (status !== Status.Authorized) {
    return no(17, `Payment is invalid: only an Authorized payment can be captured, once (it is ${name(status)})`);
  }
  return ok(true);
}

/** The status a full capture leads to: some methods report CaptureRequested first. */
export function fullCaptureStatus(flow: Flow | null): number {
  return flow === 'two-step-capture-requested' ? Status.CaptureRequested : Status.Success;
}

/**
 * Merchant cancel. Authorized payments can always be cancelled; Open ones only when the
 * sandbox allows it (the spec's state table says yes, its prose says only Authorized).
 */
export function canCancel(status: number, allowOpen: boolean): Decision<true> {
  if (status === Status.Authorized) return ok(true);
  if (status === Status.Open && allowOpen) return ok(true);
  const allowedStates = allowOpen ? 'an Open or Authorized payment' : 'an Authorized payment';
  return no(122, `Unable to cancel transaction: only ${allowedStates} can be cancelled (it is ${name(status)})`);
}

/** Splits can be added in any state, unless a refund was made on the payment. */
export function canAddSplits(paymentId: number, hasRefund: boolean): Decision<true> {
  if (hasRefund) return no(11, `Action is invalid: payment ${paymentId} has a refund, so splits can no longer be added`);
  return ok(true);
}

/**
 * What can still be refunded on a split, or on a payment without splits: the money taken (the whole
 * amount when Success or Captured, the captured amount when PartiallyCaptured) less refunds already made.
 */
export function refundableAmount(split: {
  statusId: number;
  amount: bigint;
  capturedAmount: bigint | null;
  refunded: bigint;
}): bigint {
  let taken = 0n;
  if (split.statusId === Status.Success || split.statusId === Status.Captured) taken = split.capturedAmount ?? split.amount;
  else if (split.statusId === Status.PartiallyCaptured) taken = split.capturedAmount ?? 0n;
  const left = taken - split.refunded;
  return left > 0n ? left : 0n;
}

/** A refund of the whole payment (`POST /v1/payments/{id}/refunds`): refunds of a payment with splits are per split (spec 1). */
export function canRefundWhole(hasSplits: boolean): Decision<true> {
  if (hasSplits) return no(11, 'Action is invalid: a payment with splits is refunded per split (POST /v1/payments/{id}/splits/{splitId}/refunds)');
  return ok(true);
}

function name(status: number): string {
  const entry = Object.entries(Status).find(([, id]) => id === status);
  return entry ? entry[0] : String(status);
}
