// Card fraud challenges and payout notifications: a card payment held for a fraud challenge keeps why
// (its Fraud details show it), and a card payout's notification names its payout, in a queue of its own.
export const sql = `
ALTER TABLE payments ADD COLUMN fraud_reason TEXT;

-- No reference: retention deletes payouts apart from their notifications (it deletes those first).
ALTER TABLE notifications ADD COLUMN payout_id INTEGER;
CREATE INDEX notifications_by_payout ON notifications (payout_id, id) WHERE payout_id IS NOT NULL;
-- The heads index names each head's queue (a payment, a preapproval or a payout) so that finding the
-- next one to send still reads the index alone.
DROP INDEX notifications_due;
CREATE INDEX notifications_due ON notifications (clock_site_id, next_attempt_at, id, payment_id, preapproval_id, payout_id) WHERE state = 'pending' AND behind = 0;
`;
