// The journal while another connection replaces the data (an off-thread restore holds this store's
// writes): entries wait in memory and are written once the writes are let go, or are forgotten with
// the data they tell of when that data was replaced.
import { DEFAULT_JOURNAL_QUOTAS, RequestJournal } from '../../src/requests/journal';
import type { NewRequest } from '../../src/store/requests.repo';
import { Store } from '../../src/store/store';

const entry = (path: string): NewRequest => ({
  at: 1_700_000_000_000,
  wallAt: 1_700_000_000_000,
  address: 'api',
  method: 'GET',
  path,
  query: null,
  route: '/v1/payments/{id}',
  siteId: 30201,
  authenticated: true,
  paymentId: null,
  refundId: null,
  splitId: null,
  status: 200,
  reasons: [],
  durationMs: 1.5,
  fault: null,
  nearMiss: null,
  requestBody: null,
  requestBytes: 0,
  responseBody: Buffer.from('{"Payment":{}}'),
  responseBytes: 14,
  ownerSiteId: 30201,
});

describe('the request journal while writes are held', () => {
  let store: Store;
  let journal: RequestJournal;
  const written = () => store.requests.count({});
  beforeEach(() => {
    jest.useFakeTimers();
    store = Store.open(':memory:');
    store.groupCommits();
    journal = new RequestJournal(store, { now: () => 1_700_000_000_000 } as never, { ...DEFAULT_JOURNAL_QUOTAS, marketplace: { entries: 1000, bytes: 1 << 30 } });
  });
  afterEach(() => {
    store.close();
    jest.useRealTimers();
  });

  it('keeps its entries waiting, tries again on its timer, and writes them once the writes are let go', () => {
    journal.add(entry('/v1/payments/1'));
    store.holdWrites();
    journal.flush();
    expect(written()).toBe(0);
    journal.add(entry('/v1/payments/2'));
    // Its timer comes round while the writes are still held: nothing is written, nothing is lost.
    jest.advanceTimersByTime(100);
    expect(written()).toBe(0);
    store.releaseWrites();
    jest.advanceTimersByTime(100);
    expect(store.requests.page({}, { limit: 10, offset: 0, descending: false }).map((r) => r.path)).toEqual(['/v1/payments/1', '/v1/payments/2']);
  });

  it('forgets them when the data they tell of was replaced meanwhile', () => {
    journal.add(entry('/v1/payments/1'));
    store.holdWrites();
    journal.flush();
    store.releaseWrites();
    journal.discard();
    jest.advanceTimersByTime(100);
    expect(written()).toBe(0);
    // What comes after is written as usual.
    journal.add(entry('/v1/payments/3'));
    expect(journal.count({})).toBe(1);
  });

  it('health answers the figures of before while the writes are held, without reading the journal’s file', () => {
    journal.add(entry('/v1/payments/1'));
    const before = journal.health();
    expect(before.Entries).toBe(1);
    store.holdWrites();
    journal.add(entry('/v1/payments/2'));
    const shares = jest.spyOn(store.requests, 'shares');
    const files = jest.spyOn(store.requests, 'fileBytes');
    expect(journal.health()).toEqual(before);
    expect([shares.mock.calls.length, files.mock.calls.length]).toEqual([0, 0]);
    store.releaseWrites();
    expect(journal.health().Entries).toBe(2);
  });
});
