// A marketplace as a unit of its own: its own manual clock (kept, so that a restart resumes it), whose
// clock each due step and notification runs on, the fault rules it owns, and SiteIDs that never repeat.
export const sql = `
CREATE TABLE site_clocks (
  site_id    INTEGER PRIMARY KEY REFERENCES sites(site_id),
  sandbox_ms INTEGER NOT NULL
) STRICT;
-- Whose clock a step or a notification runs on: NULL for the sandbox's, else the marketplace's. The
-- due indexes lead with it, so that a marketplace's advance reads only its own due rows and the
-- sandbox's sweep only the sandbox's.
ALTER TABLE scenario_jobs ADD COLUMN clock_site_id INTEGER;
ALTER TABLE notifications ADD COLUMN clock_site_id INTEGER;
DROP INDEX IF EXISTS scenario_jobs_due;
CREATE INDEX scenario_jobs_due ON scenario_jobs (clock_site_id, due_at, id) WHERE state = 'pending';
DROP INDEX IF EXISTS notifications_due;
CREATE INDEX notifications_due ON notifications (clock_site_id, next_attempt_at, id, payment_id) WHERE state = 'pending' AND behind = 0;
-- The marketplace a fault rule belongs to (made through its own routes); NULL: the sandbox's.
ALTER TABLE faults ADD COLUMN owner_site_id INTEGER;
-- The highest SiteID ever handed out: a removed marketplace's SiteID is never given again.
INSERT OR IGNORE INTO counters (name, value) VALUES ('site', (SELECT coalesce(max(site_id), 0) FROM sites));
`;
