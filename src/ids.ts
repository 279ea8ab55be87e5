// Randomness of the sandbox: payment tokens and InvalidRequestIDs. Seeded, it repeats itself exactly.
import { randomBytes } from 'node:crypto';

export interface Ids {
  /** 32 upper-case hex characters, as in the real RedirectURL. */
  token(): string;
  /** A fresh InvalidRequestID for a rejected request (digits, as the real service's are numeric). */
  invalidRequestId(): string;
  /** A random API key, for merchants created at run time. */
  apiKey(): string;
}

/** A small, fast PRNG (splitmix32) for seeded runs, from `skip` bytes into the seed's sequence. */
function seededBytes(seed: number, skip: number): (n: number) => Buffer {
  let state = (seed + Math.imul(skip, 0x9e3779b9)) >>> 0;
  return (n) => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      out[i] = (z ^ (z >>> 16)) & 0xff;
    }
    return out;
  };
}

/** Cryptographic bytes, drawn 4 kB at a time: one system call per 256 tokens instead of one each. */
function pooledRandomBytes(): (n: number) => Buffer {
  let pool = Buffer.alloc(0);
  let at = 0;
  return (n) => {
    if (at + n > pool.length) {
      pool = randomBytes(Math.max(4096, n));
      at = 0;
    }
    const out = Buffer.from(pool.subarray(at, at + n));
    at += n;
    return out;
  };
}

/**
 * `paymentIds`: how many payment IDs the database handed out before (seeded runs). A seeded sandbox
 * restarted on its file would draw its tokens again from the start; it starts 1 kB of the sequence
 * further per payment instead (a payment draws 16 bytes), past every token drawn before, and a new
 * database (none handed out) keeps the seed's own sequence.
 */
export function createIds(seed?: number, paymentIds = 0): Ids {
  const bytes = seed === undefined ? pooledRandomBytes() : seededBytes(seed, Math.imul(paymentIds, 1024));
  // InvalidRequestIDs are not stored (a rejected request changes nothing), so they count in memory
  // from a random start: drawn at once from a seed's sequence (where the order of draws is what repeats),
  // at the first rejection otherwise (node:crypto, whose loading is a tenth of a start, stays off its path).
  const first = () => 100_000_000 + (bytes(4).readUInt32BE(0) % 800_000_000);
  let next = seed === undefined ? undefined : first();
  return {
    token: () => bytes(16).toString('hex').toUpperCase(),
    invalidRequestId: () => {
      next ??= first();
      return String(next++);
    },
    apiKey: () => bytes(30).toString('base64'),
  };
}
