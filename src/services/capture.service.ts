// The three capture forms: full, with amounts per split, and one split.
import { canCapture, fullCaptureStatus } from '../domain/payment.machine';
import { parseAmount, sumAmounts } from '../domain/money';
import { Status } from '../domain/statuses';
import { Rejection } from '../errors/errors';
import { type Reason, reason } from '../errors/reasons';
import { captureRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { SiteRecord, SplitRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';
import { findSplit, loadPayment } from './lookup';
import { movePayment } from './transition';
import { scenarioOf, trigger } from './triggers.service';
import { CAUSE, captureOfSplit } from '../domain/causes';

interface CaptureBody {
  Payment?: { Splits?: { ID: number; Amount: number | string }[] } | null;
}

/**
 * `POST /v1/payments/{id}/capture[?amount=]`: no body (or `{}`) captures in full; a Splits body captures
 * per split. `?amount=` below the amount captures that part of a payment without splits (PartiallyCaptured);
 * a payment with splits ignores it, its parts being its splits.
 */
export function capturePayment(ctx: ServiceContext, site: SiteRecord, rawId: string, body: unknown, rawAmount?: string): PaymentView {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId);
    const schemaReasons = body === undefined ? [] : validateRequest(captureRequest, body, ctx.settings.strictFields === true);
    if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
    const perSplit = (body as CaptureBody | undefined)?.Payment?.Splits;
    const part = perSplit || view.payment.hasSplits || rawAmount === undefined ? null : partToCapture(view, rawAmount);
    const allowed = canCapture(view.payment.statusId);
    if (!allowed.ok) throw new Rejection([reason(17, allowed.info)], view);
    const after = perSplit ? captureSplits(ctx, view, perSplit) : part !== null ? capturePart(ctx, view, part) : captureFull(ctx, view);
    trigger(ctx, after.payment, { kind: 'action', action: 'capture' });
    return after;
  });
}

/** The part `?amount=` names: null when it is the whole amount (a full capture). */
function partToCapture(view: PaymentView, rawAmount: string): bigint | null {
  const amount = parseAmount(rawAmount);
  if (amount === null) {
    throw new Rejection([reason(118, 'amount is invalid: expected a whole number of minor units (1 to 12 digits), greater than 0')], view);
  }
  if (amount > view.payment.amount) {
    throw new Rejection([reason(118, `amount is invalid: ${amount} is more than the authorized ${view.payment.amount}`)], view);
  }
  return amount === view.payment.amount ? null : amount;
}

/**
 * Fidelity: SDK-NET KlarnaPartialCaptureTests capture 1960 of a Klarna Payments payment of 2940 on the
 * real test host and read PartiallyCaptured (35) with CapturedAmount 1960.
 */
function capturePart(ctx: ServiceContext, view: PaymentView, amount: bigint): PaymentView {
  return movePayment(ctx, view, Status.PartiallyCaptured, CAUSE.capturePart, { capturedAmount: amount });
}

function captureFull(ctx: ServiceContext, view: PaymentView, cause: string = CAUSE.capture): PaymentView {
  const method = view.payment.methodId === null ? undefined : ctx.store.methods.get(view.payment.methodId);
  const next = fullCaptureStatus(scenarioOf(ctx, view.payment)?.captureRequested ? 'two-step-capture-requested' : (method?.flow ?? null));
  return movePayment(ctx, view, next, cause, { capturedAmount: view.payment.amount });
}

/**
 * An API payment created with `Capture: true` is captured in full where it would be authorized, as a
 * one-step method's payment is: no Authorized, no merchant capture (the .NET SDK's meaning of it).
 */
export function captureOnAuthorize(ctx: ServiceContext, view: PaymentView, cause: string): PaymentView {
  const after = captureFull(ctx, view, `${cause}; captured at once (Capture: true)`);
  trigger(ctx, after.payment, { kind: 'action', action: 'capture' });
  return after;
}

function captureSplits(ctx: ServiceContext, view: PaymentView, wanted: { ID: number; Amount: number | string }[]): PaymentView {
  const reasons: Reason[] = [];
  const seen = new Set<number>();
  const captures: { split: SplitRecord; amount: bigint }[] = [];
  wanted.forEach((w, i) => {
    const field = `Payment.Splits[${i}]`;
    const split = view.splits.find((s) => s.id === w.ID);
    const amount = parseAmount(w.Amount)!;
    if (!split) reasons.push(reason(2, `${field}.ID is invalid: ${w.ID} is not a split of payment ${view.payment.id}`));
    else if (seen.has(w.ID)) reasons.push(reason(2, `${field}.ID is invalid: split ${w.ID} is named twice`));
    else if (amount > split.amount) {
      reasons.push(reason(118, `${field}.Amount is invalid: ${amount} is more than the authorized ${split.amount}`));
    } else captures.push({ split, amount });
    seen.add(w.ID);
  });
  if (reasons.length > 0) throw new Rejection(reasons, view);
  for (const c of captures) ctx.store.splits.setState(c.split.id, Status.PartiallyCaptured, c.amount);
  return movePayment(
    ctx,
    view,
    Status.PartiallyCaptured,
    CAUSE.capturePerSplit,
    { capturedAmount: sumAmounts(captures.map((c) => c.amount)) },
    false,
  );
}

/** `POST /v1/payments/{id}/splits/{splitId}/capture[?amount=]`: the response shows the captured split only. */
export function captureSplit(
  ctx: ServiceContext,
  site: SiteRecord,
  rawId: string,
  rawSplitId: string,
  rawAmount: string | undefined,
): { view: PaymentView; split: SplitRecord } {
  return ctx.store.tx(() => {
    const view = loadPayment(ctx, site, rawId);
    const split = findSplit(view, rawSplitId);
    // Without `amount` the whole split is captured (official clients cannot leave it out, others can).
    const amount = rawAmount === undefined ? split.amount : parseAmount(rawAmount);
    if (amount === null) {
      throw new Rejection([reason(118, 'amount is invalid: expected a whole number of minor units (1 to 12 digits), greater than 0')], view);
    }
    const allowed = canCapture(view.payment.statusId);
    if (!allowed.ok) throw new Rejection([reason(17, allowed.info)], view);
    if (amount > split.amount) {
      throw new Rejection([reason(118, `amount is invalid: ${amount} is more than the authorized ${split.amount} of split ${split.id}`)], view);
    }
    ctx.store.splits.setState(split.id, Status.PartiallyCaptured, amount);
    const after = movePayment(ctx, view, Status.PartiallyCaptured, captureOfSplit(split.id), { capturedAmount: amount }, false);
    trigger(ctx, after.payment, { kind: 'action', action: 'capture' });
    return { view: after, split: after.splits.find((s) => s.id === split.id)! };
  });
}
