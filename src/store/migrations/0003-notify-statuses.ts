// Which statuses a merchant is notified of: a JSON array of status IDs, or NULL for all.
export const sql = `ALTER TABLE sites ADD COLUMN notify_statuses TEXT;`;
