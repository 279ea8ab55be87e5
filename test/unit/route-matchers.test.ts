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

  it("refuses by a route's leading text exactly the paths its expression refuses, in either case where the route ignores it", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const lib = require('path-to-regexp') as {
      match: (path: string, options?: Record<string, unknown>) => (input: string) => unknown;
      pathToRegexp: (path: string, options?: Record<string, unknown>) => { regexp: RegExp };
    };
    compileRoutesOnce();
    const decode = (v: string) => v;
    const paths = ['/v1/payments', '/v1/payments/:id/splits/:splitId/capture', '/_sandbox', '/_sandbox/health', '/Home/Preapproval/:action', '/images/methods/:file', '/v1/refunds/types/:methodId/:country/:currency', '/a-b_c.d/:x', '/x{/:y}/z', '/files/*rest', '/kinds', '/'];
    const inputs = ['/v1/payments', '/V1/PAYMENTS', '/v1/payments/', '/v1/payments/12/splits/3/capture', '/V1/Payments/12/SPLITS/3/Capture', '/v1/paymentsx', '/v1/pay', '/v2/payments', '/_sandbox', '/_SANDBOX/Health', '/_sandbox/health/', '/_Sandbox/healthy', '/home/preapproval/go', '/HOME/PREAPPROVAL/go/', '/images/methods/x.png', '/Images/Methods/x.png', '/v1/refunds/types/1/DE/EUR', '/A-B_C.D/1', '/a-b_c.d/1', '/a-B_C.D', '/x/z', '/X/1/Z', '/files/a/b', '/FILES/a', '', '/', '//v1/payments',
      // Beyond ASCII, case folds that the expressions' i flag does not make without the u flag.
      '/v1/payment\u017f', '/\u212Ainds', '/_sandbox/healt\u0130', '/v1/p\u00e1yments', '/\u0130mages/methods/x.png'];
    const optionSets: (Record<string, unknown> | undefined)[] = [undefined, { sensitive: false, end: true, trailing: true, decode }, { sensitive: true, end: true, trailing: true, decode }, { sensitive: false, end: false, trailing: true, decode }, { sensitive: true, end: false, trailing: false, decode }];
    let compared = 0;
    for (const path of paths) {
      for (const options of optionSets) {
        const matcher = lib.match(path, options);
        const { regexp } = lib.pathToRegexp(path, options);
        for (const input of inputs) {
          expect([path, options?.sensitive, options?.end, input, matcher(input) !== false]).toEqual([path, options?.sensitive, options?.end, input, regexp.test(input)]);
          compared++;
        }
      }
    }
    expect(compared).toBe(paths.length * optionSets.length * inputs.length);
  });
});

