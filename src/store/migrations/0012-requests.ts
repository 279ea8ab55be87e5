// The request journal: every request of the merchant-facing API on both addresses and the payer's
// buttons, with what it was answered. No foreign keys: an entry outlives a refused create, names
// payments of other sites in near misses, and is dropped by its own cap, by retention with its
// payment, or by a reset.
export const sql = `
CREATE TABLE requests (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  at              INTEGER NOT NULL,
  wall_at         INTEGER NOT NULL,
  address         TEXT NOT NULL CHECK (address IN ('api', 'card')),
  method          TEXT NOT NULL,
  path            TEXT NOT NULL,
  query           TEXT,
  route           TEXT,
  site_id         INTEGER,
  authenticated   INTEGER NOT NULL,
  payment_id      INTEGER,
  refund_id       INTEGER,
  split_id        INTEGER,
  status          INTEGER,
  reasons         TEXT,
  duration_ms     REAL,
  fault           TEXT,
  near_miss       TEXT,
  request_body    TEXT,
  request_bytes   INTEGER NOT NULL,
  response_body   TEXT,
  response_bytes  INTEGER NOT NULL
) STRICT;
CREATE INDEX requests_by_site ON requests (site_id, id);
CREATE INDEX requests_by_payment ON requests (payment_id, id) WHERE payment_id IS NOT NULL;
`;
