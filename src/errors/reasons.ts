// The reason catalogue of the real service (codes and their Info), as returned in Status.Reasons.

export const REASONS = {
  1: 'Missing parameter',
  2: 'Validation failed',
  5: 'Method is invalid',
  9: 'Method is unavailable',
  11: 'Action is invalid',
  12: 'Preapproval is invalid',
  13: 'Preapproved payment is invalid',
  17: 'Payment is invalid',
  18: 'Refund is invalid',
  20: 'MerchantTransactionID is duplicated',
  100: 'Currency is invalid',
  102: 'Customer email is invalid',
  106: 'Invalid offset',
  107: 'Invalid limit',
  118: 'Amount invalid',
  120: 'Country code is invalid',
  122: 'Unable to cancel transaction',
  // The card host's own return codes, for its capture, cancel and refund.
  105: 'Action is invalid',
  1006: 'Payment.State is invalid',
  1012: 'Payment.AmountToCapture format is invalid',
  1013: 'Payment.AmountToCapture exceeds initial payment authorized amount',
  1014: 'Payment partial capture is not supported',
  2205: 'Refund state is invalid',
  2206: 'Refund amount exceeds initial payment amount',
  // Card payouts and card authentications.
  // 13 is also the card host's 'Generic error' (its payouts give their own Info); the API's 13 above names the key.
  1201: 'Invalid card details number',
  1205: 'Invalid card details: card expired',
  2400: 'Invalid credit card token',
  2401: 'Credit card token not available',
  4996: 'Payment is partially captured',
  4997: 'Payment is captured',
} as const;

export type ReasonCode = keyof typeof REASONS;

/** One entry of Status.Reasons. `Info` names the exact field or says why, in the real service's style. */
export interface Reason {
  Code: number;
  Info: string;
}

export function reason(code: ReasonCode, info?: string): Reason {
  return { Code: code, Info: info ?? REASONS[code] };
}
