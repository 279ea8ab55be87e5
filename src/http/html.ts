// What the HTML pages (payment page, dashboard) share: escaping and amounts as people read them.
import { formatAmount } from '../domain/money';

/** Every value put into a page goes through this: no markup from merchants or payers. */
export const escape = (v: unknown) =>
  String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const ZERO_DECIMALS = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'XAF', 'XOF', 'XPF', 'PYG', 'RWF', 'KMF', 'GNF', 'DJF', 'BIF', 'VUV']);

/** Minor units as people read them: 1154 EUR → "11.54 EUR"; null → "—". */
export function money(amount: bigint | null, currency: string): string {
  if (amount === null) return '—';
  const digits = formatAmount(amount);
  if (ZERO_DECIMALS.has(currency)) return `${digits} ${currency}`;
  const padded = digits.padStart(3, '0');
  return `${padded.slice(0, -2)}.${padded.slice(-2)} ${currency}`;
}
