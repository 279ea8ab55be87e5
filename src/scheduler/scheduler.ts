// Drives time-based work: scenario steps, token expiry and notification retries. With the real clock,
// one exact timer waits for the next due thing and a sweep every 5 s is the safety net; with the manual
// clock, nothing moves until advance() is called.
import type { Logger } from '../log';
import type { NotificationWorker } from '../notifications/worker';
import type { ServiceContext } from '../services/context';
import { applyPaymentEvent } from '../services/events.service';
import { runJob } from '../services/steps.service';
import type { DataReplaced } from '../store/store';
import { ManualClock, RealClock, pastTheLastTime } from './clock';
import { HttpError } from '../errors/errors';
import { ClockKeeper } from './clock-keeper';
import { WritesHeld, isStorageFailure } from '../store/failures';
import { CAUSE } from '../domain/causes';

/** The longest a real-time timer is set for: a wake-up later re-arms it anyway. */
const MAX_TIMER_MS = 60_000;
/** Steps or expiries run in one go with the real clock before requests get their turn. */
const SLICE = 50;
/**
 * With the real clock a tick runs half of the steps due (at least this many): the payments created in
 * one turn of the event loop fall due together, and running a whole burst at once made one turn's
 * answers wait for it while the next had none to run; halves spread it over turns.
 */
const MIN_SLICE = 16;
/** The safety-net sweep starts this long after the sandbox, off the start-up path. */
const SWEEP_AFTER_MS = 1000;
/**
 * How often the sweep ticks. A plain interval: a cron schedule of every 5 s read the wall clock
 * through Intl's date formatter each second, some 2% of a loaded server's time.
 */
const SWEEP_EVERY_MS = 5000;
/** After the database could not store due work (a full disk), how long before it is tried again. */
const STORAGE_RETRY_MS = 1000;

/** Upkeep that runs at start, every `everyMs` with the real clock, and after each manual clock advance. */
export interface PeriodicJob {
  readonly everyMs: number;
  run(): Promise<unknown>;
  /** Asks a run under way to end soon (the sandbox is stopping). */
  stop?(): void;
}

export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private sweep: NodeJS.Timeout | null = null;
  private sweepStart: NodeJS.Timeout | null = null;
  private stopped = false;
  private ticking: Promise<void> | null = null;
  private wakePending = false;
  /** Keeps the sandbox time in the store, so that a restart resumes from it. */
  private readonly keeper: ClockKeeper;
  /** Bumped when a snapshot is restored: an advance under way stops (its time belongs to the old data). */
  private generation = 0;
  private readonly unsubscribe: () => void;
  /** Real time: no timer before this moment, after the database failed to store due work. */
  private retryNotBefore = 0;
  private readonly jobs: PeriodicJob[] = [];
  private readonly jobTimers: NodeJS.Timeout[] = [];
  private readonly jobRuns = new Map<PeriodicJob, Promise<void>>();
  /** The sandbox clock's advances, one after the other: concurrent ones add up. */
  private advancing: Promise<void> = Promise.resolve();
  /** Each marketplace's own clock's advances, one after the other. */
  private readonly siteAdvancing = new Map<number, Promise<void>>();

  constructor(
    private readonly ctx: ServiceContext,
    readonly worker: NotificationWorker,
    private readonly log: Logger,
  ) {
    // A burst of deliveries re-arms the timer once, not once per delivery.
    worker.afterAttempt = () => {
      if (!this.manual) this.wake();
    };
    this.keeper = new ClockKeeper(ctx.store, ctx.clock);
    const unsubscribe = [ctx.store.onDataReplaced((why) => this.reload(why)), ctx.store.onSiteReplaced((site) => this.worker.forgetSite(site))];
    this.unsubscribe = () => unsubscribe.forEach((u) => u());
  }

  get manual(): boolean {
    return this.ctx.clock instanceof ManualClock;
  }

  /** Adds upkeep (retention); before start(). */
  addJob(job: PeriodicJob): void {
    this.jobs.push(job);
  }

  /** Starts the timers (real clock). Due work left from before a restart runs at once, in order. */
  start(): void {
    for (const job of this.jobs) {
      void this.runJob(job);
      if (!this.manual) this.jobTimers.push(setInterval(() => void this.runJob(job), job.everyMs).unref());
    }
    // The marketplaces' own clocks: late steps and notifications due at their time go out.
    for (const site of this.ctx.siteClocks?.sites() ?? []) {
      const due = this.nextDue(site);
      if (due === null || due > this.ctx.siteClocks!.get(site)!.now()) continue;
      this.advanceSite(site, 0).catch((e: Error) => this.log.error(`due work of marketplace ${site} at the start failed`, { error: e.message }));
    }
    if (this.manual) {
      // Late steps of a previous run, and notifications due at the start time, still go out.
      this.tickLogged('at the start');
      return;
    }
    this.sweepStart = setTimeout(() => {
      if (!this.stopped) this.sweep = setInterval(() => this.tickLogged('in the sweep'), SWEEP_EVERY_MS).unref();
    }, SWEEP_AFTER_MS);
    this.sweepStart.unref();
    this.arm();
  }

  /** Called when something new was scheduled: re-arm the timer, or deliver what is due now. */
  wake(): void {
    // Many changes in one turn of the event loop (a burst of requests) re-arm once.
    if (this.stopped || this.wakePending) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      if (this.stopped) return;
      if (this.manual) this.worker.send();
      else this.arm();
    });
  }

  /** Something was scheduled on a marketplace's own clock: its notifications due now go out. */
  wakeSite(siteId: number): void {
    if (this.stopped) return;
    this.worker.send(siteId);
  }

  /**
   * A tick nobody awaits (a timer's, the sweep's): its failure is logged, never left as an unhandled
   * rejection, which would end the process.
   */
  private tickLogged(when: string): void {
    this.tick().catch((e: Error) => this.log.error(`due work ${when} failed`, { error: e.message }));
  }

  /** Runs everything due at the current time: steps in order, expiries, then notifications. */
  tick(): Promise<void> {
    const run = async () => {
      // Real time works in slices, so that requests are answered between them (the timer is
      // re-armed at once when work is left); the manual clock runs everything due before it answers.
      if (this.manual) {
        this.runDue(this.ctx.clock.now(), Infinity);
        // Notifications of the slice go out once it is on disk, never for a change that was not kept.
        await this.committed();
        await this.worker.deliverDue();
        return;
      }
      try {
        const now = this.ctx.clock.now();
        this.runDue(now, Math.min(SLICE, Math.max(MIN_SLICE, Math.ceil(this.ctx.store.jobs.countDue(now, 2 * SLICE) / 2))));
      } catch (e) {
        if (!isStorageFailure(e)) throw e;
        return this.storageFailed(e as Error);
      }
      // Real time does not wait for receivers: a slow one must not hold up the next steps (nor
      // may each tick leave a waiter behind while some notification is always on the wire).
      this.ctx.store.afterCommit((err) => (err ? this.storageFailed(err) : this.worker.send()));
    };
    const p = (this.ticking ?? Promise.resolve()).then(run, run);
    // The next tick waits for this one whatever its outcome; a failure is the caller's to handle.
    const settled = p.then(
      () => {},
      () => {},
    );
    this.ticking = settled;
    void settled.then(() => {
      if (this.ticking === settled) this.ticking = null;
    });
    return p.finally(() => {
      if (!this.manual) this.arm();
    });
  }

  /**
   * Manual clock: moves time by `ms`, running every step, expiry and retry due on the way, in order.
   * Advances asked for together run one after the other, each from where the one before ended: they
   * add up, and time never goes back.
   */
  advance(ms: number): Promise<void> {
    if (!(this.ctx.clock instanceof ManualClock)) return Promise.reject(new Error('the clock is real: start the sandbox with --clock manual'));
    const run = this.advancing.then(() => this.advanceNow(ms));
    this.advancing = run.catch(() => {});
    return run;
  }

  private async advanceNow(ms: number): Promise<void> {
    const clock = this.ctx.clock as ManualClock;
    refusePastTheLastTime(clock.now(), ms);
    const target = clock.now() + ms;
    const generation = this.generation;
    for (;;) {
      await this.worker.deliverDue();
      if (generation !== this.generation) return;
      const next = this.nextDue();
      if (next === null || next > target) break;
      if (next > clock.now()) clock.set(next);
      // A full disk stops the advance here, with the steps still pending: the next advance runs them.
      this.runDue(clock.now(), Infinity);
      await this.committed();
    }
    if (generation !== this.generation) return;
    if (target > clock.now()) clock.set(target);
    await this.tick();
    // A run under way started before this time: one more, for the time now.
    for (const job of this.jobs) {
      await this.jobRuns.get(job);
      await this.runJob(job);
    }
  }

  /**
   * A marketplace's own clock: moves it by `ms` as advance() moves the sandbox's, running that
   * marketplace's due steps, expiries and notifications alone. Its advances add up as the sandbox's do.
   */
  advanceSite(siteId: number, ms: number): Promise<void> {
    const run = (this.siteAdvancing.get(siteId) ?? Promise.resolve()).then(() => this.advanceSiteNow(siteId, ms));
    const settled = run.catch(() => {});
    this.siteAdvancing.set(siteId, settled);
    void settled.then(() => {
      if (this.siteAdvancing.get(siteId) === settled) this.siteAdvancing.delete(siteId);
    });
    return run;
  }

  private async advanceSiteNow(siteId: number, ms: number): Promise<void> {
    const clocks = this.ctx.siteClocks;
    const clock = clocks?.get(siteId);
    if (!clocks || !clock) throw new Error(`marketplace ${siteId} runs on the sandbox's clock`);
    refusePastTheLastTime(clock.now(), ms);
    const target = clock.now() + ms;
    // A restore or a removal meanwhile replaces or drops the clock: this advance's time is over.
    const current = () => clocks.get(siteId) === clock;
    for (;;) {
      await this.worker.deliverDue(siteId);
      if (!current() || this.stopped) return;
      const next = this.nextDue(siteId);
      if (next === null || next > target) break;
      if (next > clock.now()) clock.set(next);
      this.runDue(clock.now(), Infinity, siteId);
      await this.committed();
    }
    if (target > clock.now()) clock.set(target);
    this.runDue(clock.now(), Infinity, siteId);
    await this.committed();
    await this.worker.deliverDue(siteId);
  }

  /** Resolves once no upkeep job is running (tests, after start). */
  async jobsSettled(): Promise<void> {
    await Promise.all(this.jobRuns.values());
  }

  /** Runs a job, unless a run of it is under way (then that run's promise): runs never overlap. A failure is logged. */
  private runJob(job: PeriodicJob): Promise<void> {
    if (this.stopped) return Promise.resolve();
    let p = this.jobRuns.get(job);
    if (!p) {
      // Forgotten as it settles, so whoever awaits it can start the next run at once.
      p = job.run().then(
        () => void this.jobRuns.delete(job),
        (e: Error) => {
          this.jobRuns.delete(job);
          this.log.error('upkeep failed', { error: e?.stack ?? String(e) });
        },
      );
      this.jobRuns.set(job, p);
    }
    return p;
  }

  /** Saves the sandbox time now (the sandbox stops). */
  saveClock(): void {
    this.ctx.store.tx(() => this.keeper.save(true));
  }

  /**
   * The data was replaced (a reset, a restored snapshot): attempts on the wire belong to nothing any
   * more, and after a restore the clock goes back to the snapshot's time and the timer is set for the
   * restored work, which runs from there.
   */
  private reload(why: DataReplaced): void {
    this.worker.forget();
    if (why !== 'restore' || this.stopped) return;
    this.generation++;
    this.keeper.reload();
    // A wait for storage (writes held during the restore, say) was set on the clock that is gone.
    this.retryNotBefore = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.manual) this.tickLogged('after a restore');
    else this.arm();
  }

  /**
   * Runs due steps, then expiries, `budget` at the most, in one transaction: one commit for a
   * slice of work instead of one per step (each step a savepoint of its own, undone alone if it fails).
   */
  private runDue(now: number, budget: number, site: number | null = null): void {
    const store = this.ctx.store;
    // A marketplace's own clock runs its work with its services' view (its clock in them).
    const ctx = site === null ? this.ctx : (this.ctx.forSite?.(site) ?? this.ctx);
    store.txSteps(() => {
      if (site === null) this.keeper.save();
      else this.ctx.siteClocks?.save(site);
      let done = 0;
      for (let job = store.jobs.nextDue(now, site); job && done < budget; job = store.jobs.nextDue(now, site), done++) {
        try {
          runJob(ctx, job);
        } catch (e) {
          // The database could not store it (a full disk): the step stays pending, to run once it can.
          if (isStorageFailure(e)) throw e;
          // A step that fails unexpectedly must not stop the others: record it and go on.
          store.jobs.finish(job.id, 'skipped', `error: ${(e as Error).message}`, now);
          this.log.error(`scenario step ${job.id} failed`, { payment: job.paymentId, error: (e as Error).stack });
        }
      }
      for (const id of store.payments.expiredOpen(now, site)) {
        if (done++ >= budget) break;
        try {
          applyPaymentEvent(ctx, id, 'expire', { cause: CAUSE.lifetimeExpiry, scenario: true });
        } catch (e) {
          if (isStorageFailure(e)) throw e;
          this.log.error(`expiry of payment ${id} failed`, { error: (e as Error).message });
        }
      }
    });
  }

  /** Resolves once what was written so far is committed; rejects with the commit's failure. */
  private committed(): Promise<void> {
    return new Promise((resolve, reject) => this.ctx.store.afterCommit((err) => (err ? reject(err) : resolve())));
  }

  /** Real time: the database could not store due work. It stays due; the timer tries again in a while. */
  private storageFailed(e: Error): void {
    // Writes held for a restore under way are no trouble to report: the restore reloads the scheduler.
    if (!(e instanceof WritesHeld)) this.log.warn(`due steps could not be stored (${e.message}); trying again in ${STORAGE_RETRY_MS / 1000} s`);
    this.retryNotBefore = this.ctx.clock.now() + STORAGE_RETRY_MS;
    if (this.timer && this.timerAt < this.retryNotBefore) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.arm();
  }

  private nextDue(site: number | null = null): number | null {
    const s = this.ctx.store;
    // A notification on the wire needs no timer: the end of its attempt re-arms it (afterAttempt).
    const times = [s.jobs.earliestDue(site), s.notifications.earliestDue(this.worker.onTheWire, site), s.payments.nextExpiry(site)].filter(
      (t): t is number => t !== null,
    );
    return times.length ? Math.min(...times) : null;
  }

  private arm(): void {
    if (this.stopped) return;
    // Nothing can be sooner than a timer already due: skip the queries (under load this is most calls).
    if (this.timer && this.timerAt <= this.ctx.clock.now()) return;
    const next = this.nextDue();
    if (next === null) return;
    const at = Math.max(Math.min(next, this.ctx.clock.now() + MAX_TIMER_MS), this.retryNotBefore);
    // A timer already set for then or sooner stays: re-setting it on every request would push it
    // back for as long as requests keep coming, and due steps would wait for the sweep.
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tickLogged('on its timer');
    }, this.realDelay(Math.max(0, at - this.ctx.clock.now())));
  }

  /** Sandbox milliseconds in real ones (a fast real clock runs `--speed` times faster). */
  private realDelay(ms: number): number {
    const clock = this.ctx.clock;
    return clock instanceof RealClock ? Math.ceil(clock.realDelay(ms)) : ms;
  }

  async stop(): Promise<void> {
    if (!this.stopped && this.ctx.store.db.open) this.saveClock();
    this.unsubscribe();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweepStart) clearTimeout(this.sweepStart);
    if (this.sweep) clearInterval(this.sweep);
    for (const t of this.jobTimers) clearInterval(t);
    for (const job of this.jobs) job.stop?.();
    await Promise.all(this.jobRuns.values());
    await this.worker.stop();
    await this.ticking?.catch(() => {});
  }
}

/** An advance that would take a clock past the last time is refused whole, before anything moves. */
function refusePastTheLastTime(now: number, ms: number): void {
  const past = pastTheLastTime(now, ms);
  if (past !== null) throw new HttpError(400, `Seconds: ${past}`);
}
