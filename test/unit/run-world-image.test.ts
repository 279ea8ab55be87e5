// A test file's first world too starts from a copy, of the run's image (test/helpers/world-image.ts):
// the database loading the fixtures makes, byte for byte.
import * as fixtures from '../../src/fixtures';
import { openDatabase } from '../../src/store/db';
import { Store } from '../../src/store/store';
import { makeWorld } from '../helpers/world';
import { runImage } from '../helpers/world-image';

describe('the first world of a test file', () => {
  it('loads no fixtures: it is the run’s image, the database loading them makes', () => {
    const load = jest.spyOn(fixtures, 'loadFixtures');
    try {
      const first = makeWorld();
      expect(load).not.toHaveBeenCalled();
      const loaded = makeWorld({}, new Store(openDatabase(':memory:')));
      expect(load).toHaveBeenCalledTimes(1);
      expect(first.store.db.serialize().equals(loaded.store.db.serialize())).toBe(true);
      expect(runImage()!.equals(loaded.store.db.serialize())).toBe(true);
      for (const w of [first, loaded]) w.close();
    } finally {
      load.mockRestore();
    }
  });
});
