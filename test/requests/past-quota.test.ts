// Entries pushed past their owner's quota wait in the journal's file to be deleted together; whoever
// reads the journal (a find, a count, health, a copy, the next start) sees exactly the quota's entries,
// and a kept answer goes with the last entry naming it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_JOURNAL_QUOTAS, type JournalQuotas, RequestJournal } from '../../src/requests/journal';
import { copyDatabase } from '../../src/store/copies';
import type { NewRequest } from '../../src/store/requests.repo';
import { Store } from '../../src/store/store';

const NOW = 1_700_000_000_000;
const QUOTA = 100;
const quotas: JournalQuotas = { ...DEFAULT_JOURNAL_QUOTAS, marketplace: { entries: QUOTA, bytes: 1 << 30 } };

/** A read of payment `n`, answered with `answer`. */
const read = (n: number, answer: string): NewRequest => ({
  at: NOW,
  wallAt: NOW,
  address: 'api',
  method: 'GET',
  path: `/v1/payments/${n}`,
  query: null,
  route: '/v1/payments/{id}',
  siteId: 30201,
  authenticated: true,
  paymentId: n,
  refundId: null,
  splitId: null,
  status: 200,
  reasons: [],
  durationMs: 1.5,
  fault: null,
  nearMiss: null,
  requestBody: null,
  requestBytes: 0,
  responseBody: answer,
  responseBytes: Buffer.byteLength(answer),
  ownerSiteId: 30201,
});

const A = '{"Payment":{"ID":1,"Note":"the first answer"}}';
const B = '{"Payment":{"ID":2,"Note":"the second answer"}}';

describe('entries past their quota', () => {
  let dir: string;
  let store: Store;
  let journal: RequestJournal;
  /** The entries in the journal's file, read past the journal (as no reader of it does). */
  const inFile = () => store.db.prepare('SELECT count(*) FROM journal.requests').pluck().get() as number;
  const bodies = () => store.db.prepare('SELECT body, refs FROM journal.request_bodies ORDER BY id').all();
  const answers = () => store.db.prepare('SELECT count(*) FROM journal.request_answers').pluck().get() as number;
  /** Adds reads 1..n (A's answer for the first half, B's after), written as the load writes them: in batches, on their timer. */
  const load = async (n: number, from = 1) => {
    for (let i = from; i < from + n; i++) {
      journal.add(read(i, i < from + n / 2 ? A : B));
      if ((i - from + 1) % 256 === 0) await Promise.resolve();
    }
    await Promise.resolve();
    jest.advanceTimersByTime(100);
  };
  const open = (file: string) => {
    store = Store.open(file);
    journal = new RequestJournal(store, { now: () => NOW } as never, quotas);
  };

  beforeEach(() => {
    jest.useFakeTimers();
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-past-quota-'));
  });
  afterEach(() => {
    if (store.db.open) store.close();
    jest.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wait in the file, and every reader sees exactly the newest entries of the quota, each answer kept while an entry names it', async () => {
    open(':memory:');
    await load(300);
    // Written, the 200 oldest past the quota, and not yet deleted.
    expect(inFile()).toBe(300);
    expect(journal.count({})).toBe(QUOTA);
    expect(inFile()).toBe(QUOTA);
    const found = journal.find({}, { limit: 1000, offset: 0, descending: false });
    expect(found.map((r) => r.paymentId)).toEqual(Array.from({ length: QUOTA }, (_, i) => 201 + i));
    expect(found.every((r) => r.responseBody === B)).toBe(true);
    // A's answer went with the last entry naming it; B's is named by each entry kept.
    expect(bodies()).toEqual([{ body: B, refs: QUOTA }]);
    expect(answers()).toBe(QUOTA);
    const health = journal.health();
    expect(health.Entries).toBe(QUOTA);
    expect(health.StoredBytes).toBe(found.reduce((n, r) => n + r.storedBytes, 0));
  });

  it('count for no quota while they wait: the quota holds the newest entries as they come', async () => {
    open(':memory:');
    await load(150);
    await load(150, 151);
    expect(inFile()).toBe(300);
    const found = journal.find({}, { limit: 1000, offset: 0, descending: true });
    expect(found.length).toBe(QUOTA);
    expect(found[0]!.paymentId).toBe(300);
    expect(found[QUOTA - 1]!.paymentId).toBe(201);
  });

  it('are deleted together once they are many, whether or not anyone reads', async () => {
    open(':memory:');
    let most = 0;
    for (let i = 0; i < 12; i++) {
      await load(256, 1 + i * 256);
      most = Math.max(most, inFile());
    }
    // 3072 written: those past the quota waited, 2048 at most, and went together.
    expect(most).toBeGreaterThan(QUOTA + 1024);
    expect(most).toBeLessThanOrEqual(QUOTA + 2048 + 256);
    expect(inFile()).toBeLessThan(12 * 256);
    expect(journal.count({})).toBe(QUOTA);
    expect(store.requests.shares().get(30201)).toEqual({ entries: QUOTA, bytes: journal.find({}, { limit: 1000, offset: 0, descending: false }).reduce((n, r) => n + r.storedBytes, 0) });
  });

  it('deleted together, leave each owner’s share and each kept answer’s count as the entries in the file say, and other deletions keep them so too', async () => {
    open(':memory:');
    journal = new RequestJournal(store, { now: () => NOW } as never, { ...quotas, unauthenticated: { entries: 30, bytes: 1 << 30 } });
    for (let i = 1; i <= 3000; i++) {
      const e = read(i, i % 3 === 0 ? A : i % 3 === 1 ? B : `{"Payment":{"ID":${i % 7}}}`);
      journal.add(i % 4 === 0 ? { ...e, authenticated: false, ownerSiteId: null } : e);
      if (i % 256 === 0) await Promise.resolve();
    }
    await Promise.resolve();
    jest.advanceTimersByTime(100);
    const consistent = () => {
      const shares = store.db.prepare('SELECT owner, entries, bytes FROM journal.request_shares WHERE entries > 0 ORDER BY owner').all();
      const rows = store.db
        .prepare('SELECT coalesce(owner_site_id, 0) AS owner, count(*) AS entries, sum(stored_bytes) AS bytes FROM journal.requests GROUP BY 1 ORDER BY 1')
        .all();
      expect(shares).toEqual(rows);
      const refs = store.db.prepare('SELECT id, refs FROM journal.request_bodies ORDER BY id').all();
      const named = store.db.prepare('SELECT body_id AS id, count(*) AS refs FROM journal.request_answers GROUP BY 1 ORDER BY 1').all();
      expect(refs).toEqual(named);
    };
    consistent();
    expect(journal.count({})).toBe(QUOTA + 30);
    consistent();
    // Retention drops a payment's entries, one by one through the triggers.
    const [newest] = journal.find({ owner: 30201 }, { limit: 1, offset: 0, descending: true });
    expect(journal.clear({ paymentId: newest!.paymentId! })).toBe(1);
    consistent();
    expect(journal.count({})).toBe(QUOTA + 29);
  });

  it('left in the file by a process that stopped without closing, are not seen after the next start', async () => {
    const file = join(dir, 'sandbox.db');
    open(file);
    await load(300);
    expect(inFile()).toBe(300);
    // Killed: nothing more written, nothing deleted.
    store.db.close();
    open(file);
    expect(journal.health().Entries).toBe(QUOTA);
    expect(journal.find({}, { limit: 1000, offset: 0, descending: false }).map((r) => r.paymentId)).toEqual(Array.from({ length: QUOTA }, (_, i) => 201 + i));
    expect(bodies()).toEqual([{ body: B, refs: QUOTA }]);
  });

  it('are not carried by a copy of the database taken while they wait', async () => {
    open(join(dir, 'sandbox.db'));
    await load(300);
    expect(inFile()).toBe(300);
    const target = join(dir, 'copy.db');
    await copyDatabase(store, target);
    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.prepare('SELECT payment_id FROM requests_kept ORDER BY id').pluck().all()).toEqual(Array.from({ length: QUOTA }, (_, i) => 201 + i));
      expect(copy.prepare('SELECT DISTINCT response_body FROM requests_kept').pluck().all()).toEqual([B]);
    } finally {
      copy.close();
    }
  });
});
