// A payer who opened the payment page decides, as on the real service: while the page is open, the
// scenario's provider and payer steps of that payment (authorize, succeed, fail, expire, cancel) wait.
// They wait until the payer presses a button (then they are superseded) or the link's lifetime ends
// (then the payment expires, as an abandoned one does). Merchant actions are not held.
import { Status } from '../domain/statuses';
import type { JobRecord } from '../store/jobs.repo';
import type { PaymentRecord } from '../store/records';
import type { ServiceContext } from './context';
import { trigger } from './triggers.service';

/** The steps that speak for the payer or the provider while a payment is Open. */
const HELD_ACTIONS = ['authorize', 'succeed', 'fail', 'expire', 'cancel'] as const;

/** How long an open page holds the steps of a payment whose link has no TokenLifetime. */
export const HOLD_WITHOUT_LIFETIME_MS = 15 * 60_000;

/** When a payment's link stops working, if it has a lifetime. */
export const tokenEnd = (p: PaymentRecord): number | null => (p.tokenLifetime === null ? null : p.createdAt + p.tokenLifetime * 60_000);

/** The payer opened the page of an Open payment: its provider steps wait for the payer. */
export function holdForPayer(ctx: ServiceContext, p: PaymentRecord): void {
  if (p.statusId !== Status.Open || p.scenario === null) return;
  const until = tokenEnd(p) ?? ctx.clock.now() + HOLD_WITHOUT_LIFETIME_MS;
  ctx.store.tx(() => ctx.store.jobs.hold(p.id, HELD_ACTIONS, until));
}

/**
 * The payer pressed a button: the held steps are superseded (skipped, saying so), and the scenario
 * goes on after them as after any step that ran, so that a capture planned after the authorization
 * still comes. Run inside the transaction of the payer's event.
 */
export function releaseToPayer(ctx: ServiceContext, paymentId: number, action: string): void {
  const held = ctx.store.jobs.heldOf(paymentId);
  for (const job of held) {
    ctx.store.jobs.finish(job.id, 'skipped', `superseded: the payer chose ${action} on the payment page`, ctx.clock.now());
  }
  const payment = ctx.store.payments.getAny(paymentId);
  if (!payment) return;
  for (const job of held) if (job.stepIndex >= 0) trigger(ctx, payment, { kind: 'step', index: job.stepIndex });
}

/**
 * A held step come due: when the hold ended with the link's lifetime and the payer did nothing, the
 * step does not run; the payment expires instead (the expiry right after), as an abandoned one does.
 * Returns why it does not run, or null when it runs as planned.
 */
export function abandonedOnThePage(ctx: ServiceContext, job: JobRecord, p: PaymentRecord): string | null {
  if (job.plannedDueAt === null || p.statusId !== Status.Open) return null;
  const end = tokenEnd(p);
  return end !== null && ctx.clock.now() >= end ? 'held for the payer, who left the payment page until its link expired' : null;
}

/** How a step's state shows: a pending step that an open page moved is held. */
export function heldNote(job: JobRecord): string | null {
  return job.state === 'pending' && job.plannedDueAt !== null ? 'held: the payer has the payment page open' : null;
}
