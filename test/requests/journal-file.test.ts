// The request journal's own database file beside a file database: where its entries are, that they
// survive a restart and travel with a snapshot (saved, and restored off the main thread), that a
// database written before it had its own file hands its entries over, and that a damaged file is
// replaced by an empty one.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { migrate } from '../../src/store/db';
import { sql as twelve } from '../../src/store/migrations/0012-requests';
import { AUTH, createPayment } from '../lifecycle/harness';

const ENTRY = [
  1_795_000_000_000, 1_795_000_000_000, 'api', 'POST', '/v1/payments', null, '/v1/payments', 30201, 1, 5_000_001, null, null, 201, null, 3.5, null, null,
  '{"Payment":{}}', 14, '{"Payment":{"ID":5000001}}', 26,
];

describe('the request journal’s own file', () => {
  let dir: string;
  let db: string;
  let sb: Sandbox | undefined;
  const start = async () => (sb = await startSandbox({ port: 0, cardPort: 0, db, clock: 'manual', quiet: true }));
  const routes = () => sb!.requests.find().map((r) => `${r.Method} ${r.Route} ${r.Status}`);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-journal-'));
    db = join(dir, 'sandbox.db');
  });
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('is <db>-requests: the database itself keeps no entry, and the journal outlives a restart', async () => {
    await start();
    const p = await createPayment(sb!);
    await request(sb!.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH).expect(200);
    expect(routes()).toEqual(['POST /v1/payments 201', 'GET /v1/payments/{id} 200']);
    await sb!.stop();
    sb = undefined;
    expect(existsSync(`${db}-requests`)).toBe(true);
    const main = new Database(db, { readonly: true });
    expect(main.prepare('SELECT count(*) FROM requests_kept').pluck().get()).toBe(0);
    main.close();
    const file = new Database(`${db}-requests`, { readonly: true });
    expect(file.prepare('SELECT method, route, payment_id FROM requests ORDER BY id').all()).toEqual([
      { method: 'POST', route: '/v1/payments', payment_id: p.ID },
      { method: 'GET', route: '/v1/payments/{id}', payment_id: p.ID },
    ]);
    file.close();
    await start();
    expect(routes()).toEqual(['POST /v1/payments 201', 'GET /v1/payments/{id} 200']);
  });

  it('keeps the entries of answers that left just before a stop (written by the stop), in a file of 16 KiB pages', async () => {
    await start();
    const p = await createPayment(sb!);
    // No read in between: the entries wait for their batch, and the stop writes them.
    await request(sb!.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH).send({});
    await sb!.stop();
    sb = undefined;
    const file = new Database(`${db}-requests`, { readonly: true });
    expect(file.pragma('page_size', { simple: true })).toBe(16384);
    expect(file.prepare('SELECT method, route, payment_id FROM requests ORDER BY id').all()).toEqual([
      { method: 'POST', route: '/v1/payments', payment_id: p.ID },
      { method: 'POST', route: '/v1/payments/{id}/capture', payment_id: p.ID },
    ]);
    file.close();
  });

  it('travels with a snapshot of a file database: saved with it, and back with its restore (off the main thread)', async () => {
    await start();
    await createPayment(sb!);
    await sb!.snapshots.save('one');
    await createPayment(sb!);
    const [kept, later] = sb!.requests.find({ Route: '/v1/payments' });
    const snapshot = new Database(join(`${db}.snapshots`, 'one.db'), { readonly: true });
    expect(snapshot.prepare('SELECT id FROM requests_kept').pluck().all()).toEqual([kept!.ID]);
    snapshot.close();
    await sb!.snapshots.restore('one');
    expect(sb!.requests.find()).toEqual([kept]);
    expect(sb!.requests.get(later!.ID)).toBeUndefined();
    // The copy's entries were moved, not left behind in the database.
    expect(sb!.services.store.db.prepare('SELECT count(*) FROM main.requests_kept').pluck().get()).toBe(0);
    // New entries go on after the restored ones.
    await request(sb!.baseUrl).get('/v1/payments').set('Authorization', AUTH).expect(200);
    expect(sb!.requests.find().map((r) => r.ID)).toEqual([kept!.ID, later!.ID + 1]);
  });

  it('keeps each owner’s share as its entries add up: written in batches, in a file that still had the insert trigger, after a restore and after a marketplace’s own', async () => {
    const counted = () => {
      const store = sb!.services.store;
      store.requests.shares(); // the entries waiting are written by whoever reads the journal
      sb!.requests.find();
      const byOwner = store.db
        .prepare('SELECT coalesce(owner_site_id, 0) AS owner, count(*) AS entries, sum(stored_bytes) AS bytes FROM journal.requests GROUP BY 1 ORDER BY 1')
        .all() as { owner: number; entries: number; bytes: number }[];
      const shares = [...store.requests.shares()].map(([owner, s]) => ({ owner, ...s })).sort((a, b) => a.owner - b.owner);
      expect(byOwner.length).toBeGreaterThan(0);
      expect(shares).toEqual(byOwner);
    };
    await start();
    const p = await createPayment(sb!);
    await Promise.all(Array.from({ length: 40 }, () => request(sb!.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH).expect(200)));
    await request(sb!.baseUrl).get('/v1/payments').set('Authorization', 'Basic eDp5').expect(401);
    counted();
    await sb!.stop();
    sb = undefined;
    // An older version's file: its shares were kept by a trigger on each insert, which would count twice now.
    const old = new Database(`${db}-requests`);
    old.exec(`CREATE TRIGGER request_shares_add AFTER INSERT ON requests BEGIN
      INSERT INTO request_shares (owner, entries, bytes) VALUES (coalesce(NEW.owner_site_id, 0), 1, NEW.stored_bytes)
        ON CONFLICT (owner) DO UPDATE SET entries = entries + 1, bytes = bytes + excluded.bytes;
    END`);
    old.close();
    await start();
    await request(sb!.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH).expect(200);
    counted();
    await sb!.snapshots.save('one');
    await createPayment(sb!);
    await sb!.snapshots.restore('one');
    counted();
    await request(sb!.baseUrl).post('/_sandbox/merchants/30201/snapshots').set('Authorization', AUTH).send({ Name: 'own' }).expect(201);
    await request(sb!.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH).expect(200);
    await request(sb!.baseUrl).post('/_sandbox/merchants/30201/snapshots/own/restore').set('Authorization', AUTH).expect(200);
    counted();
  });

  it('is not made with --request-journal 0, and a snapshot of that database is saved and restored (off the main thread) all the same', async () => {
    sb = await startSandbox({ port: 0, cardPort: 0, db, clock: 'manual', quiet: true, requestJournal: 0 });
    const p = await createPayment(sb!);
    await sb!.snapshots.save('one');
    await createPayment(sb!);
    await sb!.snapshots.restore('one');
    const list = await request(sb!.baseUrl).get('/v1/payments').set('Authorization', AUTH).expect(200);
    expect(list.body.Payments.map((x: { ID: number }) => x.ID)).toEqual([p.ID]);
    await sb!.stop();
    sb = undefined;
    expect(existsSync(db)).toBe(true);
    expect([existsSync(`${db}-requests`), existsSync(`${db}-requests-journal`)]).toEqual([false, false]);
  });

  it('takes over the entries a database of an older version kept in its requests table', async () => {
    const old = new Database(db);
    old.pragma('journal_mode = WAL');
    migrate(old, 14);
    old.prepare(`INSERT INTO requests (at, wall_at, address, method, path, query, route, site_id, authenticated, payment_id, refund_id, split_id, status,
      reasons, duration_ms, fault, near_miss, request_body, request_bytes, response_body, response_bytes) VALUES (${ENTRY.map(() => '?').join(', ')})`).run(...ENTRY);
    old.close();
    await start();
    const [entry] = sb!.requests.find();
    expect([entry!.ID, entry!.Route, entry!.PaymentID, entry!.Response.Body]).toEqual([1, '/v1/payments', 5_000_001, '{"Payment":{"ID":5000001}}']);
    expect(sb!.services.store.db.prepare('SELECT count(*) FROM main.requests_kept').pluck().get()).toBe(0);
    await request(sb!.baseUrl).get('/v1/payments').set('Authorization', AUTH).expect(200);
    expect(sb!.requests.find().map((r) => r.ID)).toEqual([1, 2]);
  });

  it('health reports the journal file’s bytes (the database’s do not count it), its entries and its quotas', async () => {
    sb = await startSandbox({
      port: 0, cardPort: 0, db, clock: 'manual', quiet: true,
      requestJournal: 300, requestJournalBytes: 5_000_000, requestJournalUnauthenticated: 7, requestJournalUnauthenticatedBytes: 70_000, requestJournalFileBytes: 9_000_000,
    });
    await createPayment(sb!);
    await request(sb!.baseUrl).get('/v1/payments').set('Authorization', 'Basic ' + Buffer.from('30201:wrong').toString('base64')).expect(401);
    const health = (await request(sb!.baseUrl).get('/_sandbox/health').expect(200)).body;
    const entries = sb!.requests.find();
    expect(health.RequestJournal).toEqual({
      FileBytes: statSync(`${db}-requests`).size,
      FileFreeBytes: expect.any(Number),
      Entries: 2,
      StoredBytes: entries.reduce((n, r) => n + r.StoredBytes, 0),
      Unauthenticated: { Entries: 1, StoredBytes: entries[1]!.StoredBytes },
      LargestMarketplaceStoredBytes: entries[0]!.StoredBytes,
      Quotas: { Marketplace: { Entries: 300, StoredBytes: 5_000_000 }, Unauthenticated: { Entries: 7, StoredBytes: 70_000 }, FileStoredBytes: 9_000_000 },
    });
    expect(health.RequestJournal.FileBytes).toBeGreaterThan(0);
  });

  it('gives the entries of a journal file written before owners their owners and sizes: a refused claim is no one’s, a payer press its payment’s marketplace’s', async () => {
    await start();
    await sb!.stop();
    sb = undefined;
    rmSync(`${db}-requests`);
    const old = new Database(`${db}-requests`);
    old.exec(twelve);
    const insert = old.prepare(`INSERT INTO requests (at, wall_at, address, method, path, query, route, site_id, authenticated, payment_id, refund_id, split_id, status,
      reasons, duration_ms, fault, near_miss, request_body, request_bytes, response_body, response_bytes) VALUES (${ENTRY.map(() => '?').join(', ')})`);
    insert.run(...ENTRY);
    // A wrong key claiming 30300, and a payer's press on a payment of 30202 (a linked site of 30201).
    insert.run(...ENTRY.slice(0, 7), 30300, 0, null, null, null, 401, null, 1, null, 'SiteID 30300: wrong APIKey', '{}', 2, '{"Message":"x"}', 15);
    insert.run(...ENTRY.slice(0, 3), 'POST', '/home/pay', null, null, 30202, 0, 5_000_001, null, null, 303, null, 1, null, null, 'a=1', 3, null, 0);
    old.close();
    await start();
    const entries = sb!.requests.find();
    expect(entries.map((r) => [r.SiteID, r.Unauthenticated])).toEqual([
      [30201, false],
      [30300, true],
      [30202, false],
    ]);
    expect(entries[0]!.StoredBytes).toBe(256 + 'POST'.length + 2 * '/v1/payments'.length + 14 + 26);
    expect((await request(sb!.baseUrl).get('/_sandbox/merchants/30201/requests').set('Authorization', AUTH)).body.Requests.map((r: { ID: number }) => r.ID)).toEqual([3, 1]);
    const health = (await request(sb!.baseUrl).get('/_sandbox/health')).body;
    expect(health.RequestJournal.Unauthenticated).toEqual({ Entries: 1, StoredBytes: entries[1]!.StoredBytes });
    expect(health.RequestJournal.Entries).toBe(3);
  });

  it('migration 17 gives a copy’s kept entries their owners and sizes, as the journal file’s', () => {
    const old = new Database(':memory:');
    migrate(old, 15);
    old.prepare("INSERT INTO sites (site_id, api_key, name, marketplace_site_id) VALUES (30201, 'k', 'M', NULL), (30202, NULL, 'L', 30201), (30300, 'k2', 'P', NULL)").run();
    const insert = old.prepare(`INSERT INTO requests_kept (at, wall_at, address, method, path, query, route, site_id, authenticated, payment_id, refund_id, split_id, status,
      reasons, duration_ms, fault, near_miss, request_body, request_bytes, response_body, response_bytes) VALUES (${ENTRY.map(() => '?').join(', ')})`);
    insert.run(...ENTRY);
    insert.run(...ENTRY.slice(0, 7), 30300, 0, null, null, null, 401, null, 1, null, null, null, 0, null, 0);
    insert.run(...ENTRY.slice(0, 7), 30202, 0, null, null, null, 303, null, 1, null, null, null, 0, null, 0);
    migrate(old);
    expect(old.prepare('SELECT owner_site_id, stored_bytes FROM requests_kept ORDER BY id').all()).toEqual([
      { owner_site_id: 30201, stored_bytes: 256 + 4 + 24 + 14 + 26 },
      { owner_site_id: null, stored_bytes: 256 + 4 + 24 },
      { owner_site_id: 30201, stored_bytes: 256 + 4 + 24 },
    ]);
    old.close();
  });

  it('replaces a damaged journal file with an empty one, and the sandbox starts', async () => {
    writeFileSync(`${db}-requests`, 'this is not a SQLite database, and never was one: '.repeat(200));
    await start();
    expect(sb!.requests.count()).toBe(0);
    await request(sb!.baseUrl).get('/v1/payments').set('Authorization', AUTH).expect(200);
    expect(routes()).toEqual(['GET /v1/payments 200']);
  });
});
