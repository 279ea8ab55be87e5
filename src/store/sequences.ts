// Where IDs start: near the real test host's, so they look like real ones. A new or reset database
// starts here.
export const SEQUENCE_STARTS = `
INSERT INTO sqlite_sequence (name, seq) VALUES ('payments', 3005000), ('splits', 7000), ('refunds', 16400);
INSERT INTO counters (name, value) VALUES ('customer', 200000), ('address', 400000);
`;
