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

/** A small, fast PRNG (splitmix32) for seeded runs. */
function seededBytes(seed: number): (n: number) => Buffer {
  let state = seed >>> 0;
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

export function createIds(seed?: number): Ids {
  const bytes = seed === undefined ? pooledRandomBytes() : seededBytes(seed);
  // InvalidRequestIDs are not stored (a rejected request changes nothing), so they count in memory
  // from a random start.
  let next = 100_000_000 + (bytes(4).readUInt32BE(0) % 800_000_000);
  return {
    token: () => bytes(16).toString('hex').toUpperCase(),
    invalidRequestId: () => String(next++),
    apiKey: () => bytes(30).toString('base64'),
  };
}
