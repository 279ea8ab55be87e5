// Retention's SQL: which payments have not changed since a sandbox time, deleting them with everything
// that hangs off them, giving freed pages back to the file system, and the database's size.
import { JOURNAL_TABLE } from './journal-file';
import type { Db } from './db';
import { withDeferredPrepares } from './deferred';

/**
 * The tables that hang off payments, in the order their rows are deleted: each before the rows it
 * points at (foreign keys are on). A table added with a foreign key into this tree must be added
 * here too (a test derives the tree from the schema and compares).
 */
export const PRUNED_TABLES = [
  'notification_attempts',
  'notifications',
  'scenario_jobs',
  'status_history',
  'refunds',
  'captures',
  'disputes',
  'splits',
  'erased_token_lifetimes',
  'payments',
] as const;

/**
 * The tables of a site's own objects that hang off no payment (card payouts, card authentications):
 * emptied by a reset, and deleted by retention once they are older than the cutoff (each is made in
 * its final state, or changes only by a cancel, whose time is kept).
 */
export const SITE_TABLES = ['payouts', 'card_authentications'] as const;

const IDS = 'SELECT value FROM json_each(@ids)';

const DELETES: Record<(typeof PRUNED_TABLES)[number], string> = {
  notification_attempts: `DELETE FROM notification_attempts WHERE notification_id IN (SELECT id FROM notifications WHERE payment_id IN (${IDS}))`,
  notifications: `DELETE FROM notifications WHERE payment_id IN (${IDS})`,
  scenario_jobs: `DELETE FROM scenario_jobs WHERE payment_id IN (${IDS})`,
  status_history: `DELETE FROM status_history WHERE payment_id IN (${IDS})`,
  refunds: `DELETE FROM refunds WHERE payment_id IN (${IDS})`,
  captures: `DELETE FROM captures WHERE payment_id IN (${IDS})`,
  disputes: `DELETE FROM disputes WHERE payment_id IN (${IDS})`,
  splits: `DELETE FROM splits WHERE payment_id IN (${IDS})`,
  erased_token_lifetimes: `DELETE FROM erased_token_lifetimes WHERE payment_id IN (${IDS})`,
  payments: `DELETE FROM payments WHERE id IN (${IDS})`,
};

/**
 * A payment's last change, in sandbox time, is the latest of: its creation and every status it or
 * its refunds entered (the history), splits added, scenario steps run and notification attempts.
 * One with a change still to come is kept whatever its age: a pending step or notification, or an
 * Open payment whose token is yet to expire. Each test reads one payment's rows through its index.
 */
const CHANGED_SINCE = `(
     EXISTS (SELECT 1 FROM status_history h WHERE h.payment_id = p.id AND h.at >= @cutoff)
  OR EXISTS (SELECT 1 FROM splits s WHERE s.payment_id = p.id AND s.created_at >= @cutoff)
  OR EXISTS (SELECT 1 FROM captures c WHERE c.payment_id = p.id AND c.created_at >= @cutoff)
  OR EXISTS (SELECT 1 FROM scenario_jobs j WHERE j.payment_id = p.id AND (j.state = 'pending' OR j.ran_at >= @cutoff))
  OR EXISTS (SELECT 1 FROM notifications n WHERE n.payment_id = p.id
               AND (n.state = 'pending' OR n.created_at >= @cutoff
                    OR EXISTS (SELECT 1 FROM notification_attempts a WHERE a.notification_id = n.id AND a.at >= @cutoff)))
  OR (p.status_id = 1 AND p.token_lifetime IS NOT NULL AND p.created_at + p.token_lifetime * 60000 >= @cutoff))`;

/**
 * Whose rows a pass reads: the sandbox clock's (`null`: those of marketplaces without a clock of their
 * own) or one marketplace's own clock's. Each is aged by its own clock: a marketplace a year ahead
 * never ages another's rows, nor one behind keeps them.
 */
export type ClockOwner = number | null;

/** The payments (or preapprovals, alias `p`) of a clock's rows, `@site` null for the sandbox's. */
const OF_CLOCK = `(CASE WHEN @site IS NULL THEN p.owner_site_id NOT IN (SELECT site_id FROM site_clocks) ELSE p.owner_site_id = @site END)`;
/** The site objects of a clock's rows: by their site's marketplace. */
const siteOfClock = (column: string) => `(CASE WHEN @site IS NULL
    THEN ${column} NOT IN (SELECT s.site_id FROM sites s JOIN site_clocks c ON c.site_id = coalesce(s.marketplace_site_id, s.site_id))
    ELSE ${column} IN (SELECT site_id FROM sites WHERE site_id = @site OR marketplace_site_id = @site) END)`;
const SITE_OF_CLOCK = siteOfClock('site_id');

/** One stretch of a pass over the payments, oldest first. */
export interface PruneScan {
  /** Payments unchanged since the cutoff, to delete. */
  ids: number[];
  /** Where the pass goes on, or null when it reached payments created after the cutoff (or the end). */
  next: number | null;
}

export class RetentionRepo {
  private prepared?: ReturnType<typeof prepare>;
  private counted = { stamp: '', n: 0 };

  constructor(private readonly db: Db) {}

  /** Each prepared on its first use: the health's counts need four of the thirty, and retention the rest. */
  private get stmt() {
    return (this.prepared ??= withDeferredPrepares(this.db, prepare));
  }

  /**
   * Reads up to `scan` payments of a clock's rows after ID `after`, and returns those whose last
   * change is before `cutoff` (epoch ms on that clock), at most `limit` of them.
   */
  unchangedSince(cutoff: number, after: number, scan: number, limit: number, site: ClockOwner = null): PruneScan {
    const ids: number[] = [];
    let read = 0;
    let last = after;
    // Row by row: the change test of the rows after the last one taken is never run.
    for (const r of this.stmt.scan.iterate({ after, scan, cutoff, site })) {
      // Creation order (on one clock): the rest was created after the cutoff too.
      if (!r.old) return { ids, next: null };
      read++;
      last = r.id;
      if (!r.changed) ids.push(r.id);
      if (ids.length >= limit) return { ids, next: r.id };
    }
    return { ids, next: read < scan ? null : last };
  }

  /** Deletes these payments and every row that hangs off them. Run it inside a transaction. */
  deletePayments(ids: readonly number[]): void {
    if (ids.length === 0) return;
    const param = { ids: JSON.stringify(ids) };
    for (const stmt of this.stmt.deletes) stmt.run(param);
    // The request journal names payments without a foreign key: their entries go with them.
    this.stmt.requests.run(param);
  }

  /**
   * Deletes up to `limit` preapprovals unchanged since `cutoff` (none of their statuses, steps or
   * notification attempts since; nothing pending; no recurring payment of theirs still kept), with
   * their history, steps and notifications. Returns how many. Run it inside a transaction.
   */
  deletePreapprovals(cutoff: number, limit: number, site: ClockOwner = null): number {
    const ids = this.stmt.oldPreapprovals.all({ cutoff, limit, site }) as number[];
    if (ids.length === 0) return 0;
    const param = { ids: JSON.stringify(ids) };
    for (const stmt of this.stmt.preapprovalDeletes) stmt.run(param);
    return ids.length;
  }

  /**
   * Deletes the site objects (SITE_TABLES) whose last change is before `cutoff`: a payout when it was
   * made, a card authentication when it was made or cancelled. Run it inside a transaction.
   */
  deleteOldSiteObjects(cutoff: number, site: ClockOwner = null): number {
    // A payout's notification goes with it (before it: the payout's rows are what name them).
    for (const stmt of this.stmt.payoutNotificationDeletes) stmt.run({ cutoff, site });
    return this.stmt.siteDeletes.reduce((n, stmt) => n + stmt.run({ cutoff, site }).changes, 0);
  }

  /** Pages on the free list: freed by deletes, reused by the next writes before the file grows. */
  freePages(): number {
    return this.stmt.freePages.get() as number;
  }

  /** Gives up to `pages` free pages back to the file system (incremental auto-vacuum). */
  releaseFreePages(pages: number): void {
    // A pragma's argument cannot be bound; it is a whole number here. exec() steps it to the end
    // (a statement's run() would free one page).
    this.db.exec(`PRAGMA incremental_vacuum(${Math.max(0, Math.floor(pages))})`);
  }

  /** The database's size and the number of payments in it (counted again only after a write). */
  stats(stamp: string): { payments: number; bytes: number; freeBytes: number } {
    if (this.counted.stamp !== stamp) this.counted = { stamp, n: this.stmt.count.get() as number };
    const pageSize = this.stmt.pageSize.get() as number;
    return {
      payments: this.counted.n,
      bytes: (this.stmt.pageCount.get() as number) * pageSize,
      freeBytes: this.freePages() * pageSize,
    };
  }
}

/**
 * A payout (`o`) older than the cutoff, whose notification has nothing still to come: none pending,
 * none attempted since the cutoff.
 */
const OLD_PAYOUT = `o.created_at < @cutoff AND NOT EXISTS (SELECT 1 FROM notifications w WHERE w.payout_id = o.id
  AND (w.state = 'pending' OR EXISTS (SELECT 1 FROM notification_attempts a WHERE a.notification_id = w.id AND a.at >= @cutoff)))`;

function prepare(db: Db) {
  return {
    // In ID order, which is creation order: the pass ends at the first payment created after the
    // cutoff, so it reads only the old ones (and at most `scan` rows a call). The change test runs
    // only for those (CASE evaluates lazily).
    scan: db.prepare<{ after: number; scan: number; cutoff: number; site: ClockOwner }, { id: number; old: number; changed: number | null }>(
      `SELECT p.id, p.created_at < @cutoff AS old, CASE WHEN p.created_at < @cutoff THEN ${CHANGED_SINCE} END AS changed
         FROM payments p WHERE p.id > @after AND ${OF_CLOCK} ORDER BY p.id LIMIT @scan`,
    ),
    deletes: PRUNED_TABLES.map((t) => db.prepare<{ ids: string }>(DELETES[t])),
    payoutNotificationDeletes: [
      `DELETE FROM notification_attempts WHERE notification_id IN (SELECT n.id FROM notifications n JOIN payouts o ON o.id = n.payout_id WHERE ${OLD_PAYOUT} AND ${siteOfClock('o.site_id')})`,
      `DELETE FROM notifications WHERE id IN (SELECT n.id FROM notifications n JOIN payouts o ON o.id = n.payout_id WHERE ${OLD_PAYOUT} AND ${siteOfClock('o.site_id')})`,
    ].map((sql) => db.prepare<{ cutoff: number; site: ClockOwner }>(sql)),
    siteDeletes: [
      db.prepare<{ cutoff: number; site: ClockOwner }>(`DELETE FROM payouts AS o WHERE ${OLD_PAYOUT} AND ${siteOfClock('o.site_id')}`),
      db.prepare<{ cutoff: number; site: ClockOwner }>(
        `DELETE FROM card_authentications WHERE max(created_at, coalesce(cancelled_at, 0)) < @cutoff AND ${SITE_OF_CLOCK}`,
      ),
    ],
    requests: db.prepare<{ ids: string }>(`DELETE FROM ${JOURNAL_TABLE} WHERE payment_id IN (${IDS})`),
    oldPreapprovals: db
      .prepare<{ cutoff: number; limit: number; site: ClockOwner }, number>(
        `SELECT p.id FROM preapprovals p WHERE p.created_at < @cutoff AND ${OF_CLOCK}
           AND NOT EXISTS (SELECT 1 FROM status_history h WHERE h.preapproval_id = p.id AND h.at >= @cutoff)
           AND NOT EXISTS (SELECT 1 FROM scenario_jobs j WHERE j.preapproval_id = p.id AND (j.state = 'pending' OR j.ran_at >= @cutoff))
           AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.preapproval_id = p.id
                             AND (n.state = 'pending' OR n.created_at >= @cutoff
                                  OR EXISTS (SELECT 1 FROM notification_attempts a WHERE a.notification_id = n.id AND a.at >= @cutoff)))
           AND NOT EXISTS (SELECT 1 FROM payments x WHERE x.preapproval_id = p.id)
         ORDER BY p.id LIMIT @limit`,
      )
      .pluck(),
    preapprovalDeletes: [
      `DELETE FROM notification_attempts WHERE notification_id IN (SELECT id FROM notifications WHERE preapproval_id IN (${IDS}))`,
      `DELETE FROM notifications WHERE preapproval_id IN (${IDS})`,
      `DELETE FROM scenario_jobs WHERE preapproval_id IN (${IDS})`,
      `DELETE FROM status_history WHERE preapproval_id IN (${IDS})`,
      `DELETE FROM preapprovals WHERE id IN (${IDS})`,
    ].map((sql) => db.prepare<{ ids: string }>(sql)),
    count: db.prepare('SELECT count(*) FROM payments').pluck(),
    pageCount: db.prepare('PRAGMA page_count').pluck(),
    pageSize: db.prepare('PRAGMA page_size').pluck(),
    freePages: db.prepare('PRAGMA freelist_count').pluck(),
  };
}
