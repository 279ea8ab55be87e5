// Sandbox time kept in the store: where a clock starts (a restart resumes where it stood), when it is
// saved, and how it is set back when a snapshot is restored.
import { FIRST_WIRE_MS } from '../domain/time';
import type { Logger } from '../log';
import type { Store } from '../store/store';
import { type Clock, LAST_CLOCK_MS, LAST_CLOCK_TEXT, ManualClock, RealClock } from './clock';

export interface ClockConfig {
  clock: 'real' | 'manual';
  /** Manual clock: where a database without a saved time starts (epoch ms). */
  startTime?: number | undefined;
  /** Real clock: sandbox time runs this many times as fast as real time. */
  speed: number;
}

/** A real clock saves its time at most this often (sandbox ms); a manual one at every move. */
const REAL_SAVE_EVERY_MS = 1000;

/**
 * The clock of a sandbox over `store`. Time never goes back: a database that kept a sandbox time
 * resumes from it (a manual clock from where it stood; a real clock from there or real time,
 * whichever is later, running at its speed), and never before the newest status change of the
 * sandbox clock's own rows (a marketplace's own clock keeps its own floor: SiteClocks).
 * `--start-time` sets the time of a database that has none, or moves a kept one forward. No time
 * past 9999-12-31 23:59:59 is taken: a `--start-time` beyond it stops the start, and a database
 * already past it resumes from that last time, said in the log.
 */
export function createClock(config: ClockConfig, store: Store, real: () => number = Date.now, log?: Pick<Logger, 'warn'>): ManualClock | RealClock {
  if (config.startTime !== undefined && !(config.startTime >= FIRST_WIRE_MS && config.startTime <= LAST_CLOCK_MS)) {
    throw new Error(`--start-time: ${new Date(config.startTime).toISOString()} is not a time of years 1000 to 9999; the last time a clock may read is ${LAST_CLOCK_TEXT}`);
  }
  const saved = store.clockState.load();
  const floor = Math.max(saved ?? -Infinity, store.clockState.lastRecorded() ?? -Infinity);
  let clock: ManualClock | RealClock;
  let at: number;
  if (config.clock === 'manual') {
    if (config.speed !== 1) throw new Error('--speed is for the real clock; a manual clock moves only when told to');
    at = Math.max(config.startTime ?? (saved === undefined ? real() : -Infinity), floor);
    clock = new ManualClock(Math.min(at, LAST_CLOCK_MS));
  } else {
    clock = new RealClock(config.speed, real);
    at = Math.max(floor, clock.now());
    if (floor > clock.now()) clock.set(Math.min(floor, LAST_CLOCK_MS));
  }
  if (at > LAST_CLOCK_MS) log?.warn(broughtBack('the sandbox clock', at));
  // Saved by the scheduler when it first runs (a start writes nothing by itself: another sandbox of
  // this process may hold the file's write lock until its turn ends).
  return clock;
}

/** The log line of a clock the database kept past the last time. */
export function broughtBack(which: string, at: number): string {
  return `${which} was kept at ${Number.isFinite(new Date(at).getTime()) ? new Date(at).toISOString() : `${at} ms`}, past ${LAST_CLOCK_TEXT} (the last time the 14-digit format holds): brought back to ${LAST_CLOCK_TEXT}`;
}

export class ClockKeeper {
  private saved: number;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.saved = store.clockState.load() ?? Number.NaN;
  }

  /** Saves the sandbox time if it moved (a real clock: by a second or more, unless `force`). Run it inside a transaction. */
  save(force = false): void {
    const now = this.clock.now();
    const moved = this.clock instanceof ManualClock || force ? now !== this.saved : !(Math.abs(now - this.saved) < REAL_SAVE_EVERY_MS);
    if (!moved) return;
    this.store.clockState.save(now);
    this.saved = now;
  }

  /** The data was replaced by a snapshot's: sandbox time is the time the snapshot kept. */
  reload(): void {
    const kept = this.store.clockState.load();
    if (kept === undefined || !(this.clock instanceof ManualClock || this.clock instanceof RealClock)) return;
    this.clock.set(Math.min(kept, LAST_CLOCK_MS));
    this.saved = kept;
  }
}
