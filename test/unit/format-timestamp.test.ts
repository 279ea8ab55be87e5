// formatTimestamp keeps the text of the last second it formatted: whatever order instants come in, each
// text is the one the instant's own UTC date and time make.
import { formatTimestamp } from '../../src/domain/time';

/** yyyyMMddHHmmss from the ISO form (years 1000 to 9999, whose ISO form has four digits). */
const reference = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);

describe('formatTimestamp', () => {
  const t = Date.UTC(2026, 0, 15, 10, 0, 0);

  it('gives each instant its own second, in any order, within a second and across its edges', () => {
    const instants = [
      t,
      t,
      t + 1,
      t + 999,
      t + 1000,
      t + 999,
      t - 1,
      t - 1000,
      t + 1000,
      t + 59_999,
      t + 60_000,
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      -1,
      0,
      -1,
      Date.UTC(1000, 0, 1),
      Date.UTC(10000, 0, 1) - 1,
      t + 0.5,
      t,
    ];
    for (const ms of instants) expect([ms, formatTimestamp(ms)]).toEqual([ms, reference(ms)]);
  });

  it('agrees with the date itself over a run of instants a few hundred milliseconds apart', () => {
    for (let ms = t - 5_000; ms < t + 5_000; ms += 137) expect(formatTimestamp(ms)).toBe(reference(ms));
    for (let ms = t + 5_000; ms > t - 5_000; ms -= 251) expect(formatTimestamp(ms)).toBe(reference(ms));
  });
});
