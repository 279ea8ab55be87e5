// The wire form of time: yyyyMMddHHmmss in UTC.

/** What a timestamp must be, in the words every refusal of one uses (the API's startDate, --start-time). */
export const TIMESTAMP_EXPECTED = 'expected yyyyMMddHHmmss (14 digits, UTC)';

/** The first and last instants whose wire form has 14 digits (years 1000 to 9999), epoch ms. */
export const FIRST_WIRE_MS = Date.UTC(1000, 0, 1);
export const LAST_WIRE_MS = Date.UTC(10000, 0, 1) - 1;

/**
 * When something planned for `ms` happens: then, or at the last time when `ms` is past it (no clock
 * reaches a later time, so whatever is still to come comes at the last one).
 */
export const dueBy = (ms: number): number => Math.min(ms, LAST_WIRE_MS);

const STAMP = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;

/**
 * The last second formatted, and its text: a payment's answer and its notification stamp the payment
 * and each split with the same few seconds (ten stamps a create), and the text depends on the second alone.
 */
let lastSecond = NaN;
let lastText = '';

export function formatTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastText;
  const text = formatSecond(ms);
  lastSecond = second;
  lastText = text;
  return text;
}

function formatSecond(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    p(d.getUTCFullYear(), 4) +
    p(d.getUTCMonth() + 1) +
    p(d.getUTCDate()) +
    p(d.getUTCHours()) +
    p(d.getUTCMinutes()) +
    p(d.getUTCSeconds())
  );
}

/** Parses a 14-digit timestamp to epoch ms, or null when it is not a real date and time. */
export function parseTimestamp(text: string): number | null {
  const m = STAMP.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC reads years 0 to 99 as 1900 to 1999.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return ms;
}
