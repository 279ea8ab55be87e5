// What writing the journal costs a request: the capture makes no function of its own for each request,
// a batch is written in few statements whatever its size, a read's answer given again is counted in the
// row it was last kept in, one trigger keeps what a deleted entry takes with it, and closing an in-memory
// journal with nothing waiting costs nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IncomingMessage, ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import express from 'express';
import type { Response } from 'express';
import request from 'supertest';
import { noteRequests } from '../../src/requests/capture';
import type { NewRequest, RequestsRepo } from '../../src/store/requests.repo';
import { Store } from '../../src/store/store';
import { statementsRunBy } from '../helpers/statements-run';
import { MARKETPLACE, makeWorld, paymentBody, post } from '../helpers/world';

const realSet = WeakMap.prototype.set;

const answerOf = (id: number) => `{"Payment":{"ID":${id},"Status":{"ID":1}}}`;

const read = (paymentId: number, answer = answerOf(paymentId)): NewRequest => ({
  at: 1_795_000_000_000,
  wallAt: 1_795_000_000_000,
  address: 'api',
  method: 'GET',
  path: `/v1/payments/${paymentId}`,
  query: null,
  route: '/v1/payments/{id}',
  siteId: MARKETPLACE.SiteID,
  authenticated: true,
  paymentId,
  refundId: null,
  splitId: null,
  status: 200,
  reasons: [],
  durationMs: 0.4,
  fault: null,
  nearMiss: null,
  requestBody: null,
  requestBytes: 0,
  responseBody: answer,
  responseBytes: Buffer.byteLength(answer),
  ownerSiteId: MARKETPLACE.SiteID,
});

/** Counts the statements the repository runs (each run, get, all or iterate of one of its own). */
function countStatements(repo: RequestsRepo) {
  const stmts = (repo as unknown as { stmt: Record<string, unknown> }).stmt;
  const ran: string[] = [];
  const wrap = (name: string, s: Record<string, unknown>) => {
    for (const m of ['run', 'get', 'all', 'iterate']) {
      const f = s[m] as ((...a: unknown[]) => unknown) | undefined;
      if (typeof f !== 'function') continue;
      s[m] = (...a: unknown[]) => {
        ran.push(name);
        return f.apply(s, a);
      };
    }
  };
  for (const [name, v] of Object.entries(stmts)) {
    if (Array.isArray(v)) v.forEach((s, i) => wrap(`${name}[${i}]`, s as Record<string, unknown>));
    else wrap(name, v as Record<string, unknown>);
  }
  return ran;
}

describe('what writing the journal costs', () => {
  it('ends, closes and makes every request’s entry with the same functions: none is made for a request', async () => {
    const w = makeWorld();
    const site = w.store.sites.get(MARKETPLACE.SiteID);
    const seen: { end: Response['end']; close: unknown[] }[] = [];
    const app = express();
    app.use(noteRequests(w.services.requests!, w.services, 'api', () => site));
    app.get('/v1/payments/:id', (_req, res) => {
      seen.push({ end: res.end, close: res.listeners('close') });
      res.end(answerOf(1));
    });
    for (let i = 0; i < 2; i++) await request(app).get('/v1/payments/1').expect(200);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.end).toBe(seen[1]!.end);
    // Its listener for the connection's close is the one every request has.
    expect(seen[0]!.close.filter((f) => !seen[1]!.close.includes(f))).toEqual([]);
    // The entries are made, and read back, as before.
    expect(w.services.requests!.find({}, { limit: 10, offset: 0, descending: false }).map((e) => [e.path, e.status, e.responseBody])).toEqual([
      ['/v1/payments/1', 200, answerOf(1)],
      ['/v1/payments/1', 200, answerOf(1)],
    ]);
    w.close();
  });

  it('keeps nothing of a request or its response in a WeakMap (an ephemeron per request in flight made every scavenge slower)', async () => {
    const w = makeWorld();
    const keys: unknown[] = [];
    const set = jest.spyOn(WeakMap.prototype, 'set').mockImplementation(function (this: WeakMap<object, unknown>, key: object, value: unknown) {
      keys.push(key);
      return realSet.call(this, key, value);
    });
    try {
      const created = await post(w, '/v1/payments', paymentBody({ MerchantTransactionID: 'no-ephemeron' })).expect(201);
      await request(w.api).get(`/v1/payments/${created.body.Payment.ID}`).set('Authorization', w.auth).expect(200);
      await request(w.api).get('/v1/payments').set('Authorization', w.auth).expect(200);
    } finally {
      set.mockRestore();
    }
    const perRequest = keys.filter((k) => k instanceof IncomingMessage || k instanceof ServerResponse);
    expect(perRequest.map((k) => (k as object).constructor.name)).toEqual([]);
    w.close();
  });

  it('makes an entry waiting as an object with its own make, as well as a function', async () => {
    const w = makeWorld();
    const made: string[] = [];
    w.services.requests!.later({ make: () => made.push('object') });
    w.services.requests!.later(() => made.push('function'));
    await new Promise((r) => setImmediate(r));
    expect(made).toEqual(['object', 'function']);
    w.close();
  });

  it('writes a batch of any size in a few statements, each entry with its own ID and its own answer', () => {
    const w = makeWorld();
    const repo = w.store.requests;
    let next = 5_000_001;
    for (let size = 1; size <= 40; size++) {
      const batch = Array.from({ length: size }, (_, k) => read(next + (k % 3)));
      const ids = w.store.txJournal(() => repo.addAll(batch));
      expect(ids).toHaveLength(size);
      for (let k = 1; k < size; k++) expect(ids[k]).toBe(ids[k - 1]! + 1);
      for (let k = 0; k < size; k++) expect(repo.get(ids[k]!)).toMatchObject({ path: batch[k]!.path, responseBody: batch[k]!.responseBody, paymentId: batch[k]!.paymentId });
      next += 3;
    }
    // The values of a batch's rows and answers as each call's arguments, not as one array (which the driver reads value by value through V8's API).
    const bound = statementsRunBy(() => w.store.txJournal(() => repo.addAll(Array.from({ length: 21 }, () => read(5_000_001)))), (sql, args) => ({ sql, args }), ['run']);
    const writes = bound.filter((s) => /^INSERT INTO journal\.(requests|request_answers) /.test(s.sql));
    expect(writes.map((s) => s.args.length).sort((a, b) => a - b)).toEqual([2, 8, 23, 32, 92, 368]);
    expect(writes.filter((s) => s.args.some((a) => Array.isArray(a)))).toEqual([]);
    // Fifteen reads: a 16-row statement would take none of them; by fours, then one by one, they take six (and as many for their answers).
    const ran = countStatements(repo);
    w.store.txJournal(() => repo.addAll(Array.from({ length: 15 }, () => read(5_000_001))));
    const rows = ran.filter((n) => /^insert/.test(n)).length;
    const answers = ran.filter((n) => /^answer/.test(n)).length;
    expect([rows, answers]).toEqual([6, 6]);
    w.close();
  });

  it('finds an owner’s oldest entries past a count along the index, as a walk of them finds them', () => {
    const w = makeWorld();
    const repo = w.store.requests;
    // Answers of different lengths, an owner's and the unauthenticated pool's entries interleaved.
    const entries = Array.from({ length: 30 }, (_, k) => ({ ...read(5_000_001 + k, answerOf(5_000_001 + k) + ' '.repeat(k * 7)), ownerSiteId: k % 3 === 2 ? null : MARKETPLACE.SiteID }));
    w.store.txJournal(() => repo.addAll(entries));
    const all = repo.page({}, { limit: 100, offset: 0, descending: false });
    const walk = (owner: number | null, after: number, n: number) => {
      const mine = all.filter((e) => e.ownerSiteId === owner && e.id > after).slice(0, n);
      return { entries: mine.length, bytes: mine.reduce((sum, e) => sum + e.storedBytes, 0), last: mine.at(-1)?.id ?? 0 };
    };
    const ran = countStatements(repo);
    for (const owner of [MARKETPLACE.SiteID, null]) {
      for (const after of [0, all[4]!.id, all[17]!.id]) {
        for (const n of [1, 2, 5, 9]) {
          ran.length = 0;
          const found = repo.oldest(owner, after, n, 0);
          expect(found).toEqual(walk(owner, after, n));
          // As many as asked for are there: found by SQLite along the index, no row read here one by one.
          if (found.entries === n) expect(ran.filter((name) => /^oldest/.test(name))).toEqual([]);
        }
        // More than there are, or a quota of bytes: every one of them, or as many as make the bytes.
        expect(repo.oldest(owner, after, 100, 0)).toEqual(walk(owner, after, 100));
        const some = walk(owner, after, 3);
        expect(repo.oldest(owner, after, 0, some.bytes)).toEqual(some);
        expect(repo.oldest(owner, after, 1, some.bytes - 1)).toEqual(some);
      }
    }
    w.close();
  });

  it('counts a read’s answer given again in the row it was last kept in, and keeps it afresh once that row has gone', () => {
    const w = makeWorld();
    const repo = w.store.requests;
    const db = w.store.db;
    const bodies = () => db.prepare('SELECT id, body, refs FROM journal.request_bodies ORDER BY id').all() as { id: number; body: string; refs: number }[];
    const write = (n: number, paymentId = 5_000_001) => w.store.txJournal(() => repo.addAll(Array.from({ length: n }, () => read(paymentId))));
    write(2);
    const ran = countStatements(repo);
    write(3);
    // Counted by its row: its text is not bound again, nor its digest looked up by the insert.
    expect(ran.filter((n) => n === 'keepBody')).toEqual([]);
    expect(ran.filter((n) => n === 'addRefs')).toHaveLength(1);
    expect(bodies()).toEqual([{ id: 1, body: answerOf(5_000_001), refs: 5 }]);
    // Its entries cleared, the row goes with them; another answer takes its ID, and the first comes back in a row of its own.
    w.store.tx(() => repo.clear({}));
    expect(bodies()).toEqual([]);
    write(1, 5_000_002);
    write(2);
    expect(bodies()).toEqual([
      { id: 1, body: answerOf(5_000_002), refs: 1 },
      { id: 2, body: answerOf(5_000_001), refs: 2 },
    ]);
    // A batch rolled back takes its count with it; the next counts from what is there.
    expect(() =>
      w.store.txJournal(() => {
        repo.addAll([read(5_000_001)]);
        throw new Error('the disk is full');
      }),
    ).toThrow('the disk is full');
    write(1);
    expect(bodies()).toEqual([
      { id: 1, body: answerOf(5_000_002), refs: 1 },
      { id: 2, body: answerOf(5_000_001), refs: 3 },
    ]);
    expect(repo.page({}, { limit: 10, offset: 0, descending: false }).map((e) => e.responseBody)).toEqual([
      answerOf(5_000_002),
      answerOf(5_000_001),
      answerOf(5_000_001),
      answerOf(5_000_001),
    ]);
    w.close();
  });

  describe('one trigger for what a deleted entry takes with it', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'split-sandbox-write-cost-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const triggers = (store: Store) => store.db.prepare(`SELECT name FROM journal.sqlite_master WHERE type = 'trigger' ORDER BY name`).pluck().all();

    it('replaces the two triggers of a file written before with one, and its entries still go with their shares and answers', () => {
      const file = join(dir, 'sandbox.db');
      const first = Store.open(file);
      const answer = answerOf(5_000_001);
      first.txJournal(() => first.requests.addAll([read(5_000_001), read(5_000_001), read(5_000_002)]));
      first.close();
      // The file as the version before left it: a trigger for the shares and one for the answers.
      const old = new Database(`${file}-requests`);
      old.exec(`DROP TRIGGER request_shares_drop;
        CREATE TRIGGER request_shares_drop AFTER DELETE ON requests BEGIN
          UPDATE request_shares SET entries = entries - 1, bytes = bytes - OLD.stored_bytes WHERE owner = coalesce(OLD.owner_site_id, 0);
        END;
        CREATE TRIGGER request_answers_drop AFTER DELETE ON requests WHEN OLD.response_body IS NULL AND OLD.response_bytes > 0 BEGIN
          UPDATE request_bodies SET refs = refs - 1 WHERE id = (SELECT body_id FROM request_answers WHERE entry_id = OLD.id);
          DELETE FROM request_bodies WHERE id = (SELECT body_id FROM request_answers WHERE entry_id = OLD.id) AND refs <= 0;
          DELETE FROM request_answers WHERE entry_id = OLD.id;
        END;`);
      old.close();
      const store = Store.open(file);
      expect(triggers(store)).toEqual(['request_shares_drop']);
      const shares = () => store.requests.shares().get(MARKETPLACE.SiteID);
      const before = shares()!;
      const one = store.requests.page({ paymentId: 5_000_002 }, { limit: 1, offset: 0, descending: false })[0]!;
      store.tx(() => store.requests.clear({ paymentId: 5_000_002 }));
      expect(shares()).toEqual({ entries: before.entries - 1, bytes: before.bytes - one.storedBytes });
      expect(store.db.prepare('SELECT body, refs FROM journal.request_bodies').all()).toEqual([{ body: answer, refs: 2 }]);
      expect(store.db.prepare('SELECT count(*) FROM journal.request_answers').pluck().get()).toBe(2);
      // Past a quota, in bulk: the triggers leave them to dropThrough, which keeps the same.
      const last = store.requests.oldest(MARKETPLACE.SiteID, 0, 1, 0).last;
      store.txJournal(() => store.requests.dropThrough(MARKETPLACE.SiteID, last));
      expect(store.db.prepare('SELECT body, refs FROM journal.request_bodies').all()).toEqual([{ body: answer, refs: 1 }]);
      store.tx(() => store.requests.clear({}));
      expect(shares()).toBeUndefined();
      expect(store.db.prepare('SELECT count(*) FROM journal.request_bodies').pluck().get()).toBe(0);
      expect(store.db.prepare('SELECT count(*) FROM journal.request_answers').pluck().get()).toBe(0);
      store.close();
    });

    it('makes a new file with that one trigger, which a version before replaces with its two when it opens the file', () => {
      const file = join(dir, 'new.db');
      const store = Store.open(file);
      expect(triggers(store)).toEqual(['request_shares_drop']);
      store.close();
      // What the version before ran at each open: its two triggers dropped by name and made again.
      const older = new Database(`${file}-requests`);
      older.exec(`DROP TRIGGER IF EXISTS request_shares_drop;
        CREATE TRIGGER request_shares_drop AFTER DELETE ON requests BEGIN SELECT 1; END;
        DROP TRIGGER IF EXISTS request_answers_drop;
        CREATE TRIGGER request_answers_drop AFTER DELETE ON requests BEGIN SELECT 1; END;`);
      expect(older.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).pluck().all()).toEqual(['request_answers_drop', 'request_shares_drop']);
      older.close();
    });
  });
});

describe('closing an in-memory request journal', () => {
  afterEach(() => jest.restoreAllMocks());

  it('runs nothing on the journal when no entry waits: what is in memory goes with it', () => {
    const w = makeWorld();
    const tx = jest.spyOn(w.store, 'txJournal');
    w.close();
    expect(tx).not.toHaveBeenCalled();
  });

  it('still writes the entries waiting, as before a copy', async () => {
    const w = makeWorld();
    await post(w, '/v1/payments', paymentBody()).expect(201);
    const tx = jest.spyOn(w.store, 'txJournal');
    const add = jest.spyOn(w.store.requests, 'addAll');
    w.close();
    expect(tx).toHaveBeenCalledTimes(1);
    expect(add.mock.calls.map(([entries]) => entries.length)).toEqual([1]);
  });
});
