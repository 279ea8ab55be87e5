// The marketplaces' own clocks: manual clocks kept in the store, one per marketplace that asked for
// one, and the view of the services a marketplace's work runs with (its clock in place of the sandbox's).
import type { Logger } from '../log';
import { LAST_CLOCK_MS, ManualClock } from '../scheduler/clock';
import { broughtBack } from '../scheduler/clock-keeper';
import type { ServiceContext } from '../services/context';
import type { Store } from '../store/store';

export class SiteClocks {
  private readonly clocks = new Map<number, ManualClock>();
  /** Per marketplace with its own clock: the services with that clock. */
  private readonly views = new Map<number, ServiceContext>();

  constructor(
    private readonly store: Store,
    private readonly log?: Pick<Logger, 'warn'>,
  ) {
    this.reload();
  }

  /**
   * Reads the clocks from the store again (at start, after a restore): each where it stood, never
   * before its own rows' newest change, never past the last time (brought back, said in the log).
   */
  reload(): void {
    this.clocks.clear();
    this.views.clear();
    for (const { siteId, ms } of this.store.siteClocks.all()) {
      if (ms > LAST_CLOCK_MS) this.log?.warn(broughtBack(`the clock of marketplace ${siteId}`, ms));
      this.clocks.set(siteId, new ManualClock(Math.min(ms, LAST_CLOCK_MS)));
    }
  }

  /** The marketplace's own clock, if it has one. */
  get(siteId: number): ManualClock | undefined {
    return this.clocks.get(siteId);
  }

  /** The marketplaces with a clock of their own. */
  sites(): number[] {
    return [...this.clocks.keys()];
  }

  get size(): number {
    return this.clocks.size;
  }

  /**
   * Gives the marketplace its own manual clock, starting at `at` (the sandbox's time), or takes it
   * away (`at` null: back on the sandbox's clock). Its pending steps and notifications move with it.
   * Run it inside a transaction.
   */
  set(siteId: number, at: number | null): void {
    const s = this.store;
    if (at === null) {
      if (!this.clocks.has(siteId)) return;
      s.siteClocks.delete(siteId);
      this.clocks.delete(siteId);
    } else {
      if (this.clocks.has(siteId)) return;
      s.siteClocks.save(siteId, at);
      this.clocks.set(siteId, new ManualClock(at));
    }
    this.views.delete(siteId);
    s.jobs.moveToClock(siteId, at === null ? null : siteId);
    s.notifications.moveToClock(siteId, at === null ? null : siteId);
  }

  /**
   * A snapshot of the marketplace was restored: its clock is the one the snapshot kept (a new clock
   * object, so that an advance under way ends), or none. Its restored rows already say their clock.
   * Run it inside the restore's transaction.
   */
  restore(siteId: number, ms: number | null): void {
    this.views.delete(siteId);
    if (ms === null) {
      this.store.siteClocks.delete(siteId);
      this.clocks.delete(siteId);
    } else {
      this.store.siteClocks.save(siteId, Math.min(ms, LAST_CLOCK_MS));
      this.clocks.set(siteId, new ManualClock(Math.min(ms, LAST_CLOCK_MS)));
    }
  }

  /** Keeps the marketplace's time in the store (a restart resumes from it). Run it inside a transaction. */
  save(siteId: number): void {
    const clock = this.clocks.get(siteId);
    if (clock) this.store.siteClocks.save(siteId, clock.now());
  }

  /** The marketplace was removed: its clock goes (its row went with it). */
  drop(siteId: number): void {
    this.clocks.delete(siteId);
    this.views.delete(siteId);
  }

  /**
   * The services as a marketplace's work sees them: the same, with its own clock as `clock` and its
   * own wake-up, or the sandbox's services when it has no clock of its own.
   */
  view(services: ServiceContext, siteId: number, wake: (siteId: number) => void): ServiceContext {
    const clock = this.clocks.get(siteId);
    if (!clock) return services;
    let v = this.views.get(siteId);
    if (!v) {
      // Everything else is the sandbox's, read through the prototype (set later ones included).
      v = Object.create(services) as ServiceContext;
      v.clock = clock;
      v.clockSiteId = siteId;
      v.wake = () => wake(siteId);
      this.views.set(siteId, v);
    }
    return v;
  }
}
