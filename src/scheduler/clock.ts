// Sandbox time. Every timestamp the sandbox writes comes from a Clock, so tests and QA can move time.
import { LAST_WIRE_MS, formatTimestamp } from '../domain/time';

/**
 * The last time any clock may read: 9999-12-31 23:59:59 (and its milliseconds), the last whose wire
 * form has 14 digits. A time past it would be written as 15 digits, and no snapshot would restore.
 */
export const LAST_CLOCK_MS = LAST_WIRE_MS;

/** `9999-12-31 23:59:59`: how refusals and the log name the last time. */
export const LAST_CLOCK_TEXT = '9999-12-31 23:59:59';

/** Why a clock reading `now` cannot move by `ms`, or null when it can. */
export function pastTheLastTime(now: number, ms: number): string | null {
  if (now + ms <= LAST_CLOCK_MS) return null;
  const left = Math.max(0, Math.floor((LAST_CLOCK_MS - now) / 1000));
  return `the clock would pass ${LAST_CLOCK_TEXT}, the last time the 14-digit format holds (it reads ${formatTimestamp(now)}; at most ${left} seconds are left)`;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/**
 * Time that runs by itself, `speed` times as fast as real time (`--speed`): at 60 a two-step
 * payment's 2 s authorization comes after 33 ms. At speed 1 and never set, it is simply real time.
 */
export class RealClock implements Clock {
  private sandboxBase = 0;
  private realBase = 0;
  private offset = false;

  constructor(
    readonly speed = 1,
    private readonly real: () => number = Date.now,
  ) {
    if (!Number.isFinite(speed) || speed < 1) throw new RangeError('the speed of a real clock is a number from 1 up');
    this.set(real());
  }

  now(): number {
    const real = this.real();
    if (!this.offset) return real;
    // Whole milliseconds: every time the store keeps is an INTEGER. A fast clock stops at the last time.
    return Math.min(LAST_CLOCK_MS, this.sandboxBase + Math.floor((real - this.realBase) * this.speed));
  }

  /** Sandbox time goes on from `ms` (a restart, a restored snapshot), at the clock's speed. */
  set(ms: number): void {
    this.realBase = this.real();
    this.sandboxBase = ms;
    this.offset = this.speed !== 1 || ms !== this.realBase;
  }

  /** How long, in real milliseconds, `ms` of sandbox time takes. */
  realDelay(ms: number): number {
    return ms / this.speed;
  }
}

/** Time that moves only when told to. */
export class ManualClock implements Clock {
  /** Who waits for a time the clock has not reached yet (reach()). */
  private waiting: { at: number; resolve: () => void }[] = [];

  constructor(private ms: number) {}

  now(): number {
    return this.ms;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('time only moves forward');
    const past = pastTheLastTime(this.ms, ms);
    if (past !== null) throw new RangeError(past);
    this.ms += ms;
    this.release();
  }

  set(ms: number): void {
    if (ms > LAST_CLOCK_MS) throw new RangeError(pastTheLastTime(this.ms, ms - this.ms)!);
    this.ms = ms;
    this.release();
  }

  /** Resolves once the clock is moved to `at` or past it (at once if it is there already). */
  reach(at: number): Promise<void> {
    if (at <= this.ms) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ at, resolve }));
  }

  private release(): void {
    if (this.waiting.length === 0) return;
    const due = this.waiting.filter((w) => w.at <= this.ms);
    if (due.length === 0) return;
    this.waiting = this.waiting.filter((w) => w.at > this.ms);
    for (const w of due) w.resolve();
  }
}

/**
 * Resolves once sandbox time reaches `at`: a timer with the real clock, the clock's own moves with
 * the manual one (nothing waits in real time there). The timer does not keep a process alive.
 */
export function sleepUntil(clock: Clock, at: number): Promise<void> {
  if (clock instanceof ManualClock) return clock.reach(at);
  const wait = Math.max(0, at - clock.now());
  // A fast clock (--speed) gets there sooner in real time.
  const real = clock instanceof RealClock ? clock.realDelay(wait) : wait;
  return new Promise((resolve) => setTimeout(resolve, Math.ceil(real)).unref());
}
