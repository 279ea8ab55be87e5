// Each request journal entry belongs to a marketplace, or to no one: `owner_site_id` is the marketplace
// whose credentials authenticated the request (a payer page's press: the marketplace of its payment),
// NULL for one that failed authentication (the unauthenticated pool). `stored_bytes` is what it counts
// against its quota. Here on a copy's `requests_kept`; the journal's own file gets the same columns
// when it is attached (journal-file.ts), filled by the same expressions.

/** The owner of an entry written before: an authenticated one's site, or a payer press's (not a refused claim), as its marketplace. */
export const ownerOf = (t: string) => `CASE WHEN ${t}.authenticated = 1 OR (${t}.site_id IS NOT NULL AND ${t}.status IS NOT 401)
  THEN (SELECT coalesce(s.marketplace_site_id, s.site_id) FROM main.sites s WHERE s.site_id = ${t}.site_id) END`;

/** What an entry counts against its quota: every text it keeps, as UTF-8 bytes, and ENTRY_OVERHEAD for the rest (requests.repo.ts). */
export const storedBytesOf = (t: string) => `256 + length(CAST(${t}.method AS BLOB)) + length(CAST(${t}.path AS BLOB))
  + coalesce(length(CAST(${t}.query AS BLOB)), 0) + coalesce(length(CAST(${t}.route AS BLOB)), 0)
  + coalesce(length(CAST(${t}.reasons AS BLOB)), 0) + coalesce(length(CAST(${t}.fault AS BLOB)), 0)
  + coalesce(length(CAST(${t}.near_miss AS BLOB)), 0) + coalesce(length(CAST(${t}.request_body AS BLOB)), 0)
  + coalesce(length(CAST(${t}.response_body AS BLOB)), 0)`;

/** The two columns, as both tables add them. */
export const COLUMNS = ['owner_site_id INTEGER', 'stored_bytes INTEGER NOT NULL DEFAULT 0'] as const;

export const sql = `
${COLUMNS.map((c) => `ALTER TABLE requests_kept ADD COLUMN ${c};`).join('\n')}
UPDATE requests_kept SET owner_site_id = ${ownerOf('requests_kept')}, stored_bytes = ${storedBytesOf('requests_kept')};
`;
