// Credentials that held are checked once, and known until a site changes: a key set or regenerated,
// a change undone by a rollback, or credentials that failed never let a request through.
import { siteOf } from '../../src/services/auth.service';
import type { ServiceContext } from '../../src/services/context';
import type { SiteRecord } from '../../src/store/records';
import { MARKETPLACE, basic, makeWorld } from '../helpers/world';

describe('known credentials', () => {
  it('checks a header that held once, until any site changes', () => {
    const site = { siteId: 1, apiKey: 'key' } as SiteRecord;
    const sites = { generation: 0, get: jest.fn(() => site) };
    const ctx = { store: { sites } } as unknown as ServiceContext;
    for (let i = 0; i < 3; i++) expect(siteOf(ctx, basic(1, 'key'))).toBe(site);
    expect(sites.get).toHaveBeenCalledTimes(1);
    sites.generation++;
    expect(siteOf(ctx, basic(1, 'key'))).toBe(site);
    expect(sites.get).toHaveBeenCalledTimes(2);
    // Failed credentials are checked each time (and never kept).
    for (let i = 0; i < 3; i++) expect(siteOf(ctx, basic(1, 'wrong'))).toBeUndefined();
    expect(sites.get).toHaveBeenCalledTimes(5);
  });

  it('lets the old key go at once when the key changes, and takes the new one', () => {
    const w = makeWorld();
    const old = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
    expect(siteOf(w.services, old)?.siteId).toBe(MARKETPLACE.SiteID);
    w.store.tx(() => w.store.sites.setApiKey(MARKETPLACE.SiteID, 'new-key'));
    expect(siteOf(w.services, old)).toBeUndefined();
    expect(siteOf(w.services, basic(MARKETPLACE.SiteID, 'new-key'))?.siteId).toBe(MARKETPLACE.SiteID);
    w.close();
  });

  it('forgets a key read inside a transaction that was rolled back', () => {
    const w = makeWorld();
    const old = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
    const fresh = basic(MARKETPLACE.SiteID, 'new-key');
    expect(() =>
      w.store.tx(() => {
        w.store.sites.setApiKey(MARKETPLACE.SiteID, 'new-key');
        expect(siteOf(w.services, fresh)?.siteId).toBe(MARKETPLACE.SiteID);
        throw new Error('undone');
      }),
    ).toThrow('undone');
    expect(siteOf(w.services, fresh)).toBeUndefined();
    expect(siteOf(w.services, old)?.siteId).toBe(MARKETPLACE.SiteID);
    w.close();
  });
});
