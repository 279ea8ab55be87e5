// What the sandbox writes in one place and reads back in another: the causes the status history
// records for the merchant's actions and for an expiry, which a payment's story reads to tell which
// step made each change, and the MerchantTransactionID it gives a refund the merchant named none for.

export const CAUSE = {
  capture: 'capture',
  capturePerSplit: 'capture per split',
  /** `?amount=` below the amount of a payment without splits. */
  capturePart: 'capture of part',
  cancel: 'cancel',
  lifetimeExpiry: 'token lifetime ran out',
  /** The provider authorized the payment while it was created (flow two-step-authorized-at-create). */
  authorizedAtCreate: 'provider authorized at create',
} as const;

const CAPTURE_OF_SPLIT = /^capture of split (\d+)$/;

/** The cause of a payment change made by capturing one split. */
export function captureOfSplit(splitId: number): string {
  return `capture of split ${splitId}`;
}

/** The split whose capture a cause names (captureOfSplit's), or null. */
export function capturedSplit(cause: string): number | null {
  const m = CAPTURE_OF_SPLIT.exec(cause);
  return m ? Number(m[1]) : null;
}

/** The MerchantTransactionID of a refund the merchant named none for: the payment's, with the refund's ID. */
export function generatedRefundMtid(paymentMtid: string, refundId: number): string {
  return `${paymentMtid}-R${refundId}`;
}
