// Reproducing a case: the sandbox time (so that a restart or a restored snapshot resumes from it), and
// what a payment's story needs that its rows do not keep: where added splits fall among its status
// changes, the TokenLifetime a cancel or expiry erases, and the scenarios of replayed stories.
export const sql = `
CREATE TABLE sandbox_clock (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  sandbox_ms INTEGER NOT NULL
) STRICT;

-- The last status history row of the payment when the split was added; NULL for the splits it was created with.
ALTER TABLE splits ADD COLUMN added_after INTEGER;

-- A cancel or an expiry sets the payment's token_lifetime to NULL (as the real service shows it); the
-- story replays the create request as it was, so the lifetime is kept here. A trigger, so that creating
-- and moving payments costs nothing more.
CREATE TABLE erased_token_lifetimes (
  payment_id     INTEGER PRIMARY KEY REFERENCES payments(id),
  token_lifetime INTEGER NOT NULL
) STRICT;
CREATE TRIGGER keep_erased_token_lifetime AFTER UPDATE OF token_lifetime ON payments
  WHEN OLD.token_lifetime IS NOT NULL AND NEW.token_lifetime IS NULL
BEGIN
  INSERT OR IGNORE INTO erased_token_lifetimes (payment_id, token_lifetime) VALUES (OLD.id, OLD.token_lifetime);
END;

-- Scenarios of replayed stories, by the name their payments carry: their steps still run after a
-- restart or a restore.
CREATE TABLE story_scenarios (
  name TEXT PRIMARY KEY,
  body TEXT NOT NULL
) STRICT;
`;
