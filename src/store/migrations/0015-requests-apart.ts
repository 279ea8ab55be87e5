// The request journal moves to a database file of its own beside this one (journal-file.ts): its
// entries are large and written with every request, and here they doubled what every commit and
// checkpoint copied. The table stays in this schema, renamed and without its indexes, as the place a
// copy (a snapshot file) carries the journal in: empty in a live database, filled in a copy.
export const sql = `
DROP INDEX requests_by_site;
DROP INDEX requests_by_payment;
ALTER TABLE requests RENAME TO requests_kept;
`;
