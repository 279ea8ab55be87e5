// Retention deletes refunds with their payments. A refund's row can only go once nothing points at
// it, and without an index SQLite finds the rows that do (history, steps, notifications) by reading
// each of those tables whole, for every refund deleted. Partial: only rows of refunds are indexed.
export const sql = `
CREATE INDEX IF NOT EXISTS status_history_by_refund ON status_history (refund_id) WHERE refund_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS scenario_jobs_by_refund ON scenario_jobs (refund_id) WHERE refund_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS notifications_by_refund ON notifications (refund_id) WHERE refund_id IS NOT NULL;
`;
