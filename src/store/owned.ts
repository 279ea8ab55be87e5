// What a marketplace owns: every table with rows of its own, and the column that names its site (or
// points at a row of a table that does). Its reset, its removal and its snapshots read this one list;
// a table added later is isolated, reset and copied by adding one line here.
import type { Db } from './db';
import { ENTRIES_VIEW, JOURNAL_TABLE, KEPT_TABLE } from './journal-file';

/** A table whose rows belong to a marketplace, found by `site` or through `via` a parent's rows. */
export interface OwnedTable {
  table: string;
  /** The column naming the site (the marketplace, or one of its linked sites). */
  site?: string;
  /** Or the column(s) pointing at the `id` of an owned parent table's row (a row is owned when one of them does). */
  via?: ParentLink | readonly ParentLink[];
  /** Where the live rows are when not in `main.<table>`: the request journal's, in its own database (`table` is then what copies call it). */
  live?: string;
  /** Where its rows are read whole, when not from `live` (the journal's: each entry with its shared answer in place, found by `id`). */
  whole?: string;
}

/** The live rows' table, qualified. */
export const liveTable = (t: OwnedTable): string => t.live ?? `main."${t.table}"`;

export interface ParentLink {
  column: string;
  parent: string;
}

/** The parent links of a table owned through its parents. */
export function parentLinks(t: OwnedTable): readonly ParentLink[] {
  if (t.via === undefined) return [];
  return Array.isArray(t.via) ? (t.via as readonly ParentLink[]) : [t.via as ParentLink];
}

/** The marketplace's data, each table before the tables its rows point at (the order deletes go in). */
export const OWNED_TABLES: readonly OwnedTable[] = [
  { table: 'notification_attempts', via: { column: 'notification_id', parent: 'notifications' } },
  { table: 'notifications', site: 'site_id' },
  // A step or a status is a payment's or a preapproval's.
  { table: 'scenario_jobs', via: [{ column: 'payment_id', parent: 'payments' }, { column: 'preapproval_id', parent: 'preapprovals' }] },
  { table: 'status_history', via: [{ column: 'payment_id', parent: 'payments' }, { column: 'preapproval_id', parent: 'preapprovals' }] },
  { table: 'refunds', via: { column: 'payment_id', parent: 'payments' } },
  { table: 'captures', via: { column: 'payment_id', parent: 'payments' } },
  { table: 'disputes', via: { column: 'payment_id', parent: 'payments' } },
  { table: 'splits', via: { column: 'payment_id', parent: 'payments' } },
  { table: 'erased_token_lifetimes', via: { column: 'payment_id', parent: 'payments' } },
  { table: 'payments', site: 'owner_site_id' },
  // After the recurring payments charged under them.
  { table: 'preapprovals', site: 'owner_site_id' },
  { table: 'faults', site: 'owner_site_id' },
  { table: 'payouts', site: 'site_id' },
  { table: 'card_authentications', site: 'site_id' },
  // The request journal: by the marketplace an entry belongs to (a failed authentication's, the pool's, is no one's). A copy keeps it in requests_kept.
  { table: KEPT_TABLE, site: 'owner_site_id', live: JOURNAL_TABLE, whole: ENTRIES_VIEW },
];

/** The marketplace itself: its own clock, then its sites (linked ones before it). Removal deletes these too. */
export const MARKETPLACE_TABLES: readonly OwnedTable[] = [
  { table: 'site_clocks', site: 'site_id' },
  { table: 'merchant_sites', site: 'site_id' },
  { table: 'sites', site: 'site_id' },
];

/**
 * The SQL of the site whose clock a site works on: its marketplace (a site with a key of its own linked
 * to one, made through the merchant sites API, works on the marketplace's clock), else itself.
 */
export const clockSiteOf = (site: string): string => `coalesce((SELECT cs.marketplace_site_id FROM sites cs WHERE cs.site_id = ${site}), ${site})`;

/** The sites of marketplace `@site`: itself and its linked sites. */
const SITES = `SELECT site_id FROM sites WHERE site_id = @site OR marketplace_site_id = @site`;

/** The SQL condition picking a table's rows of marketplace `@site`. */
export function ownedRows(t: OwnedTable, tables: readonly OwnedTable[] = [...OWNED_TABLES, ...MARKETPLACE_TABLES]): string {
  if (t.site !== undefined) return `${t.site} IN (${SITES})`;
  const links = parentLinks(t).map((link) => {
    const parent = tables.find((p) => p.table === link.parent);
    if (!parent) throw new Error(`${t.table}: its parent ${link.parent} is not an owned table`);
    return `${link.column} IN (SELECT id FROM ${parent.table} WHERE ${ownedRows(parent, tables)})`;
  });
  return links.length === 1 ? links[0]! : `(${links.join(' OR ')})`;
}

/** Deletes the marketplace's data (`alsoItself`: its clock and sites too). Run it inside a transaction. */
export function deleteOwned(db: Db, siteId: number, alsoItself = false): void {
  for (const t of alsoItself ? [...OWNED_TABLES, ...MARKETPLACE_TABLES] : OWNED_TABLES) {
    // Linked sites point at their marketplace: they go first.
    if (t.table === 'sites') db.prepare(`DELETE FROM sites WHERE marketplace_site_id = ?`).run(siteId);
    db.prepare(`DELETE FROM ${liveTable(t)} WHERE ${ownedRows(t)}`).run({ site: siteId });
  }
}
