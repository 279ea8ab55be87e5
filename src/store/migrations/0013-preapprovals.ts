// Preapprovals (the recurring-payments API): their table, the link of a recurring payment to its
// preapproval, and the status history, scenario steps and notifications of an object that is not a
// payment. Those three tables said "a payment's" with a NOT NULL payment_id; they now name their
// object by kind: a payment's rows carry payment_id, a preapproval's preapproval_id (exactly one of the two).
import type { Db } from '../db';

export const sql = `
CREATE TABLE preapprovals (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_site_id             INTEGER NOT NULL REFERENCES sites(site_id),
  merchant_preapproval_id   TEXT NOT NULL,
  method_id                 INTEGER NOT NULL,
  method_option_id          INTEGER,
  recurring_period          INTEGER,
  preapproved_maximum_amount INTEGER,
  currency                  TEXT,
  return_url                TEXT,
  description               TEXT,
  customer                  TEXT,
  billing_address           TEXT,
  token                     TEXT,
  status_id                 INTEGER NOT NULL,
  created_at                INTEGER NOT NULL,
  scenario                  TEXT,
  UNIQUE (owner_site_id, merchant_preapproval_id)
) STRICT;
CREATE INDEX preapprovals_by_owner ON preapprovals (owner_site_id, id);
INSERT INTO sqlite_sequence (name, seq) VALUES ('preapprovals', 4200);

-- A recurring payment's preapproval (no reference: retention deletes payments and preapprovals apart).
ALTER TABLE payments ADD COLUMN preapproval_id INTEGER;
CREATE INDEX payments_by_preapproval ON payments (preapproval_id, id) WHERE preapproval_id IS NOT NULL;
`;

/** The tables whose rows belong to a payment or, now, to a preapproval. */
const KEYED = ['status_history', 'scenario_jobs', 'notifications'] as const;
const PAYMENT_ID = /payment_id(\s+)INTEGER NOT NULL REFERENCES payments\(id\)/;

/**
 * Each table is rebuilt from the definition the database holds (SQLite changes a NOT NULL only that
 * way), so that columns other migrations added come along; then it gets its preapproval_id.
 */
export function up(db: Db): void {
  for (const name of KEYED) {
    const table = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(name) as string;
    if (!PAYMENT_ID.test(table)) throw new Error(`${name}: its payment_id column is not the one this migration knows`);
    const indexes = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).pluck().all(name) as string[];
    const seq = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = ?`).pluck().get(name) as number | undefined;
    const rebuilt = table
      .replace(new RegExp(`^CREATE TABLE "?${name}"?`), `CREATE TABLE ${name}_new`)
      .replace(PAYMENT_ID, 'payment_id$1INTEGER REFERENCES payments(id)');
    db.exec(rebuilt);
    db.exec(`INSERT INTO ${name}_new SELECT * FROM ${name}; DROP TABLE ${name}; ALTER TABLE ${name}_new RENAME TO ${name};`);
    for (const index of indexes) db.exec(index);
    if (seq !== undefined) db.prepare(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?`).run(seq, name);
    db.exec(`ALTER TABLE ${name} ADD COLUMN preapproval_id INTEGER REFERENCES preapprovals(id)`);
    db.exec(`CREATE INDEX ${name}_by_preapproval ON ${name} (preapproval_id, id) WHERE preapproval_id IS NOT NULL`);
  }
  // The heads index names each head's queue (a payment, or a preapproval) so that finding the next
  // one to send still reads the index alone.
  db.exec(`DROP INDEX notifications_due;
    CREATE INDEX notifications_due ON notifications (clock_site_id, next_attempt_at, id, payment_id, preapproval_id) WHERE state = 'pending' AND behind = 0;`);
}
