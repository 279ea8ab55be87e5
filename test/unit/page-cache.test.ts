// Kept answers are bounded in size as well as in number: a few pages of 1,000 payments must not hold
// hundreds of MB. They are kept as UTF-8 bytes, written as they are to every request.
import { MAX_KEPT_BYTES, PageCache } from '../../src/http/page-cache';
import type { Store } from '../../src/store/store';

function cacheOver(stamp: { value: string }) {
  return new PageCache({ dataStamp: () => stamp.value } as unknown as Store);
}

describe('kept answers', () => {
  it('are rendered once while nothing is written, and again after a write', () => {
    const stamp = { value: 'a' };
    const cache = cacheOver(stamp);
    const render = jest.fn(() => ({ Payments: [1, 2] }));
    const first = cache.get('k', render);
    expect(first.toString('utf8')).toBe('{"Payments":[1,2]}');
    // The same bytes, not encoded again.
    expect(cache.get('k', render)).toBe(first);
    expect(render).toHaveBeenCalledTimes(1);
    stamp.value = 'b';
    cache.get('k', render);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('does not keep an answer larger than the bound alone', () => {
    const cache = cacheOver({ value: 'a' });
    const big = 'x'.repeat(MAX_KEPT_BYTES);
    const render = jest.fn(() => big);
    expect(cache.get('big', render).toString('utf8')).toBe(JSON.stringify(big));
    cache.get('big', render);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('lets older answers go when keeping another would pass the bound', () => {
    const cache = cacheOver({ value: 'a' });
    // Four such answers (each with its two quotes) pass the bound by eight; three fit.
    const quarter = 'x'.repeat(MAX_KEPT_BYTES / 4);
    const renders = { a: jest.fn(() => quarter), b: jest.fn(() => quarter), c: jest.fn(() => quarter), d: jest.fn(() => quarter) };
    for (const key of ['a', 'b', 'c', 'a'] as const) cache.get(key, renders[key]);
    expect(renders.a).toHaveBeenCalledTimes(1);
    cache.get('d', renders.d);
    cache.get('d', renders.d);
    cache.get('a', renders.a);
    expect([renders.a.mock.calls.length, renders.b.mock.calls.length, renders.c.mock.calls.length, renders.d.mock.calls.length]).toEqual([2, 1, 1, 1]);
  });
});
