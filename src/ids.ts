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

/** Draws random bytes: as a buffer, or straight as upper-case hex (a token), from the same sequence. */
interface Draw {
  (n: number): Buffer;
  hex(n: number): string;
}

/** Two upper-case hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).toUpperCase().padStart(2, '0'));

/** A small, fast PRNG (splitmix32) for seeded runs, from `skip` bytes into the seed's sequence. */
function seededBytes(seed: number, skip: number): Draw {
  let state = (seed + Math.imul(skip, 0x9e3779b9)) >>> 0;
  const byte = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) & 0xff;
  };
  const draw = ((n: number) => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = byte();
    return out;
  }) as Draw;
  // A token's hex made byte by byte: no buffer for it, nor a lower-case string upper-cased.
  draw.hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[byte()];
    return s;
  };
  return draw;
}

/** Cryptographic bytes, drawn 4 kB at a time: one system call per 256 tokens instead of one each. */
function pooledRandomBytes(): Draw {
  let pool = Buffer.alloc(0);
  let at = 0;
  const take = (n: number) => {
    if (at + n > pool.length) {
      pool = randomBytes(Math.max(4096, n));
      at = 0;
    }
    at += n;
    return at - n;
  };
  const draw = ((n: number) => {
    const from = take(n);
    return Buffer.from(pool.subarray(from, from + n));
  }) as Draw;
  draw.hex = (n) => {
    const from = take(n);
    return pool.toString('hex', from, from + n).toUpperCase();
  };
  return draw;
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
    token: () => bytes.hex(16),
    invalidRequestId: () => {
      next ??= first();
      return String(next++);
    },
    apiKey: () => bytes(30).toString('base64'),
  };
}
