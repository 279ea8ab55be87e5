// Whole-payment refunds, the method catalogue's details and each site's assigned methods.
// A refund of a payment without splits has no split, so refunds.split_id becomes nullable: SQLite
// changes a column's constraints only by rebuilding its table (with foreign keys off while the old
// one is dropped; the migration runner checks the new table's references before it commits). The
// refunds' AUTOINCREMENT sequence moves to the new table, so IDs go on where they stood.
export const rebuilds = ['refunds'] as const;

export const sql = `
CREATE TABLE refunds_v5 (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id                INTEGER NOT NULL REFERENCES payments(id),
  split_id                  INTEGER REFERENCES splits(id),
  site_id                   INTEGER NOT NULL,
  merchant_transaction_id   TEXT NOT NULL,
  originator_transaction_id TEXT,
  amount                    INTEGER NOT NULL,
  currency                  TEXT NOT NULL,
  description               TEXT NOT NULL,
  type_id                   INTEGER NOT NULL,
  status_id                 INTEGER NOT NULL,
  created_at                INTEGER NOT NULL
) STRICT;
INSERT INTO refunds_v5 (id, payment_id, split_id, site_id, merchant_transaction_id, originator_transaction_id, amount, currency, description, type_id, status_id, created_at)
  SELECT id, payment_id, split_id, site_id, merchant_transaction_id, originator_transaction_id, amount, currency, description, type_id, status_id, created_at FROM refunds;
DELETE FROM sqlite_sequence WHERE name = 'refunds_v5';
UPDATE sqlite_sequence SET name = 'refunds_v5' WHERE name = 'refunds';
DROP TABLE refunds;
ALTER TABLE refunds_v5 RENAME TO refunds;
CREATE INDEX refunds_by_payment ON refunds (payment_id, id);
CREATE INDEX refunds_by_split ON refunds (split_id, id);

-- The catalogue's details of a method as the methods API shows them (JSON): DisplayName aside, its
-- Description, countries, currencies, logo, validators and options.
ALTER TABLE methods ADD COLUMN info TEXT;
-- The methods assigned to a site (a JSON array of method IDs); NULL assigns every method.
ALTER TABLE sites ADD COLUMN methods TEXT;
`;
