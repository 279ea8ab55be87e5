// The refund types of the real service (docs-apm.nuvei.com "Refund types"), and which a payment of a
// method may use: the documented table for the methods it lists, Native for the others.

export interface RefundType {
  ID: number;
  Name: string;
}

/** Type IDs and the names the API answers with (PascalCase, as the documented "SEPABankTransfer"). */
export const REFUND_TYPES: readonly RefundType[] = [
  { ID: 1, Name: 'Native' },
  { ID: 2, Name: 'SEPABankTransfer' },
  { ID: 3, Name: 'SWIFTBankTransfer' },
  { ID: 4, Name: 'ManualSupportWorkNoInfo' },
  { ID: 5, Name: 'SEPABankTransferNoInfo' },
  { ID: 6, Name: 'SWIFTBankTransferNoInfo' },
  { ID: 7, Name: 'LocalBankTransfer' },
  { ID: 8, Name: 'LocalBankTransferNoInfo' },
  { ID: 9, Name: 'ManualSupportWorkDetailsNeeded' },
  { ID: 10, Name: 'LocalBankTransfer2API' },
];

/** "Refund type/types per method" of the documentation, for the methods it lists (partial refunds unless noted). */
const BY_METHOD: Readonly<Record<number, { types: number[]; partial: boolean }>> = {
  1: { types: [2, 3, 7], partial: true },
  2: { types: [5], partial: true },
  3: { types: [2], partial: true },
  4: { types: [5], partial: true },
  5: { types: [5], partial: true },
  9: { types: [5, 6, 8], partial: true },
  12: { types: [1], partial: true },
  13: { types: [4], partial: false },
  18: { types: [3], partial: true },
  19: { types: [3, 7], partial: false },
  20: { types: [2], partial: true },
  22: { types: [4], partial: true },
  23: { types: [4], partial: true },
  24: { types: [1, 3], partial: true },
};

/** The refund types of a payment of `methodId`: none while no method was chosen. */
export function refundTypesOf(methodId: number | null): { type: RefundType; partial: boolean }[] {
  if (methodId === null) return [];
  const entry = BY_METHOD[methodId] ?? { types: [1], partial: true };
  return entry.types.map((id) => ({ type: REFUND_TYPES.find((t) => t.ID === id)!, partial: entry.partial }));
}
