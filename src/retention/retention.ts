// Retention for long-lived sandboxes (`--retain 7d`): payments whose last change is older than that in
// sandbox time (their marketplace's own clock's, when it has one) are deleted with everything that hangs off them, a bounded batch per turn of the event
// loop, and the pages they freed go back to the file system once the writes since have not reused them.
import type { Logger } from '../log';
import { useIncrementalVacuum } from '../store/db';
import type { PeriodicJob } from '../scheduler/scheduler';
import type { ServiceContext } from '../services/context';
import type { ClockOwner } from '../store/retention.repo';

export interface RetentionOptions {
  /** How long a payment is kept after its last change, in sandbox milliseconds. */
  retainMs: number;
  log: Logger;
  /** Payments deleted per transaction. */
  batch?: number;
  /** Payments read per query while looking for old ones. */
  scan?: number;
  /** Free pages given back to the file system per transaction. */
  releaseStep?: number;
}

export interface PruneReport {
  /** Payments deleted. */
  payments: number;
  /** Transactions that deleted some. */
  batches: number;
  /** Free pages given back to the file system. */
  releasedPages: number;
  /** Preapprovals deleted, when there were any. */
  preapprovals?: number;
}

// Sized so that one turn takes about 3 ms with the soak's payments (2 splits, 4 history rows, 3
// notifications and their attempts each): requests wait at most that. (100 took 6 to 9 ms.)
const BATCH = 50;
const SCAN = 1000;
const RELEASE_STEP = 256;

/** Lets the requests that arrived meanwhile be read and answered (and the commit group commit). */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Retention implements PeriodicJob {
  /** With the real clock; the manual clock runs it after each advance instead. */
  readonly everyMs = 60_000;
  private stopped = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly opts: RetentionOptions,
  ) {}

  /** One pass: gives back the pages left free since the last one, then deletes what is too old. */
  async run(): Promise<PruneReport> {
    const store = this.ctx.store;
    const batch = this.opts.batch ?? BATCH;
    const scan = this.opts.scan ?? SCAN;
    const step = this.opts.releaseStep ?? RELEASE_STEP;
    const report: PruneReport = { payments: 0, batches: 0, releasedPages: 0 };
    const started = performance.now();

    // Pages freed by the last pass and not reused by the writes since are not needed: under a steady
    // load few are left, so the file stays flat; when the load drops, it shrinks.
    for (let surplus = store.retention.freePages(); surplus > 0 && !this.stopped; ) {
      const n = Math.min(surplus, step);
      store.tx(() => store.retention.releaseFreePages(n));
      surplus -= n;
      report.releasedPages += n;
      await yieldToRequests();
    }

    // Each clock ages its own rows: the sandbox's, then each marketplace's own.
    const sandboxCutoff = this.ctx.clock.now() - this.opts.retainMs;
    const clocks: { site: ClockOwner; cutoff: number }[] = [{ site: null, cutoff: sandboxCutoff }];
    for (const site of this.ctx.siteClocks?.sites() ?? []) {
      const own = this.ctx.siteClocks!.get(site);
      if (own) clocks.push({ site, cutoff: own.now() - this.opts.retainMs });
    }
    let siteObjects = 0;
    for (const { site, cutoff } of clocks) {
      for (let after = 0; !this.stopped; ) {
        const found = store.tx(() => {
          const old = store.retention.unchangedSince(cutoff, after, scan, batch, site);
          if (old.ids.length > 0) {
            store.writePending();
            store.retention.deletePayments(old.ids);
            // The lists' kept counts counted these.
            store.payments.forget();
          }
          return old;
        });
        report.payments += found.ids.length;
        if (found.ids.length > 0) report.batches++;
        if (found.next === null) break;
        after = found.next;
        await yieldToRequests();
      }

      // Preapprovals go after the payments charged under them.
      while (!this.stopped) {
        const n = store.tx(() => store.retention.deletePreapprovals(cutoff, batch, site));
        if (n > 0) report.preapprovals = (report.preapprovals ?? 0) + n;
        if (n < batch) break;
        await yieldToRequests();
      }
      // Card payouts and card authentications hang off no payment: they go by their own age.
      if (!this.stopped) siteObjects += store.tx(() => store.retention.deleteOldSiteObjects(cutoff, site));
    }

    if (report.payments > 0 || report.releasedPages > 0 || (report.preapprovals ?? 0) > 0 || siteObjects > 0) {
      this.opts.log.info('retention', {
        pruned: report.payments,
        preapprovals: report.preapprovals,
        ...(siteObjects > 0 ? { prunedPayoutsAndCardAuthentications: siteObjects } : {}),
        changedBefore: new Date(sandboxCutoff).toISOString(),
        pagesReleased: report.releasedPages,
        ms: Math.round(performance.now() - started),
      });
    }
    return report;
  }

  /** Ends a pass between two batches (the sandbox is stopping). */
  stop(): void {
    this.stopped = true;
  }
}

/**
 * Retention for a sandbox about to serve: a database made without incremental auto-vacuum is
 * switched to it first (one VACUUM, the whole file rewritten once), so that freed pages can go back
 * to the file system. If the file is busy (another process on it), pruning works all the same, and
 * the freed pages are reused by later writes instead of given back.
 */
export function retentionJob(ctx: ServiceContext, opts: RetentionOptions): Retention {
  const started = performance.now();
  try {
    if (useIncrementalVacuum(ctx.store.db)) {
      opts.log.info('database switched to incremental auto-vacuum for retention', { ms: Math.round(performance.now() - started) });
    }
  } catch (e) {
    opts.log.warn('database not switched to incremental auto-vacuum; freed pages will be reused, not given back', { error: (e as Error).message });
  }
  return new Retention(ctx, opts);
}
