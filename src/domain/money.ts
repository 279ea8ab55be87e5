// Money in minor units. Amounts are held as bigint so sums are exact whatever their size.

/** The largest amount the API accepts: 12 digits, as the real service documents (`^\d{1,12}$`). */
export const MAX_AMOUNT = 999_999_999_999n;

const DIGITS = /^\d{1,12}$/;

/**
 * Reads a request amount: a JSON integer or a string of digits, greater than 0.
 * Returns null for anything else ("10.50", -5, 1e3 written as 1000.5, "", 0).
 */
export function parseAmount(value: unknown): bigint | null {
  let amount: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) return null;
    amount = BigInt(value);
  } else if (typeof value === 'string') {
    if (!DIGITS.test(value)) return null;
    amount = BigInt(value);
  } else {
    return null;
  }
  return amount > 0n && amount <= MAX_AMOUNT ? amount : null;
}

/** The wire form of an amount: a string of digits. */
export function formatAmount(amount: bigint | number): string {
  return BigInt(amount).toString();
}

export function sumAmounts(amounts: Iterable<bigint | number>): bigint {
  let total = 0n;
  for (const a of amounts) total += BigInt(a);
  return total;
}
