// Fair turns between marketplaces on a shared instance: while more than one marketplace sends requests,
// each has at most PER_TURN of its requests handled in one turn of the event loop, and the rest wait,
// in the order they came, for the next turns, taken in rotation. A marketplace flooding from many
// connections then makes the others wait for PER_TURN of its requests, not for all of them. A
// marketplace alone (or requests of one marketplace only in the last second) is never held back.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** How many requests of one marketplace one turn handles while another marketplace is sending too. */
export const PER_TURN = 1;
/** A marketplace counts as sending for this long after its last request. */
const RECENT_MS = 1000;

export class FairTurns {
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly admitted = new Map<string, number>();
  private readonly seen = new Map<string, number>();
  private turnEndSet = false;

  constructor(private readonly perTurn = PER_TURN) {}

  /** Runs `run` now, or in a later turn when `key` has had its share of this one. */
  admit(key: string, run: () => void): void {
    const now = performance.now();
    this.seen.set(key, now);
    const queue = this.waiting.get(key);
    if (queue === undefined && ((this.admitted.get(key) ?? 0) < this.perTurn || !this.contended(key, now))) {
      this.count(key);
      run();
      return;
    }
    if (queue) queue.push(run);
    else this.waiting.set(key, [run]);
    this.atTurnEnd();
  }

  /** Requests waiting for a later turn. */
  get waitingCount(): number {
    let n = 0;
    for (const q of this.waiting.values()) n += q.length;
    return n;
  }

  /** Whether another key sent a request within RECENT_MS (and forgets those that did not). */
  private contended(key: string, now: number): boolean {
    let other = false;
    for (const [k, t] of this.seen) {
      if (now - t >= RECENT_MS) this.seen.delete(k);
      else if (k !== key) other = true;
    }
    return other;
  }

  private count(key: string): void {
    this.admitted.set(key, (this.admitted.get(key) ?? 0) + 1);
    this.atTurnEnd();
  }

  private atTurnEnd(): void {
    if (this.turnEndSet) return;
    this.turnEndSet = true;
    setImmediate(() => this.nextTurn());
  }

  /** A new turn: the waiting requests, one of each marketplace at a time, up to each one's share. */
  private nextTurn(): void {
    this.turnEndSet = false;
    this.admitted.clear();
    const now = performance.now();
    for (let moved = true; moved; ) {
      moved = false;
      for (const [key, queue] of this.waiting) {
        if ((this.admitted.get(key) ?? 0) >= this.perTurn && this.contended(key, now)) continue;
        const run = queue.shift()!;
        if (queue.length === 0) this.waiting.delete(key);
        this.count(key);
        run();
        moved = true;
      }
    }
  }
}

const API_PATH = /^\/v1(\/|$)/i;

/** Mount once the body is read: what waits is the handling, not the socket. `keyOf` names the marketplace ('' for none). */
export function fairTurns(turns: FairTurns, keyOf: (req: Request) => string): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!API_PATH.test(req.path)) return next();
    turns.admit(keyOf(req), () => next());
  };
}
