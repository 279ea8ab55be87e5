// Running a due scenario step: the provider's or payer's event, or the merchant's API action,
// through the same services the API uses. A step that no longer fits the payment is skipped, with why.
import type { PaymentEvent } from '../domain/payment.machine';
import { HttpError, Rejection } from '../errors/errors';
import { GroupUndone, isStorageFailure } from '../store/failures';
import type { JobRecord } from '../store/jobs.repo';
import type { Store } from '../store/store';
import type { PaymentRecord } from '../store/records';
import { resolveAmount } from '../scenarios/scenario';
import { cancelPayment } from './cancel.service';
import { isCardStep, runCardStep } from './card-actions.service';
import { capturePayment, captureSplit } from './capture.service';
import type { ServiceContext } from './context';
import { type DecidedEvent, applyDecided, applyEventTo, decidePaymentEvent } from './events.service';
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
  if (decidedFirst(job) && !runAlone(ctx).has(job.id)) return runPaymentEvent(ctx, job, paymentId);
  ctx.store.tx(() => {
    let outcome: string;
    let ran = true;
    // The payment as the step left it, when the step had it at hand (no need to read it again).
    let after: PaymentRecord | undefined;
    try {
      outcome = perform(ctx, job, paymentId, (p) => (after = p));
    } catch (e) {
      if (!isRefusal(e)) throw e;
      ran = false;
      outcome = refusedOutcome(e);
    }
    finishStep(ctx, job, paymentId, ran, outcome, after);
  });
}

const isRefusal = (e: unknown): e is Rejection | HttpError => e instanceof Rejection || e instanceof HttpError;
const refusedOutcome = (e: Rejection | HttpError): string => (e instanceof Rejection ? `rejected: ${e.message}` : `skipped: ${e.message}`);

/** The step's outcome recorded; the chain goes on after a rejected merchant action too: the rejection is part of the story. */
function finishStep(ctx: ServiceContext, job: JobRecord, paymentId: number, ran: boolean, outcome: string, after: PaymentRecord | undefined): void {
  ctx.store.jobs.finish(job.id, ran ? 'done' : 'skipped', outcome, ctx.clock.now());
  if (job.stepIndex >= 0) {
    const payment = after ?? ctx.store.payments.getAny(paymentId);
    if (payment) trigger(ctx, payment, { kind: 'step', index: job.stepIndex });
  }
}

/** A payment event of its scenario (not a refund's, not a card step's): decided before anything is written. */
const decidedFirst = (job: JobRecord): boolean => job.refundId === null && PAYMENT_EVENTS.has(job.action) && !isCardStep(job.action);

/**
 * The steps whose change, written without a savepoint, failed and undid its commit group: each runs
 * from then on with a savepoint of its own, so that a failure that comes again is recorded against the
 * step alone (as any step's unexpected failure is) instead of undoing every group it runs in. Kept
 * until the process ends: a failure of this kind is rare, and each step fails so once at most.
 */
const RUN_ALONE = new WeakMap<Store, Set<number>>();

function runAlone(ctx: ServiceContext): Set<number> {
  let set = RUN_ALONE.get(ctx.store);
  if (!set) RUN_ALONE.set(ctx.store, (set = new Set()));
  return set;
}

/**
 * A payment event, the step of nearly every scenario: its refusals (the payer left the page, the
 * event no longer fits the payment) all come before its first write, so in a run of steps it writes
 * without a savepoint of its own (Store.txChecked), which would copy every page the step touches into
 * SQLite's undo log first. A refused step writes only its outcome, as under a savepoint.
 */
function runPaymentEvent(ctx: ServiceContext, job: JobRecord, paymentId: number): void {
  const store = ctx.store;
  try {
    store.txChecked(
      () => decideStep(ctx, job, paymentId),
      (decided) => {
        let outcome: string;
        let after: PaymentRecord | undefined;
        if (typeof decided === 'string') outcome = decided;
        else {
          try {
            after = applyDecided(ctx, decided).payment;
            outcome = statusInfo(after.statusId);
          } catch (e) {
            // Only a move that is not plain refuses here, undone in its own savepoint (applyDecided).
            if (!isRefusal(e)) throw e;
            outcome = refusedOutcome(e);
          }
        }
        finishStep(ctx, job, paymentId, after !== undefined, outcome, after);
      },
    );
  } catch (e) {
    if (!store.groupUndone) throw e;
    // The group's steps are pending again; this one runs alone next time.
    runAlone(ctx).add(job.id);
    throw isStorageFailure(e) ? e : new GroupUndone(e);
  }
}

/** Where the step's event takes its payment as it is now, or why the step does not run (its outcome). Reads only. */
function decideStep(ctx: ServiceContext, job: JobRecord, paymentId: number): DecidedEvent | string {
  try {
    const view = reload(ctx, paymentId);
    const p = view.payment;
    const abandoned = abandonedOnThePage(ctx, job, p);
    if (abandoned) throw new HttpError(400, abandoned);
    return decidePaymentEvent(ctx, view, job.action as PaymentEvent, { cause: `scenario ${p.scenario}: ${job.action}`, scenario: true });
  } catch (e) {
    if (!isRefusal(e)) throw e;
    return refusedOutcome(e);
  }
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
