// Cross rates from the fixture table of exchange rates (fixtures/exchange-rates.json): exact decimal
// arithmetic on scaled integers, never floats.

/** Decimals a table entry may have, and the decimals of an answered rate. */
const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);

/** A table entry ("1.0856") as an integer of millionths, or null when it is no positive decimal. */
export function parseRate(text: string): bigint | null {
  const m = /^([0-9]{1,12})(?:\.([0-9]{1,6}))?$/.exec(text);
  if (!m) return null;
  const n = BigInt(m[1]!) * ONE + BigInt((m[2] ?? '').padEnd(SCALE, '0'));
  return n > 0n ? n : null;
}

/**
 * Units of `to` for one unit of `from`, as a decimal string with at most 6 decimals (half up), from
 * rates that say how many units of each currency one unit of the base currency buys.
 */
export function crossRate(perBase: ReadonlyMap<string, bigint>, from: string, to: string): string | null {
  const f = perBase.get(from);
  const t = perBase.get(to);
  if (f === undefined || t === undefined) return null;
  const scaled = (t * ONE * 2n + f) / (2n * f);
  const whole = scaled / ONE;
  const frac = (scaled % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
}
