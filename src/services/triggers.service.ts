// Scheduling scenario steps: which scenario a payment follows, and what its creation, a finished step
// or a merchant action starts. Runs inside the transaction of the change that triggers it.
import type { Flow } from '../domain/flows';
import { Rejection } from '../errors/errors';
import { reason } from '../errors/reasons';
import { MAGIC_AMOUNTS, type Scenario, type Trigger, stepsStartedBy } from '../scenarios/scenario';
import type { PaymentRecord, SiteRecord } from '../store/records';
import type { ServiceContext } from './context';

const FLOW_SCENARIOS: Record<Flow, string | null> = {
  'one-step': 'one-step',
  'two-step': 'two-step',
  'two-step-capture-requested': 'two-step-capture-requested',
  // Authorized as it is created: the two-step scenario's later authorize finds it done and is skipped.
  'two-step-authorized-at-create': 'two-step',
  card: null,
};

/** Whether a new payment is authorized as it is created: its method's flow says so and it follows that flow's own scenario. */
export function authorizedAtCreate(flow: Flow | null, scenario: string | null): boolean {
  return flow === 'two-step-authorized-at-create' && scenario === FLOW_SCENARIOS[flow];
}

/**
 * The scenario of a new payment, in this order: the X-Sandbox-Scenario header, a magic amount,
 * the merchant's default, the sandbox's default (`start --scenario`), the method's own flow.
 */
export function chooseScenario(
  ctx: ServiceContext,
  site: SiteRecord,
  header: string | null | undefined,
  amount: bigint,
  flow: Flow | null,
): string | null {
  const cat = ctx.scenarios;
  if (!cat) return null;
  if (header !== null && header !== undefined) {
    if (!cat.has(header)) {
      const known = cat.list().map((s) => s.name).join(', ');
      throw new Rejection([reason(2, `X-Sandbox-Scenario is invalid: no scenario "${header}" (known: ${known})`)]);
    }
    return header;
  }
  const magic = MAGIC_AMOUNTS.get(amount);
  if (magic && cat.has(magic)) return magic;
  if (site.defaultScenario && cat.has(site.defaultScenario)) return site.defaultScenario;
  if (ctx.settings.defaultScenario && cat.has(ctx.settings.defaultScenario)) return ctx.settings.defaultScenario;
  const byFlow = FLOW_SCENARIOS[flow ?? 'one-step'];
  return byFlow && cat.has(byFlow) ? byFlow : null;
}

export function scenarioOf(ctx: ServiceContext, p: PaymentRecord): Scenario | undefined {
  return p.scenario === null ? undefined : ctx.scenarios?.get(p.scenario);
}

/** Schedules the steps that `trigger` starts for payment `p`. */
export function trigger(ctx: ServiceContext, p: PaymentRecord, t: Trigger): void {
  const s = scenarioOf(ctx, p);
  if (!s) return;
  const now = ctx.clock.now();
  const started = stepsStartedBy(s, t);
  for (const { index, step } of started) ctx.store.jobs.schedule(p.id, null, index, step.do, now + step.after, p.ownerSiteId);
  if (started.length > 0) ctx.wake?.();
}

/** A new refund follows its payment's scenario's refund policy (Success after 1 s unless it says otherwise). */
export function refundCreated(ctx: ServiceContext, p: PaymentRecord, refundId: number): void {
  const s = scenarioOf(ctx, p);
  if (!s || s.refunds.outcome === 'none') return;
  ctx.store.jobs.schedule(p.id, refundId, -1, `refund-${s.refunds.outcome}`, ctx.clock.now() + s.refunds.after, p.ownerSiteId);
  ctx.wake?.();
}
