// Route paths are compiled once a process: a second sandbox's routers reuse the first's matchers.
import { compileRoutesOnce } from '../../src/http/route-matchers';
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

  it('a second copy of the sources in the process leaves path-to-regexp as the first made it', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const lib = require('path-to-regexp') as { match: unknown };
    compileRoutesOnce();
    const remembering = lib.match;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const copy = require('../../src/http/route-matchers') as typeof import('../../src/http/route-matchers');
      expect(copy.compileRoutesOnce).not.toBe(compileRoutesOnce);
      copy.compileRoutesOnce();
    });
    expect(lib.match).toBe(remembering);
  });
});
