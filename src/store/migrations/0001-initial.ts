// The first schema: sites, methods, payments with their splits and refunds, and the status history.
import { SEQUENCE_STARTS } from '../sequences';

export const sql = `
CREATE TABLE sites (
  site_id             INTEGER PRIMARY KEY,
  api_key             TEXT,
  name                TEXT NOT NULL,
  marketplace_site_id INTEGER REFERENCES sites(site_id),
  notification_url    TEXT,
  default_scenario    TEXT
) STRICT;

CREATE TABLE methods (
  method_id        INTEGER PRIMARY KEY,
  name             TEXT NOT NULL,
  flow             TEXT NOT NULL,
  details_template TEXT
) STRICT;

CREATE TABLE counters (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;

CREATE TABLE payments (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  surface                   TEXT NOT NULL CHECK (surface IN ('api', 'card')),
  owner_site_id             INTEGER NOT NULL REFERENCES sites(site_id),
  site_id                   INTEGER NOT NULL,
  merchant_transaction_id   TEXT NOT NULL,
  originator_transaction_id TEXT,
  amount                    INTEGER NOT NULL,
  currency                  TEXT NOT NULL,
  captured_amount           INTEGER,
  return_url                TEXT,
  description               TEXT,
  statement_descriptor      TEXT,
  method_id                 INTEGER,
  method_option_id          INTEGER,
  skin_id                   INTEGER,
  client_ip                 TEXT,
  token_lifetime            INTEGER,
  token                     TEXT,
  status_id                 INTEGER NOT NULL,
  created_at                INTEGER NOT NULL,
  notification_at           INTEGER,
  country                   TEXT,
  customer                  TEXT,
  billing_address           TEXT,
  shipping_address          TEXT,
  details                   TEXT,
  card                      TEXT,
  capture                   INTEGER,
  retry                     INTEGER,
  has_splits                INTEGER NOT NULL DEFAULT 0,
  scenario                  TEXT,
  UNIQUE (owner_site_id, surface, merchant_transaction_id)
) STRICT;
CREATE INDEX payments_by_owner ON payments (owner_site_id, surface, id);
CREATE INDEX payments_by_status ON payments (owner_site_id, surface, status_id, id);
CREATE INDEX payments_by_method ON payments (owner_site_id, surface, method_id, id);
CREATE INDEX payments_by_created ON payments (owner_site_id, surface, created_at);
CREATE INDEX payments_by_amount ON payments (owner_site_id, surface, amount);
CREATE UNIQUE INDEX payments_by_token ON payments (token) WHERE token IS NOT NULL;

CREATE TABLE splits (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id                INTEGER NOT NULL REFERENCES payments(id),
  site_id                   INTEGER NOT NULL REFERENCES sites(site_id),
  merchant_transaction_id   TEXT NOT NULL,
  originator_transaction_id TEXT,
  amount                    INTEGER NOT NULL,
  captured_amount           INTEGER,
  status_id                 INTEGER NOT NULL,
  created_at                INTEGER NOT NULL
) STRICT;
CREATE INDEX splits_by_payment ON splits (payment_id, id);

CREATE TABLE refunds (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id                INTEGER NOT NULL REFERENCES payments(id),
  split_id                  INTEGER NOT NULL REFERENCES splits(id),
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
CREATE INDEX refunds_by_payment ON refunds (payment_id, id);
CREATE INDEX refunds_by_split ON refunds (split_id, id);

CREATE TABLE status_history (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id INTEGER NOT NULL REFERENCES payments(id),
  refund_id  INTEGER REFERENCES refunds(id),
  status_id  INTEGER NOT NULL,
  at         INTEGER NOT NULL,
  cause      TEXT NOT NULL
) STRICT;
CREATE INDEX status_history_by_payment ON status_history (payment_id, id);

${SEQUENCE_STARTS}`;
