// The card API's actions on a card payment: capture (whole or part), cancel, refund (of the payment or
// of one split), the payer's card entered on the hosted form, and what a requested capture becomes a
// moment later (a step on the sandbox clock). One transaction each, as on the API address.
import { type CaptureOutcome, type CardState, captureSettled, cardAuthorized, cardCancel, cardCapture, cardRefundStatus, fraudChecked } from '../domain/card.machine';
import { canRefundWhole } from '../domain/payment.machine';
import { parseAmount } from '../domain/money';
import { Status, statusInfo } from '../domain/statuses';
import { Rejection, notFound } from '../errors/errors';
import { type ReasonCode, reason } from '../errors/reasons';
import { cardCaptureRequest, cardRefundRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { JobRecord } from '../store/jobs.repo';
import type { CaptureRecord, PaymentRecord, RefundRecord, SiteRecord, SplitRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import { recordRefundStatus } from './changes';
import type { ServiceContext } from './context';
import { captureCardSplit, recordCardCapture } from './card-captures.service';
import { findSplit, loadPayment, parseId } from './lookup';
import { NATIVE_REFUND, refundLeft } from './refunds.service';
import { movePayment } from './transition';
import { CAUSE } from '../domain/causes';

/** Fidelity: how long after a capture was requested (Capture true) its outcome arrives: 1 s of sandbox time. */
export const CARD_CAPTURE_DELAY_MS = 1000;

const CARD_STEPS: Record<string, CaptureOutcome> = { 'card-captured': 'captured', 'card-capture-failed': 'capture-failed' };

/** Whether a scenario job is a card payment's requested capture coming to its end. */
export function isCardStep(action: string): boolean {
  return action in CARD_STEPS;
}

/** Schedules the outcome of a requested capture, when one follows by itself. Inside the payment's transaction. */
export function scheduleCardOutcome(ctx: ServiceContext, paymentId: number, state: CardState): void {
  if (state.later === null) return;
  const action = state.later === 'captured' ? 'card-captured' : 'card-capture-failed';
  ctx.store.jobs.schedule(paymentId, null, -1, action, ctx.clock.now() + CARD_CAPTURE_DELAY_MS);
  ctx.wake?.();
}

/** Runs a card step (steps.service): the requested capture ends Captured, or Failed; with its notification. */
export function runCardStep(ctx: ServiceContext, view: PaymentView, job: JobRecord): string {
  const decision = captureSettled(view.payment.statusId, view.payment.amount, CARD_STEPS[job.action]!);
  if (!decision.ok) throw new Rejection([reason(decision.code as ReasonCode, decision.info)]);
  const captured = decision.value.status === Status.Captured;
  const cause = captured ? 'capture completed' : 'capture failed: the time limit for capturing is overdue';
  recordCardCapture(ctx, view, view.payment.amount, captured ? Status.Success : Status.Failed);
  return statusInfo(movePayment(ctx, view, decision.value.status, cause, { capturedAmount: decision.value.capturedAmount }).payment.statusId);
}

/**
 * The payer entered the card on the hosted form: authorized, and captured too when the payment asked
 * for it; or held for a fraud challenge, when the check challenges it.
 */
export function cardEntered(ctx: ServiceContext, view: PaymentView, cause: string): PaymentView {
  const p = view.payment;
  const { state, fraudReason } = fraudChecked(p.customer?.Email, cardAuthorized(p.amount, p.capture ?? true));
  const extra: Partial<PaymentRecord> = { capturedAmount: state.capturedAmount, ...(fraudReason === null ? {} : { fraudReason }) };
  const after = movePayment(ctx, view, state.status, cause, extra);
  scheduleCardOutcome(ctx, p.id, state);
  return after;
}

/** What a capture on the card address did: the payment after it, and for a split's capture the split and its capture. */
export interface CardCaptureResult {
  view: PaymentView;
  split?: SplitRecord;
  capture?: CaptureRecord;
}

/** `POST /v1/payments/{id}/capture[?amount=]` on the card address: the whole amount, or `amount` of it. */
export function captureCardPayment(ctx: ServiceContext, site: SiteRecord, rawId: string, rawAmount: string | undefined, body: unknown): PaymentView {
  return captureOnCardAddress(ctx, site, rawId, rawAmount, body).view;
}

/**
 * The same, with what the answer shows of a split's capture: a body `{"Payment": {"Split": {"ID",
 * "Amount"}}}` (the PHP SDK's split_capture) captures that split of a marketplace card payment.
 */
export function captureOnCardAddress(ctx: ServiceContext, site: SiteRecord, rawId: string, rawAmount: string | undefined, body: unknown): CardCaptureResult {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId, 'card');
    const problems = body === undefined ? [] : validateRequest(cardCaptureRequest, body, ctx.settings.strictFields === true);
    if (problems.length > 0) throw new Rejection(problems);
    const split = (body as { Payment?: { Split?: { ID: number } | null } | null } | undefined)?.Payment?.Split;
    if (split) {
      if (rawAmount !== undefined) throw new Rejection([reason(2, 'Payment.Split is invalid: a split capture names its amount in Payment.Split.Amount, not in ?amount=')], view);
      return captureCardSplit(ctx, view, (body as { Payment: Parameters<typeof captureCardSplit>[2] }).Payment);
    }
    return { view: captureWhole(ctx, view, rawAmount) };
  });
}

function captureWhole(ctx: ServiceContext, view: PaymentView, rawAmount: string | undefined): PaymentView {
  {
    const p = view.payment;
    const amount = rawAmount === undefined ? p.amount : parseAmount(rawAmount);
    if (amount === null) {
      throw new Rejection([reason(1012, 'Payment.AmountToCapture format is invalid: amount must be a whole number of minor units (1 to 12 digits), greater than 0')], view);
    }
    const decision = cardCapture(p.statusId, p.amount, amount);
    if (!decision.ok) throw new Rejection([reason(decision.code as ReasonCode, decision.info)], view);
    // Part of a marketplace payment would leave its splits with nothing captured to refund from.
    if (p.hasSplits && amount < p.amount) {
      throw new Rejection([reason(1014, 'Payment partial capture is not supported: a card payment with splits is captured whole')], view);
    }
    const cause = amount < p.amount ? `capture of ${amount}` : 'capture';
    const taken = decision.value.capturedAmount;
    if (taken !== null) recordCardCapture(ctx, view, taken, Status.Success);
    else if (decision.value.status === Status.Failed) recordCardCapture(ctx, view, amount, Status.Failed);
    return movePayment(ctx, view, decision.value.status, cause, { capturedAmount: decision.value.capturedAmount });
  }
}

/** `POST /v1/payments/{id}/cancel` on the card address. */
export function cancelCardPayment(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentView {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId, 'card');
    const decision = cardCancel(view.payment.statusId, view.payment.amount, ctx.settings.cancelOpen);
    if (!decision.ok) throw new Rejection([reason(decision.code as ReasonCode, decision.info)], view);
    const extra: Partial<PaymentRecord> = decision.value === Status.Cancelled ? { token: null, tokenLifetime: null } : {};
    return movePayment(ctx, view, decision.value, decision.value === Status.Cancelled ? CAUSE.cancel : 'cancel queued', extra);
  });
}

interface CardRefundInput {
  MerchantTransactionID: string;
  OriginatorTransactionID?: string | null;
  Amount: number | string;
  Description?: string | null;
  SplitID?: number | null;
  CaptureID?: number | null;
}

/**
 * `POST /v1/payments/{id}/refunds` (the payment, or the split its `SplitID` names) and
 * `POST /v1/payments/{id}/splits/{splitId}/refunds` on the card address. Fidelity: the card test host
 * answers Success at once (Open, and stays so, for amount 10004).
 */
export function refundCardPayment(ctx: ServiceContext, site: SiteRecord, rawId: string, body: unknown, rawSplitId?: string): RefundRecord {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId, 'card');
    const pathSplit = rawSplitId === undefined ? undefined : findSplit(view, rawSplitId);
    const problems = validateRequest(cardRefundRequest, body, ctx.settings.strictFields === true);
    if (problems.length > 0) throw new Rejection(problems);
    const input = (body as { Refund: CardRefundInput }).Refund;
    const split = pathSplit ?? splitNamed(view, input.SplitID ?? null);
    if (pathSplit && input.SplitID != null && input.SplitID !== pathSplit.id) {
      throw new Rejection([reason(2, `Refund.SplitID is invalid: ${input.SplitID} is not the split ${pathSplit.id} the address names`)]);
    }
    const p = view.payment;
    if (!split) {
      const whole = canRefundWhole(p.hasSplits);
      if (!whole.ok) throw new Rejection([reason(11, `${whole.info}, or name one with Refund.SplitID`)]);
    }
    const capture = captureNamed(ctx, view, split, input.CaptureID ?? null);
    const taken = split ?? p;
    const left = refundLeft(ctx, p, split);
    const what = split ? `split ${split.id}` : `card payment ${p.id}`;
    if (left === 0n) {
      throw new Rejection([reason(2205, `Refund state is invalid: ${what} has nothing captured left to refund (it is ${statusInfo(taken.statusId)})`)]);
    }
    const amount = parseAmount(input.Amount)!;
    if (amount > left) {
      throw new Rejection([reason(2206, `Refund amount exceeds initial payment amount: Refund.Amount ${amount} is more than the ${left} left to refund on ${what}`)]);
    }
    const statusId = cardRefundStatus(p.amount);
    const id = ctx.store.refunds.insert({
      captureId: capture?.id ?? null,
      paymentId: p.id,
      splitId: split?.id ?? null,
      siteId: split?.siteId ?? p.siteId,
      merchantTransactionId: input.MerchantTransactionID,
      originatorTransactionId: input.OriginatorTransactionID ?? null,
      amount,
      currency: p.currency,
      description: input.Description ?? '',
      typeId: NATIVE_REFUND,
      statusId,
      createdAt: ctx.clock.now(),
    });
    const refund = ctx.store.refunds.get(id)!;
    // Made in its final state: the merchant has the answer, so (as every creation) it is not notified.
    recordRefundStatus(ctx, refund, view, statusId === Status.Success ? 'refund (succeeds at once on cards)' : 'refund (stays Open: test amount 10004)', false);
    return refund;
  });
}

/**
 * The capture a card refund names (`CaptureID`; 0 or null names none): one of this payment's
 * successful captures, and of the refunded split when a split is refunded.
 */
function captureNamed(ctx: ServiceContext, view: PaymentView, split: SplitRecord | undefined, captureId: number | null): CaptureRecord | undefined {
  if (captureId === null || captureId === 0) return undefined;
  const capture = ctx.store.captures.get(captureId);
  if (!capture || capture.paymentId !== view.payment.id || capture.statusId !== Status.Success) {
    throw new Rejection([reason(2, `Refund.CaptureID is invalid: payment ${view.payment.id} has no successful capture ${captureId}`)]);
  }
  if (split && capture.splitId !== null && capture.splitId !== split.id) {
    throw new Rejection([reason(2, `Refund.CaptureID is invalid: capture ${captureId} is of split ${capture.splitId}, not of split ${split.id}`)]);
  }
  return capture;
}

/** `GET /v1/refunds/{id}/status` on the card address (the PHP SDK's refund_status): a refund of one of the site's card payments, or 404. */
export function cardRefundStatusOf(ctx: ServiceContext, site: SiteRecord, rawRefundId: string): RefundRecord {
  const id = parseId(rawRefundId);
  const refund = id === null ? undefined : ctx.store.refunds.get(id);
  if (!refund || !ctx.store.payments.get(refund.paymentId, site.siteId, 'card')) throw notFound('Refund');
  return refund;
}

function splitNamed(view: PaymentView, splitId: number | null): SplitRecord | undefined {
  if (splitId === null) return undefined;
  const split = view.splits.find((s) => s.id === splitId);
  if (!split) throw new Rejection([reason(2, `Refund.SplitID is invalid: payment ${view.payment.id} has no split ${splitId}`)]);
  return split;
}
