// A read's answer kept once in the journal's file, however many entries tell of it: its entries read
// back whole, it goes with the last entry naming it (a clear, a quota), a file written before opens
// with its entries as they were, and snapshots (the database's, a marketplace's own) carry entries whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { sql as twelve } from '../../src/store/migrations/0012-requests';
import { AUTH, createPayment } from '../lifecycle/harness';

describe('the request journal keeps a read’s answer once', () => {
  let dir: string;
  let db: string;
  let sb: Sandbox | undefined;
  const start = async (extra: Record<string, unknown> = {}) => (sb = await startSandbox({ port: 0, cardPort: 0, db, clock: 'manual', quiet: true, ...extra }));
  const get = (path: string) => request(sb!.baseUrl).get(path).set('Authorization', AUTH).expect(200);
  const bodies = () => {
    sb!.requests.count(); // the entries waiting are written by whoever reads the journal
    return sb!.services.store.db.prepare('SELECT body, refs FROM journal.request_bodies ORDER BY id').all() as { body: string; refs: number }[];
  };
  // As retention drops a payment's entries.
  const clearOf = (paymentId: number) => {
    sb!.requests.count();
    sb!.services.store.tx(() => sb!.services.store.requests.clear({ paymentId }));
  };
  const answers = () => sb!.services.store.db.prepare('SELECT count(*) FROM journal.request_answers').pluck().get() as number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-answers-'));
    db = join(dir, 'sandbox.db');
  });
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores an answer given again and again once, and each entry reads it back whole, counted in full against its quota', async () => {
    await start();
    const p = await createPayment(sb!);
    const one = (await get(`/v1/payments/${p.ID}`)).text;
    for (let i = 0; i < 4; i++) await get(`/v1/payments/${p.ID}`);
    const list = (await get('/v1/payments')).text;
    for (let i = 0; i < 5; i++) await get('/v1/payments');
    expect(bodies()).toEqual([
      { body: one, refs: 5 },
      { body: list, refs: 6 },
    ]);
    expect(answers()).toBe(11);
    const reads = sb!.requests.find({ Method: 'GET' });
    expect(reads.map((r) => r.Response.Body)).toEqual([...Array(5).fill(one), ...Array(6).fill(list)]);
    expect(reads.map((r) => r.Response.Bytes)).toEqual([...Array(5).fill(Buffer.byteLength(one)), ...Array(6).fill(Buffer.byteLength(list))]);
    // Each entry counts its answer as before: the quotas' bytes are what the entries tell of, not the file's.
    const read = reads[0]!;
    expect(read.StoredBytes).toBe(256 + 'GET'.length + read.Path.length + read.Route!.length + Buffer.byteLength(one));
    const health = (await request(sb!.baseUrl).get('/_sandbox/health').expect(200)).body;
    expect(health.RequestJournal.StoredBytes).toBe(sb!.requests.find().reduce((n, r) => n + r.StoredBytes, 0));
    // The create's answer (its own) stays in its row.
    const made = sb!.requests.find({ Method: 'POST' })[0]!;
    expect(JSON.parse(made.Response.Body!).Payment.ID).toBe(p.ID);
    const row = sb!.services.store.db.prepare('SELECT response_body FROM journal.requests WHERE id = ?').pluck().get(made.ID);
    expect(row).toBe(made.Response.Body);
  });

  it('lets an answer go with the last entry naming it: cleared, or pushed out by the quota', async () => {
    await start({ requestJournal: 3 });
    const [a, b] = [await createPayment(sb!), await createPayment(sb!)];
    const answerA = (await get(`/v1/payments/${a.ID}`)).text;
    await get(`/v1/payments/${a.ID}`);
    const answerB = (await get(`/v1/payments/${b.ID}`)).text;
    // Three entries kept: the two creates went first.
    expect(sb!.requests.count()).toBe(3);
    expect(bodies()).toEqual([
      { body: answerA, refs: 2 },
      { body: answerB, refs: 1 },
    ]);
    // B's entry cleared: its answer goes, A's stays.
    const [firstA] = sb!.requests.find({ Path: `/v1/payments/${a.ID}` });
    clearOf(b.ID);
    expect(bodies()).toEqual([{ body: answerA, refs: 2 }]);
    expect(answers()).toBe(2);
    // The quota pushes A's entries out with three reads of B: A's answer goes with them.
    for (let i = 0; i < 3; i++) await get(`/v1/payments/${b.ID}`);
    expect(sb!.requests.get(firstA!.ID)).toBeUndefined();
    expect(bodies()).toEqual([{ body: answerB, refs: 3 }]);
    expect(answers()).toBe(3);
    // Cleared whole, nothing of them stays.
    await request(sb!.baseUrl).delete('/_sandbox/requests');
    expect(bodies()).toEqual([]);
    expect(answers()).toBe(0);
  });

  it('opens a journal file written before answers were kept apart: its entries read as they were, and go as before', async () => {
    // The file as the version before wrote it: migration 12's table with the owners' columns, the shares and their trigger.
    const old = new Database(`${db}-requests`);
    old.pragma('page_size = 16384');
    old.exec(twelve);
    old.exec(`ALTER TABLE requests ADD COLUMN owner_site_id INTEGER; ALTER TABLE requests ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX requests_by_owner ON requests (owner_site_id, id, stored_bytes);
      CREATE TABLE request_shares (owner INTEGER PRIMARY KEY, entries INTEGER NOT NULL, bytes INTEGER NOT NULL) STRICT;
      CREATE TRIGGER request_shares_drop AFTER DELETE ON requests BEGIN
        UPDATE request_shares SET entries = entries - 1, bytes = bytes - OLD.stored_bytes WHERE owner = coalesce(OLD.owner_site_id, 0);
      END;
      PRAGMA user_version = 16;`);
    const answer = '{"Payment":{"ID":5000001}}';
    const insert = old.prepare(`INSERT INTO requests (at, wall_at, address, method, path, route, site_id, authenticated, payment_id, status, duration_ms,
      request_bytes, response_body, response_bytes, owner_site_id, stored_bytes) VALUES (1795000000000, 1795000000000, 'api', 'GET', ?, '/v1/payments/{id}', 30201, 1, 5000001, 200, 1.5, 0, ?, ?, 30201, ?)`);
    for (let i = 0; i < 2; i++) insert.run('/v1/payments/5000001', answer, answer.length, 256 + 3 + 20 + 17 + answer.length);
    old.prepare('INSERT INTO request_shares VALUES (30201, 2, ?)').run(2 * (256 + 3 + 20 + 17 + answer.length));
    old.close();
    await start();
    const entries = sb!.requests.find();
    expect(entries.map((r) => [r.ID, r.Path, r.Response.Body, r.Response.Bytes])).toEqual([
      [1, '/v1/payments/5000001', answer, answer.length],
      [2, '/v1/payments/5000001', answer, answer.length],
    ]);
    const p = await createPayment(sb!);
    const read = (await get(`/v1/payments/${p.ID}`)).text;
    expect(bodies()).toEqual([{ body: read, refs: 1 }]);
    expect(sb!.requests.find().map((r) => r.ID)).toEqual([1, 2, 3, 4]);
    // The entries written before go as they did, with the shares they held.
    clearOf(5000001);
    expect(sb!.requests.find().map((r) => r.ID)).toEqual([3, 4]);
    expect((await request(sb!.baseUrl).get('/_sandbox/health')).body.RequestJournal.StoredBytes).toBe(sb!.requests.find().reduce((n, r) => n + r.StoredBytes, 0));
    expect(bodies()).toEqual([{ body: read, refs: 1 }]);
  });

  it('a snapshot carries the entries whole, and its restore brings them back as they read', async () => {
    await start();
    const p = await createPayment(sb!);
    for (let i = 0; i < 3; i++) await get(`/v1/payments/${p.ID}`);
    await get('/v1/payments');
    const saved = sb!.requests.find();
    await sb!.snapshots.save('one');
    const snapshot = new Database(join(`${db}.snapshots`, 'one.db'), { readonly: true });
    expect(snapshot.prepare('SELECT response_body FROM requests_kept ORDER BY id').pluck().all()).toEqual(saved.map((r) => r.Response.Body));
    snapshot.close();
    for (let i = 0; i < 3; i++) await get(`/v1/payments/${p.ID}`);
    await sb!.snapshots.restore('one');
    expect(sb!.requests.find()).toEqual(saved);
    // The answers of the entries replaced went with them (those brought back keep theirs in their rows).
    expect(bodies()).toEqual([]);
    const again = (await get(`/v1/payments/${p.ID}`)).text;
    expect(bodies()).toEqual([{ body: again, refs: 1 }]);
    expect(sb!.requests.find().at(-1)!.Response.Body).toBe(again);
  });

  it('a marketplace’s own snapshot carries its entries whole, and its restore brings them back as they read', async () => {
    await start();
    const p = await createPayment(sb!);
    const read = (await get(`/v1/payments/${p.ID}`)).text;
    await get(`/v1/payments/${p.ID}`);
    expect(bodies()).toEqual([{ body: read, refs: 2 }]);
    const saved = sb!.requests.find();
    await request(sb!.baseUrl).post('/_sandbox/merchants/30201/snapshots').set('Authorization', AUTH).send({ Name: 'own' }).expect(201);
    await get(`/v1/payments/${p.ID}`);
    await request(sb!.baseUrl).post('/_sandbox/merchants/30201/snapshots/own/restore').set('Authorization', AUTH).expect(200);
    expect(sb!.requests.find({ SiteID: 30201 }).filter((r) => r.ID <= saved.at(-1)!.ID)).toEqual(saved);
    expect(sb!.requests.find().map((r) => r.Response.Body)).not.toContain(null);
  });
});
