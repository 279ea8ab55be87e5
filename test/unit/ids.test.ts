// Tokens of the sandbox's randomness: the same sequence, run after run, and the real RedirectURL's shape.
import { createIds } from '../../src/ids';

/** The seeded byte sequence, written out plainly (splitmix32), and a token as 16 of its bytes in upper-case hex. */
function plainTokens(seed: number, count: number): string[] {
  let state = seed >>> 0;
  const byte = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) & 0xff;
  };
  // The first InvalidRequestID of a seeded run is drawn first (4 bytes).
  for (let i = 0; i < 4; i++) byte();
  return Array.from({ length: count }, () => Buffer.from(Array.from({ length: 16 }, byte)).toString('hex').toUpperCase());
}

describe('tokens', () => {
  it('of a seeded run are its byte sequence in upper-case hex, token after token', () => {
    const ids = createIds(7);
    const tokens = Array.from({ length: 300 }, () => ids.token());
    expect(tokens).toEqual(plainTokens(7, 300));
    expect(tokens.slice(0, 2)).toEqual(['63C7C0E5DE252C93FE20E7023611DAF3', '16A7C58E614336FA67B4BE4839AB6799']);
  });

  it('of an unseeded run are 32 upper-case hex digits, all different, across the refills of the pool', () => {
    const ids = createIds();
    const tokens = Array.from({ length: 1000 }, () => ids.token());
    for (const t of tokens) expect(t).toMatch(/^[0-9A-F]{32}$/);
    expect(new Set(tokens).size).toBe(1000);
  });
});
