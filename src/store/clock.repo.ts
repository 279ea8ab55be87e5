// The sandbox time, kept in the store so that a restart (or a restored snapshot) resumes from it.
import type { Db } from './db';

export class ClockRepo {
  private readonly loadStmt;
  private readonly saveStmt;
  private readonly lastRecordedStmt;

  constructor(db: Db) {
    this.loadStmt = db.prepare<[], { sandbox_ms: number }>('SELECT sandbox_ms FROM sandbox_clock WHERE id = 1');
    this.saveStmt = db.prepare<[number]>(
      'INSERT INTO sandbox_clock (id, sandbox_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET sandbox_ms = excluded.sandbox_ms',
    );
    // The newest status change on the sandbox clock: its time was on the clock, even if the clock's
    // own row was not written before the process ended (it is written at most once a second with a
    // real clock). A marketplace with a clock of its own wrote its rows in its own time: they are no
    // floor of the sandbox's.
    this.lastRecordedStmt = db.prepare<[], { at: number }>(
      `SELECT h.at FROM status_history h
         LEFT JOIN payments p ON p.id = h.payment_id
         LEFT JOIN preapprovals q ON q.id = h.preapproval_id
        WHERE coalesce(p.owner_site_id, q.owner_site_id) NOT IN (SELECT site_id FROM site_clocks)
        ORDER BY h.id DESC LIMIT 1`,
    );
  }

  /** The sandbox time last saved, epoch ms; undefined in a database that never had one. */
  load(): number | undefined {
    return this.loadStmt.get()?.sandbox_ms;
  }

  save(sandboxMs: number): void {
    this.saveStmt.run(sandboxMs);
  }

  /** When the newest status change on the sandbox clock happened (marketplaces' own clocks left out). */
  lastRecorded(): number | undefined {
    return this.lastRecordedStmt.get()?.at;
  }
}

/** The marketplaces with a clock of their own, and its time (kept at every move, so that a restart resumes it). */
export class SiteClocksRepo {
  private readonly allStmt;
  private readonly saveStmt;
  private readonly deleteStmt;

  constructor(db: Db) {
    // Where each clock stood: its kept time, or its own rows' newest status change if later (the
    // floor of its restart, as the sandbox clock's is of the sandbox's rows).
    this.allStmt = db.prepare<[], { site_id: number; sandbox_ms: number }>(
      `SELECT c.site_id, max(c.sandbox_ms, coalesce((
          SELECT h.at FROM status_history h
           WHERE h.payment_id IN (SELECT id FROM payments WHERE owner_site_id = c.site_id)
              OR h.preapproval_id IN (SELECT id FROM preapprovals WHERE owner_site_id = c.site_id)
           ORDER BY h.id DESC LIMIT 1), c.sandbox_ms)) AS sandbox_ms
         FROM site_clocks c ORDER BY c.site_id`,
    );
    this.saveStmt = db.prepare<[number, number]>(
      'INSERT INTO site_clocks (site_id, sandbox_ms) VALUES (?, ?) ON CONFLICT (site_id) DO UPDATE SET sandbox_ms = excluded.sandbox_ms',
    );
    this.deleteStmt = db.prepare<[number]>('DELETE FROM site_clocks WHERE site_id = ?');
  }

  /** Each marketplace's clock: where it stood (its kept time, or its rows' newest change if later). */
  all(): { siteId: number; ms: number }[] {
    return this.allStmt.all().map((r) => ({ siteId: r.site_id, ms: r.sandbox_ms }));
  }

  save(siteId: number, ms: number): void {
    this.saveStmt.run(siteId, ms);
  }

  delete(siteId: number): void {
    this.deleteStmt.run(siteId);
  }
}
