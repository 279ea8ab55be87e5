// Running a due scenario step: the provider's or payer's event, or the merchant's API action,
// through the same services the API uses. A step that no longer fits the payment is skipped, with why.
import type { PaymentEvent } from '../domain/payment.machine';
import { HttpError, Rejection } from '../errors/errors';
import type { JobRecord } from '../store/jobs.repo';
import type { PaymentRecord } from '../store/records';
import { resolveAmount } from '../scenarios/scenario';
import { cancelPayment } from './cancel.service';
import { isCardStep, runCardStep } from './card-actions.service';
import { capturePayment, captureSplit } from './capture.service';
import type { ServiceContext } from './context';
import { applyEventTo } from './events.service';
import { reload } from './lookup';
import { applyRefundEvent, refundPayment, refundSplit } from './refunds.service';
import { abandonedOnThePage } from './payer-hold.service';
import { addSplits } from './splits.service';
import { runPreapprovalStep } from './preapprovals.service';
import { scenarioOf, trigger } from './triggers.service';
import { statusInfo } from '../domain/statuses';

const PAYMENT_EVENTS: ReadonlySet<string> = new Set(['authorize', 'succeed', 'fail', 'expire', 'cancel', 'settle']);

/** Runs one job and records its outcome; the step after it is scheduled when it ran. */
export function runJob(ctx: ServiceContext, job: JobRecord): void {
  if (job.paymentId === null) return runPreapprovalJob(ctx, job);
  const paymentId = job.paymentId;
  ctx.store.tx(() => {
    let outcome: string;
    let ran = true;
    // The payment as the step left it, when the step had it at hand (no need to read it again).
    let after: PaymentRecord | undefined;
    try {
      outcome = perform(ctx, job, paymentId, (p) => (after = p));
    } catch (e) {
      if (!(e instanceof Rejection || e instanceof HttpError)) throw e;
      ran = false;
      outcome = e instanceof Rejection ? `rejected: ${e.message}` : `skipped: ${e.message}`;
    }
    ctx.store.jobs.finish(job.id, ran ? 'done' : 'skipped', outcome, ctx.clock.now());
    // The chain goes on after a rejected merchant action too: the rejection is part of the story.
    if (job.stepIndex >= 0) {
      const payment = after ?? ctx.store.payments.getAny(paymentId);
      if (payment) trigger(ctx, payment, { kind: 'step', index: job.stepIndex });
    }
  });
}

/** A preapproval's step: its scenario's event; skipped, with why, when the preapproval moved on meanwhile. */
function runPreapprovalJob(ctx: ServiceContext, job: JobRecord): void {
  ctx.store.tx(() => {
    let outcome: string;
    let state: 'done' | 'skipped' = 'done';
    try {
      outcome = runPreapprovalStep(ctx, job.preapprovalId!, job.action);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      state = 'skipped';
      outcome = `skipped: ${e.message}`;
    }
    ctx.store.jobs.finish(job.id, state, outcome, ctx.clock.now());
  });
}

function perform(ctx: ServiceContext, job: JobRecord, paymentId: number, left: (p: PaymentRecord) => void): string {
  const view = reload(ctx, paymentId);
  const p = view.payment;
  if (isCardStep(job.action)) return runCardStep(ctx, view, job);
  const abandoned = abandonedOnThePage(ctx, job, p);
  if (abandoned) throw new HttpError(400, abandoned);
  if (job.refundId !== null) {
    const r = applyRefundEvent(ctx, job.refundId, job.action === 'refund-succeed' ? 'succeed' : 'fail');
    return `refund ${r.id} ${statusInfo(r.statusId)}`;
  }
  if (PAYMENT_EVENTS.has(job.action)) {
    const after = applyEventTo(ctx, view, job.action as PaymentEvent, { cause: `scenario ${p.scenario}: ${job.action}`, scenario: true });
    left(after.payment);
    return statusInfo(after.payment.statusId);
  }
  const step = scenarioOf(ctx, p)?.steps[job.stepIndex];
  if (job.action === 'refund-succeed' || job.action === 'refund-fail') {
    // A step that names the payment's refund by index (a story's refund outcome).
    const refund = ctx.store.refunds.ofPayment(p.id)[step?.refund ?? -1];
    if (!refund) throw new HttpError(400, `payment ${p.id} has no refund ${step?.refund ?? '(none named)'}`);
    const r = applyRefundEvent(ctx, refund.id, job.action === 'refund-succeed' ? 'succeed' : 'fail');
    return `refund ${r.id} ${statusInfo(r.statusId)}`;
  }
  const owner = ctx.store.sites.get(p.ownerSiteId)!;
  const splitAt = (i: number | undefined) => {
    const s = view.splits[i ?? 0];
    if (!s) throw new HttpError(400, `payment ${p.id} has no split ${i ?? 0}`);
    return s;
  };
  const id = String(p.id);
  switch (job.action) {
    case 'capture':
      return statusInfo(capturePayment(ctx, owner, id, undefined).payment.statusId);
    case 'capture-splits': {
      const Splits = (step?.splits ?? []).map((x) => {
        const s = splitAt(x.split);
        return { ID: s.id, Amount: resolveAmount(x.amount, s.amount).toString() };
      });
      return statusInfo(capturePayment(ctx, owner, id, { Payment: { Splits } }).payment.statusId);
    }
    case 'capture-split': {
      const s = splitAt(step?.split);
      return statusInfo(captureSplit(ctx, owner, id, String(s.id), resolveAmount(step?.amount, s.amount).toString()).view.payment.statusId);
    }
    case 'merchant-cancel':
      return statusInfo(cancelPayment(ctx, owner, id).payment.statusId);
    case 'refund': {
      // A payment without splits is refunded whole; one with splits, split by split.
      const s = p.hasSplits ? splitAt(step?.split) : undefined;
      const body = {
        Refund: {
          Amount: resolveAmount(step?.amount, s?.amount ?? p.amount).toString(),
          Description: step?.description ?? `scenario ${p.scenario}`,
          ...(step?.merchantTransactionId === undefined ? {} : { MerchantTransactionID: step.merchantTransactionId }),
        },
      };
      const r = s ? refundSplit(ctx, owner, id, String(s.id), body) : refundPayment(ctx, owner, id, body);
      return `refund ${r.id} ${statusInfo(r.statusId)}`;
    }
    case 'add-splits': {
      const added = addSplits(ctx, owner, id, { Splits: step?.newSplits ?? [] });
      return `added splits ${added.splits.map((s) => s.id).join(', ')}`;
    }
    default:
      throw new HttpError(400, `unknown step ${job.action}`);
  }
}
