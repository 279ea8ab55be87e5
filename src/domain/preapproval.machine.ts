// The preapproval state machine (the recurring-payments API): its statuses, which event leads where,
// and the timelines its scenarios follow. Pure, like payment.machine.ts: decisions, never throws.
import type { Decision } from './payment.machine';

/** Preapproval statuses, as both official SDKs number them (SDK-NET PreapprovalStatusDefinition.cs). */
export const PreapprovalStatus = { Pending: 1, Open: 2, Closed: 3, ClosedByCustomer: 4 } as const;

const INFO: Record<number, string> = { 1: 'Pending', 2: 'Open', 3: 'Closed', 4: 'ClosedByCustomer' };

export function preapprovalStatusInfo(id: number): string {
  const info = INFO[id];
  if (info === undefined) throw new Error(`unknown preapproval status ${id}`);
  return info;
}

/**
 * Provider and payer events: `open` (the payer approved the debits), `decline` (the payer refused, or
 * the provider did: Closed), `close` (the merchant's DELETE, or the payer revoking it: ClosedByCustomer).
 */
export const PREAPPROVAL_EVENTS = ['open', 'decline', 'close'] as const;
export type PreapprovalEvent = (typeof PREAPPROVAL_EVENTS)[number];

const ok = <T>(value: T): Decision<T> => ({ ok: true, value });
const no = (code: number, info: string): Decision<never> => ({ ok: false, code, info });

/** Where an event leads from `status`; reason 12 "Preapproval is invalid" when it cannot happen there. */
export function applyPreapprovalEvent(event: PreapprovalEvent, status: number): Decision<number> {
  const now = preapprovalStatusInfo(status);
  switch (event) {
    case 'open':
      if (status !== PreapprovalStatus.Pending) return no(12, `Preapproval is invalid: only a Pending preapproval can open (it is ${now})`);
      return ok(PreapprovalStatus.Open);
    case 'decline':
      if (status !== PreapprovalStatus.Pending) return no(12, `Preapproval is invalid: only a Pending preapproval can be declined (it is ${now})`);
      return ok(PreapprovalStatus.Closed);
    case 'close':
      if (status !== PreapprovalStatus.Pending && status !== PreapprovalStatus.Open) {
        return no(12, `Preapproval is invalid: it is closed already (${now})`);
      }
      return ok(PreapprovalStatus.ClosedByCustomer);
  }
}

/** A recurring payment needs an Open preapproval; its amount at most the preapproved maximum, when one was set. */
export function canChargeRecurring(status: number, maximum: bigint | null, amount: bigint): Decision<true> {
  if (status !== PreapprovalStatus.Open) {
    return no(12, `Preapproval is invalid: only an Open preapproval can be charged (it is ${preapprovalStatusInfo(status)})`);
  }
  if (maximum !== null && maximum > 0n && amount > maximum) {
    return no(13, `Preapproved payment is invalid: Payment.Amount ${amount} is above the preapproved maximum ${maximum}`);
  }
  return ok(true);
}

/** A step of a preapproval scenario: an event, so many milliseconds after the preapproval was created. */
export interface PreapprovalStep {
  afterMs: number;
  event: PreapprovalEvent;
}

/**
 * The scenarios a preapproval follows (the `X-Sandbox-Scenario` header of its create request picks
 * one; `preapproval-opens` otherwise). The sandbox's own: the real service opens a preapproval when
 * the payer approves it at the provider, at no documented time.
 */
export const PREAPPROVAL_SCENARIOS: Readonly<Record<string, readonly PreapprovalStep[]>> = {
  'preapproval-opens': [{ afterMs: 2000, event: 'open' }],
  'preapproval-declined': [{ afterMs: 2000, event: 'decline' }],
  'preapproval-payer-decides': [],
};

export const DEFAULT_PREAPPROVAL_SCENARIO = 'preapproval-opens';
