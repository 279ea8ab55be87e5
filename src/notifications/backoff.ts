// When a failed notification is tried again: doubling delays, capped, for a bounded number of attempts.

export interface RetryPolicy {
  /** Delay after the first failed attempt, in ms. */
  baseMs: number;
  /** The longest delay between two attempts, in ms. */
  capMs: number;
  /** Attempts in all, the first included; after the last failure the notification is given up. */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1000, capMs: 60_000, maxAttempts: 10 };

/** The delay after `failures` failed attempts (1 → base, 2 → 2×base, … capped). */
export function retryDelay(policy: RetryPolicy, failures: number): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
}
