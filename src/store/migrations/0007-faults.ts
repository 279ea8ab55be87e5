// Faults on demand: the rules (kept with their hits, so they survive a restart and belong to a copy
// of the database), and what the journal needs to say that a fault shaped a notification: its text,
// whether it is held back (a delay that lets later notifications of its payment overtake it), and
// the state `dropped`.
import type { Db } from '../db';

export const sql = `
CREATE TABLE faults (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  channel     TEXT NOT NULL CHECK (channel IN ('api', 'notifications')),
  match_json  TEXT NOT NULL,
  action_json TEXT NOT NULL,
  times       INTEGER,
  probability REAL NOT NULL,
  hits        INTEGER NOT NULL DEFAULT 0,
  draws       INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL
) STRICT;

ALTER TABLE notifications ADD COLUMN fault TEXT;
ALTER TABLE notifications ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
`;

const OLD_STATES = `'pending', 'delivered', 'failed', 'no-url')`;
const NEW_STATES = `'pending', 'delivered', 'failed', 'no-url', 'dropped')`;

/**
 * A CHECK constraint can only change by rebuilding its table (SQLite's documented procedure: a new
 * table, the rows copied, the old one dropped, the new one renamed, its indexes made again). The new
 * table is made from the definition the database holds, so that columns added by earlier migrations
 * come along whatever they are. Runs with foreign keys off; migrate() checks them before the commit.
 */
export function up(db: Db): void {
  const table = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'notifications'`).pluck().get() as string;
  if (!table.includes(OLD_STATES)) throw new Error('notifications: the state constraint is not the one this migration knows');
  const indexes = db
    .prepare(`SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'notifications' AND sql IS NOT NULL`)
    .pluck()
    .all() as string[];
  const seq = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'notifications'`).pluck().get() as number | undefined;
  db.exec(table.replace(/^CREATE TABLE "?notifications"?/, 'CREATE TABLE notifications_new').replace(OLD_STATES, NEW_STATES));
  db.exec(`INSERT INTO notifications_new SELECT * FROM notifications;
    DROP TABLE notifications;
    ALTER TABLE notifications_new RENAME TO notifications;`);
  for (const index of indexes) db.exec(index);
  // IDs go on from where they were, not from the highest one left.
  if (seq !== undefined) db.prepare(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'notifications'`).run(seq);
}
