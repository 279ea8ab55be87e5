// What the merchant sites API (/v1/merchantsites) keeps of a site beyond its credentials: when it was
// made, its URL, alias, IP list, bank and company details, whether it is active, and its deletion.
export const sql = `
CREATE TABLE merchant_sites (
  site_id    INTEGER PRIMARY KEY REFERENCES sites(site_id),
  created_at INTEGER,
  url        TEXT,
  active     INTEGER NOT NULL,
  alias      TEXT,
  ip_list    TEXT,
  details    TEXT,
  -- A deleted site keeps its row (its payments stay its marketplace's) but no key, no list entry, no splits.
  deleted_at INTEGER
) STRICT;
`;
