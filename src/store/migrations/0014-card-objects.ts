// The card address's other objects: captures of card payments (whole, part, or one split), the
// refund's capture, disputes (chargebacks) on payments, card payouts and card authentications
// (credit card tokens). Payouts and card authentications belong to a site, not to a payment.
export const sql = `
CREATE TABLE captures (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id                INTEGER NOT NULL REFERENCES payments(id),
  split_id                  INTEGER REFERENCES splits(id),
  site_id                   INTEGER NOT NULL,
  merchant_transaction_id   TEXT NOT NULL,
  originator_transaction_id TEXT,
  amount                    INTEGER NOT NULL,
  currency                  TEXT NOT NULL,
  status_id                 INTEGER NOT NULL,
  created_at                INTEGER NOT NULL
) STRICT;
CREATE INDEX captures_by_payment ON captures (payment_id, id);
CREATE INDEX captures_by_split ON captures (split_id, id) WHERE split_id IS NOT NULL;

ALTER TABLE refunds ADD COLUMN capture_id INTEGER REFERENCES captures(id);
CREATE INDEX refunds_by_capture ON refunds (capture_id) WHERE capture_id IS NOT NULL;

CREATE TABLE disputes (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id INTEGER NOT NULL REFERENCES payments(id),
  site_id    INTEGER NOT NULL,
  amount     INTEGER NOT NULL,
  currency   TEXT NOT NULL,
  status_id  INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX disputes_by_payment ON disputes (payment_id, id);

ALTER TABLE status_history ADD COLUMN dispute_id INTEGER REFERENCES disputes(id);
CREATE INDEX status_history_by_dispute ON status_history (dispute_id) WHERE dispute_id IS NOT NULL;

CREATE TABLE payouts (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id                   INTEGER NOT NULL REFERENCES sites(site_id),
  merchant_transaction_id   TEXT NOT NULL,
  originator_transaction_id TEXT,
  amount                    INTEGER NOT NULL,
  currency                  TEXT NOT NULL,
  description               TEXT,
  statement_descriptor      TEXT,
  customer                  TEXT,
  billing_address           TEXT,
  card                      TEXT,
  status_id                 INTEGER NOT NULL,
  reasons                   TEXT NOT NULL,
  created_at                INTEGER NOT NULL,
  UNIQUE (site_id, merchant_transaction_id)
) STRICT;
CREATE INDEX payouts_by_created ON payouts (site_id, created_at);

CREATE TABLE card_authentications (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id         INTEGER NOT NULL REFERENCES sites(site_id),
  token           TEXT NOT NULL UNIQUE,
  customer        TEXT,
  billing_address TEXT,
  card            TEXT NOT NULL,
  active          INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  cancelled_at    INTEGER
) STRICT;
CREATE INDEX card_authentications_by_created ON card_authentications (site_id, created_at);
`;
