// Lifecycle: scenario steps waiting for their time, and the notification outbox with its attempts.
export const sql = `
CREATE TABLE scenario_jobs (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id  INTEGER NOT NULL REFERENCES payments(id),
  refund_id   INTEGER REFERENCES refunds(id),
  step_index  INTEGER NOT NULL,
  action      TEXT NOT NULL,
  due_at      INTEGER NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('pending', 'done', 'skipped')),
  outcome     TEXT,
  ran_at      INTEGER
) STRICT;
CREATE INDEX scenario_jobs_due ON scenario_jobs (due_at, id) WHERE state = 'pending';
CREATE INDEX scenario_jobs_by_payment ON scenario_jobs (payment_id, id);

CREATE TABLE notifications (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id      INTEGER NOT NULL REFERENCES payments(id),
  refund_id       INTEGER REFERENCES refunds(id),
  site_id         INTEGER NOT NULL REFERENCES sites(site_id),
  status_id       INTEGER NOT NULL,
  body            TEXT NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'no-url')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  delivered_at    INTEGER
) STRICT;
CREATE INDEX notifications_due ON notifications (next_attempt_at, id) WHERE state = 'pending';
CREATE INDEX notifications_by_payment ON notifications (payment_id, id);

CREATE TABLE notification_attempts (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  notification_id INTEGER NOT NULL REFERENCES notifications(id),
  at              INTEGER NOT NULL,
  url             TEXT NOT NULL,
  http_status     INTEGER,
  error           TEXT,
  duration_ms     INTEGER NOT NULL
) STRICT;
-- Open payments with a token lifetime, for the expiry sweep.
CREATE INDEX payments_open_expiring ON payments (created_at) WHERE status_id = 1 AND token_lifetime IS NOT NULL;

CREATE INDEX notification_attempts_by_notification ON notification_attempts (notification_id, id);
`;
