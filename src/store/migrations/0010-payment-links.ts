// A payment link (`PaymentToken=<token>.<ID>`) is found by its payment ID and its token compared, so
// tokens need no index of their own. Random tokens made that index the costliest part of a create:
// each one landed on a page of its own, a third of the pages every commit wrote under load.
export const sql = `
DROP INDEX IF EXISTS payments_by_token;
`;
