// The status catalogue shared by payments, splits and refunds.

export const Status = {
  Open: 1,
  Success: 2,
  Cancelled: 3,
  Failed: 4,
  Expired: 5,
  Authorized: 9,
  Captured: 11,
  CaptureRequested: 13,
  PendingChallengeConfirmation: 30,
  QueuedForCapturing: 33,
  QueuedForCanceling: 34,
  PartiallyCaptured: 35,
  /** A dispute's outcomes (a dispute opens Open, 1). */
  DisputeWon: 23,
  DisputeLost: 24,
} as const;

export type StatusId = (typeof Status)[keyof typeof Status];

const INFO: Record<number, string> = {
  1: 'Open',
  2: 'Success',
  3: 'Cancelled',
  4: 'Failed',
  5: 'Expired',
  9: 'Authorized',
  11: 'Captured',
  13: 'CaptureRequested',
  30: 'PendingChallengeConfirmation',
  33: 'QueuedForCapturing',
  34: 'QueuedForCanceling',
  35: 'PartiallyCaptured',
  // A dispute's outcomes (a dispute opens Open, 1).
  23: 'DisputeWon',
  24: 'DisputeLost',
};

/** PascalCase Info of a status ID, as the real service writes it. */
export function statusInfo(id: number): string {
  const info = INFO[id];
  if (info === undefined) throw new Error(`unknown status ${id}`);
  return info;
}

export function isKnownStatus(id: number): boolean {
  return INFO[id] !== undefined;
}

/** States after which the payer and provider have nothing more to do. */
export const FINAL_STATUSES: ReadonlySet<number> = new Set([
  Status.Success,
  Status.Cancelled,
  Status.Failed,
  Status.Expired,
  Status.PartiallyCaptured,
  Status.Captured,
]);

/**
 * Every status ID of the real service's catalogue, the sandbox's own and those it never uses
 * (PendingOnProvider, Refunded, Chargedback …): a list filter may name any of them.
 */
export const CATALOGUE_STATUS_IDS: ReadonlySet<number> = new Set([
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 30, 33, 34, 35, 36, 37, 38, 39,
]);
