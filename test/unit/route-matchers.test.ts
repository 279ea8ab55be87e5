// Route paths are compiled once a process: a second sandbox's routers reuse the first's matchers.
import { makeWorld } from '../helpers/world';

interface Layer {
  matchers?: unknown[];
  route?: { stack: Layer[] };
  handle?: { stack?: Layer[] };
}

/** Every layer's path matchers, routers and routes walked in order. */
function matchersOf(stack: Layer[]): unknown[] {
  return stack.flatMap((l) => [...(l.matchers ?? []), ...matchersOf(l.route?.stack ?? []), ...matchersOf(l.handle?.stack ?? [])]);
}

describe('route matchers', () => {
  it('a second app of either address shares the first’s compiled paths', () => {
    const a = makeWorld();
    const b = makeWorld();
    try {
      for (const app of ['api', 'card'] as const) {
        const first = matchersOf((a[app] as unknown as { router: { stack: Layer[] } }).router.stack);
        const second = matchersOf((b[app] as unknown as { router: { stack: Layer[] } }).router.stack);
        expect(first.length).toBeGreaterThan(50);
        expect(second.length).toBe(first.length);
        expect(second.filter((m, i) => m !== first[i])).toEqual([]);
      }
    } finally {
      a.close();
      b.close();
    }
  });
});
