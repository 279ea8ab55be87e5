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
