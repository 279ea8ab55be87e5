// A test's world after the first of its file starts from a copy of that one's database, fixtures
// loaded: the same database, byte for byte, as loading them again would make.
import * as fixtures from '../../src/fixtures';
import { openDatabase } from '../../src/store/db';
import { Store } from '../../src/store/store';
import { MARKETPLACE, basic, createPayment, makeWorld } from '../helpers/world';

describe('the worlds of a test file', () => {
  it('after the first, load no fixtures, and hold the database loading them makes, byte for byte', () => {
    const first = makeWorld();
    const load = jest.spyOn(fixtures, 'loadFixtures');
    try {
      const next = makeWorld();
      expect(load).not.toHaveBeenCalled();
      // A world whose start loads them (its own database given) has the same bytes.
      const loaded = makeWorld({}, new Store(openDatabase(':memory:')));
      expect(load).toHaveBeenCalledTimes(1);
      expect(next.store.db.serialize().equals(loaded.store.db.serialize())).toBe(true);
      expect(next.store.db.serialize().equals(first.store.db.serialize())).toBe(true);
      for (const w of [first, next, loaded]) w.close();
    } finally {
      load.mockRestore();
    }
  });

  it('each have their own database: what one writes, the next does not see', async () => {
    const a = makeWorld();
    await createPayment(a);
    const b = makeWorld();
    expect(b.store.db.prepare('SELECT count(*) FROM payments').pluck().get()).toBe(0);
    expect(a.store.db.prepare('SELECT count(*) FROM payments').pluck().get()).toBe(1);
    expect(b.auth).toBe(basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey));
    a.close();
    b.close();
  });

  it('load the fixtures afresh where the copy is not what their start loads: unseeded, or other fixtures', () => {
    makeWorld().close();
    const load = jest.spyOn(fixtures, 'loadFixtures');
    try {
      makeWorld({ seed: undefined }).close();
      makeWorld({ fixtures: `${fixtures.DEFAULT_FIXTURES_DIR}/` }).close();
      expect(load).toHaveBeenCalledTimes(2);
    } finally {
      load.mockRestore();
    }
  });
});
