// A scenario step held while the payer has the payment page open keeps the time its scenario planned:
// due_at then says when it runs if the payer does nothing, planned_due_at when it would have run.
export const sql = `ALTER TABLE scenario_jobs ADD COLUMN planned_due_at INTEGER;`;
