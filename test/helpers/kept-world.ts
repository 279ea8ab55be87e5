// A world and what a file's tests set up in it, kept from one test to the next while its tables are exactly as the set-up left them.
import { type World, makeWorld, snapshot } from './world';

/**
 * For files of many tests that each send requests the sandbox refuses, which change nothing: making a
 * world (and the payment they act on) for each test was most of such a file's time. A test is handed
 * the world only while every table is as its set-up left it (snapshot(), the same picture the tests'
 * own "nothing changed" checks take); a test that leaves anything behind has its world closed after
 * it, and the next test that asks gets a new one. What no table holds goes on from test to test (the
 * request journal, the InvalidRequestIDs drawn): only for tests that read neither. As
 * test/validation/create-fields.test.ts keeps its worlds.
 *
 * Call it in a describe (it registers an afterEach and an afterAll there); a test awaits the function
 * it returns for its world and what `setUp` made in it.
 */
export function keptWorld<T = undefined>(setUp: (w: World) => Promise<T> | T = () => undefined as T): () => Promise<{ w: World; made: T }> {
  let kept: { w: World; made: T; pristine: string } | undefined;
  let taken = false;
  afterEach(() => {
    if (!taken) return;
    taken = false;
    if (kept && snapshot(kept.w.store) !== kept.pristine) {
      kept.w.close();
      kept = undefined;
    }
  });
  afterAll(() => {
    kept?.w.close();
    kept = undefined;
  });
  return async () => {
    if (!kept) {
      const w = makeWorld();
      try {
        const made = await setUp(w);
        kept = { w, made, pristine: snapshot(w.store) };
      } catch (e) {
        w.close();
        throw e;
      }
    }
    taken = true;
    return { w: kept.w, made: kept.made };
  };
}
