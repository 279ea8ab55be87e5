// Request data a payment or refund answer shows back as it was sent: a payment's basket (Articles) and
// preapproval terms (PreapprovalDetails), a refund's Articles. JSON, NULL when the request sent none.
export const sql = `
ALTER TABLE payments ADD COLUMN articles TEXT;
ALTER TABLE payments ADD COLUMN preapproval_details TEXT;
ALTER TABLE refunds ADD COLUMN articles TEXT;
`;
