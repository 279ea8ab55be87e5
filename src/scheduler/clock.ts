// Sandbox time. Every timestamp the sandbox writes comes from a Clock, so tests and QA can move time.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export class RealClock implements Clock {
  now(): number {
    return Date.now();
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
    this.ms += ms;
    this.release();
  }

  set(ms: number): void {
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
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - clock.now())).unref());
}
