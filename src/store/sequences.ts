// Where IDs start. A seeded database starts at fixed numbers near the real test host's, so seeded runs
// repeat themselves byte for byte; any other new database starts further on, at a number that grows
// with the real time, so that a sandbox started after another does not hand out its IDs again (an
// application database kept across sandboxes would hit unique-key clashes). A reset keeps the
// sequences where they are.
import type { Db } from './db';

/** Where payment IDs start in a seeded database: the first payment is 3005001. */
const PAYMENTS_START = 3005000;

/** The fixed starts: a seeded database, and the floor of every other. */
export const SEQUENCE_STARTS = `
INSERT INTO sqlite_sequence (name, seq) VALUES ('payments', ${PAYMENTS_START}), ('splits', 7000), ('refunds', 16400);
INSERT INTO counters (name, value) VALUES ('customer', 200000), ('address', 400000);
`;

/** From this moment on, the starts grow by one a second: today's IDs have 7 digits, as the real ones. */
export const ID_EPOCH_MS = Date.UTC(2026, 10, 1);

/**
 * How far past the fixed starts a new database begins at `nowMs`: one a second, so that a signed 32-bit
 * integer holds every ID until the 2090s (2^31 − 3,005,000 seconds after the epoch), IDs issued meanwhile
 * included.
 */
export function idOffsetAt(nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - ID_EPOCH_MS) / 1000));
}

/** The IDs a sandbox of this process handed out, by sequence: what the next new database must pass. */
const handedOut = new Map<string, number>();

type Sequence = { key: string; name: string; value: number; counter: boolean };

/**
 * The IDs an application sees (payments, splits, refunds, customers, addresses). The sandbox's own
 * (notifications in the journal, fault rules) start from 1 in every new database, as readable as
 * they are in a seeded one.
 */
function sequences(db: Db): Sequence[] {
  const rows = db
    .prepare(
      `SELECT name, seq AS value, 0 AS counter FROM sqlite_sequence WHERE name IN ('payments', 'splits', 'refunds')
       UNION ALL SELECT name, value, 1 FROM counters WHERE name IN ('customer', 'address')`,
    )
    .all() as { name: string; value: number; counter: number }[];
  return rows.map((r) => ({ key: `${r.counter ? 'counter' : 'table'}:${r.name}`, name: r.name, value: r.value, counter: r.counter === 1 }));
}

/**
 * Moves the sequences of a new database `offset` past where they stand, and past every ID a sandbox of
 * this process handed out before (two sandboxes started in the same second, one after the other).
 * Only ever raises them.
 */
export function startSequencesAt(db: Db, offset: number): void {
  const table = db.prepare('UPDATE sqlite_sequence SET seq = ? WHERE name = ?');
  const counter = db.prepare('UPDATE counters SET value = ? WHERE name = ?');
  for (const s of sequences(db)) {
    const start = Math.max(s.value + offset, handedOut.get(s.key) ?? 0);
    if (start > s.value) (s.counter ? counter : table).run(start, s.name);
  }
}

/** Notes the IDs handed out by a database this process is done with (a sandbox stopping). */
export function rememberSequences(db: Db): void {
  for (const s of sequences(db)) handedOut.set(s.key, Math.max(handedOut.get(s.key) ?? 0, s.value));
}

/** How many payment IDs were handed out past the fixed start (none in a new seeded database). */
export function paymentIdsHandedOut(db: Db): number {
  const seq = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'payments'`).pluck().get() as number | undefined;
  return Math.max(0, (seq ?? PAYMENTS_START) - PAYMENTS_START);
}
