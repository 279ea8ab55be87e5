// What a scenario is, and the pure rules of when its steps are due. No I/O here.

import { MERCHANT_ACTIONS, PROVIDER_ACTIONS, TRIGGERS } from '../schemas/scenario';

// The words of the file format live with its schema (a floor below); the rules read them from here.
export { MERCHANT_ACTIONS, PROVIDER_ACTIONS, TRIGGERS };
export type StepAction = (typeof PROVIDER_ACTIONS)[number] | (typeof MERCHANT_ACTIONS)[number];
export type TriggerName = (typeof TRIGGERS)[number];

/** An amount in a step: minor units, or a percentage of the split ("50%"). */
export type StepAmount = number | string;

export interface Step {
  after: number;
  on: TriggerName;
  do: StepAction;
  /** Index of the split a capture-split or refund step works on. */
  split?: number;
  amount?: StepAmount;
  /** capture-splits: the splits (by index) and amounts. */
  splits?: { split: number; amount: StepAmount }[];
  /** add-splits: the new splits, as the API takes them. */
  newSplits?: Record<string, unknown>[];
  /** refund-succeed / refund-fail: the payment's refund by index (0 = the first made). */
  refund?: number;
  /** refund: the refund's Description and MerchantTransactionID (a story keeps them). */
  description?: string;
  merchantTransactionId?: string;
}

export interface Scenario {
  name: string;
  description: string;
  /** Whether a full capture first reports CaptureRequested (13), whatever the method. */
  captureRequested: boolean;
  steps: Step[];
  /** What happens to each refund, and when. */
  refunds: { after: number; outcome: 'succeed' | 'fail' | 'none' };
  source: string;
}

export type Trigger =
  | { kind: 'created' }
  | { kind: 'step'; index: number }
  | { kind: 'action'; action: Exclude<TriggerName, 'created' | 'previous'> };

/** The steps that a trigger starts, each with its delay. */
export function stepsStartedBy(s: Scenario, t: Trigger): { index: number; step: Step }[] {
  const out: { index: number; step: Step }[] = [];
  s.steps.forEach((step, index) => {
    const hit =
      t.kind === 'created'
        ? step.on === 'created'
        : t.kind === 'step'
          ? step.on === 'previous' && index === t.index + 1
          : step.on === t.action;
    if (hit) out.push({ index, step });
  });
  return out;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "2s", "500ms", "1.5s", "10m", "1h" → milliseconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!m) return null;
  return Math.round(Number(m[1]) * UNITS[m[2]!]!);
}

/** A step amount applied to a split: percentages round down to whole minor units. */
export function resolveAmount(amount: StepAmount | undefined, of: bigint): bigint {
  if (amount === undefined) return of;
  if (typeof amount === 'string' && amount.endsWith('%')) {
    const pct = BigInt(Math.round(Number(amount.slice(0, -1)) * 100));
    return (of * pct) / 10000n;
  }
  return BigInt(amount);
}

/**
 * A few exact amounts (minor units) pick a scenario, so a client can steer a payment without any
 * sandbox-only header. Fidelity: only 10001 means what it means on the real card test host (the
 * payment fails); the others are the sandbox's own, since the card host's 10002, 10003, 10005 and
 * 10006 mean other things there (card.machine.ts holds those).
 */
export const MAGIC_AMOUNTS: ReadonlyMap<bigint, string> = new Map([
  [10001n, 'failed'],
  [10002n, 'expired'],
  [10003n, 'two-step-capture-requested'],
  [10005n, 'cancelled-by-payer'],
  [10006n, 'partial-capture'],
]);
