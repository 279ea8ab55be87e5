// A marketplace's own copy: its rows of every table it owns (owned.ts) in a small SQLite file, with
// its clock, written and read back through ATTACH on the live connection. A copy is checked before
// anything is replaced: its tables, whose rows it holds, and its values as a whole snapshot's are
// (copy-check.ts); the live tables' STRICT types and constraints refuse the rest inside the
// transaction, which then changes nothing.
import Database from 'better-sqlite3';
import { badValueMessage, valueChecks } from './copy-check';
import { MIGRATIONS } from './migrations';
import { OWNED_TABLES, liveTable, ownedRows, parentLinks } from './owned';
import type { Store } from './store';

/** What a marketplace's copy says of itself. */
export interface SiteCopyInfo {
  siteId: number;
  /** The marketplace's own clock when it was taken; null: it ran on the sandbox's. */
  ownClockMs: number | null;
  /** The time it was taken at (its own clock's, or the sandbox's). */
  takenMs: number;
  payments: number;
}

/** A copy that is not one of this marketplace, or that this sandbox cannot read: the reason says which table and row. */
export class SiteCopyRefused extends Error {}

const LATEST = () => MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Writes the marketplace's rows to `target` (a new file). */
export function copySite(store: Store, siteId: number, target: string, clock: { ownMs: number | null; takenMs: number }): void {
  // The journal's entries of the last answers belong in the copy too.
  store.writePending();
  const db = store.db;
  store.withAttached(target, 'snap', () =>
    db.transaction(() => {
      db.prepare('CREATE TABLE snap.copy_of (site_id INTEGER NOT NULL, own_clock_ms INTEGER, taken_ms INTEGER NOT NULL, schema INTEGER NOT NULL)').run();
      db.prepare('INSERT INTO snap.copy_of VALUES (?, ?, ?, ?)').run(siteId, clock.ownMs, clock.takenMs, LATEST());
      for (const t of OWNED_TABLES) {
        db.prepare(`CREATE TABLE snap."${t.table}" AS SELECT * FROM ${liveTable(t)} WHERE ${ownedRows(t)} ORDER BY rowid`).run({ site: siteId });
      }
    })(),
  );
}

/** What a copy holds, read without changing it; a SiteCopyRefused when it is not a marketplace's copy. */
export function readSiteCopy(file: string): SiteCopyInfo {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new SiteCopyRefused(`it cannot be opened: ${(e as Error).message}`);
  }
  try {
    const row = db.prepare('SELECT site_id, own_clock_ms, taken_ms, schema FROM copy_of').get() as
      | { site_id: unknown; own_clock_ms: unknown; taken_ms: unknown; schema: unknown }
      | undefined;
    if (!row) throw new SiteCopyRefused('copy_of: it has no row saying whose copy it is');
    const whole = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v);
    // The times a sandbox can show: 14-digit timestamps, years 1970 to 9999.
    const time = (v: unknown) => whole(v) && (v as number) >= 0 && (v as number) < 253402300800000;
    if (!whole(row.site_id) || !time(row.taken_ms) || !(row.own_clock_ms === null || time(row.own_clock_ms))) {
      throw new SiteCopyRefused('copy_of: its SiteID or clock is not a SiteID or a sandbox time');
    }
    if (row.schema !== LATEST()) throw new SiteCopyRefused(`copy_of: it was written with schema ${String(row.schema)}, this sandbox has ${LATEST()}`);
    const payments = db.prepare('SELECT count(*) FROM payments').pluck().get() as number;
    return { siteId: row.site_id as number, ownClockMs: row.own_clock_ms as number | null, takenMs: row.taken_ms as number, payments };
  } catch (e) {
    if (e instanceof SiteCopyRefused) throw e;
    throw new SiteCopyRefused(`it is not a marketplace's copy: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Replaces the marketplace's rows with the copy's, in one transaction: its own rows are deleted and
 * the copy's inserted, nobody else's touched. Refused (SiteCopyRefused, nothing changed) when the
 * copy's tables are not the live ones, a row belongs to another site, or a value does not fit.
 */
export function restoreSite(store: Store, siteId: number, file: string, apply: () => void): void {
  const info = readSiteCopy(file);
  if (info.siteId !== siteId) throw new SiteCopyRefused(`copy_of: it is a copy of SiteID ${info.siteId}`);
  const db = store.db;
  store.withAttached(file, 'snap', () => {
    const columnsOf = (schema: string, t: string) => db.prepare(`SELECT name FROM pragma_table_info(?, ?) ORDER BY cid`).pluck().all(t, schema) as string[];
    for (const t of OWNED_TABLES) {
      // The journal's kept table has the live journal's columns (journal-file.ts).
      const live = columnsOf('main', t.table);
      const copied = columnsOf('snap', t.table);
      if (copied.join() !== live.join()) throw new SiteCopyRefused(`${t.table}: its columns are not this sandbox's`);
      // Every row must be the marketplace's: by its site, or through a parent row of the copy.
      const foreign = t.site
        ? `${t.site} IS NULL OR ${t.site} NOT IN (SELECT site_id FROM main.sites WHERE site_id = @site OR marketplace_site_id = @site)`
        : `NOT (${parentLinks(t).map((l) => `${l.column} IS NOT NULL AND ${l.column} IN (SELECT id FROM snap."${l.parent}")`).join(' OR ')})`;
      const stray = db.prepare(`SELECT rowid FROM snap."${t.table}" WHERE ${foreign} LIMIT 1`).pluck().get({ site: siteId });
      if (stray !== undefined) throw new SiteCopyRefused(`${t.table}: row ${String(stray)} is not of SiteID ${siteId}`);
    }
    // The values a whole snapshot's restore checks (copy-check.ts knows them from the schema), on the owned tables.
    const owned = new Set(OWNED_TABLES.map((t) => t.table));
    for (const check of valueChecks('snap')) {
      if (!owned.has(check.table)) continue;
      const row = db.prepare(check.sql).get() as Record<string, unknown> | undefined;
      if (row) throw new SiteCopyRefused(badValueMessage(check, row));
    }
    try {
      store.tx(() => {
        store.clearSite(siteId);
        // Parents before the rows that point at them.
        for (const t of [...OWNED_TABLES].reverse()) {
          const columns = columnsOf('main', t.table)
            .map((c) => `"${c}"`)
            .join(', ');
          db.prepare(`INSERT INTO ${liveTable(t)} (${columns}) SELECT ${columns} FROM snap."${t.table}" ORDER BY rowid`).run();
        }
        apply();
      });
      store.flush();
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code?.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_MISMATCH') throw new SiteCopyRefused(`a row does not fit: ${(e as Error).message}`);
      throw e;
    }
  });
}
