// Sandbox time. Every timestamp the sandbox writes comes from a Clock, so tests and QA can move time.

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
    // Whole milliseconds: every time the store keeps is an INTEGER.
    return this.sandboxBase + Math.floor((real - this.realBase) * this.speed);
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
  constructor(private ms: number) {}

  now(): number {
    return this.ms;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('time only moves forward');
    this.ms += ms;
  }

  set(ms: number): void {
    this.ms = ms;
  }
}
