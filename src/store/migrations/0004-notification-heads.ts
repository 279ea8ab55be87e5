// Notifications queued behind an older pending one of the same payment are marked, so that finding
// the next one to send reads only the heads: with a failing receiver thousands of rows can wait
// behind their heads, and reading past them on every delivery made the server slower by the minute.
// The journal can also be read by state without a scan of every notification ever sent.
export const sql = `
ALTER TABLE notifications ADD COLUMN behind INTEGER NOT NULL DEFAULT 0;
UPDATE notifications SET behind = 1
 WHERE state = 'pending'
   AND EXISTS (SELECT 1 FROM notifications e WHERE e.payment_id = notifications.payment_id AND e.state = 'pending' AND e.id < notifications.id);
DROP INDEX notifications_due;
CREATE INDEX notifications_due ON notifications (next_attempt_at, id, payment_id) WHERE state = 'pending' AND behind = 0;
CREATE INDEX notifications_by_state ON notifications (state, id);
`;
