// Group commit: the writes of one turn of the event loop commit together, each request's answer waits
// for that commit, and a failed commit undoes every request of the group and answers each 503.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { Store } from '../../src/store/store';
import { makeWorld, paymentBody, snapshot, type World } from '../helpers/world';

type Runnable = { run(): unknown };
const commitOf = (store: Store) => (store as unknown as { stmt: { commit: Runnable } }).stmt;
type Statements = Record<'begin' | 'commit' | 'savepoint' | 'release' | 'rollbackTo', Runnable>;

/** Counts the store's commits and follows how deep its savepoints nest (the deepest seen). */
function watch(store: Store) {
  const stmt = (store as unknown as { stmt: Statements }).stmt;
  const real = { ...stmt };
  const seen = { commits: 0, depth: 0, deepest: 0 };
  stmt.commit = { run: () => (seen.commits++, real.commit.run()) };
  stmt.savepoint = { run: () => (seen.deepest = Math.max(seen.deepest, ++seen.depth), real.savepoint.run()) };
  stmt.release = { run: () => (seen.depth--, real.release.run()) };
  return { seen, restore: () => Object.assign(stmt, real) };
}

const urlOf = (store: Store) => (store.db.prepare('SELECT notification_url FROM sites WHERE site_id = 30201').get() as { notification_url: string | null }).notification_url;
const setUrl = (store: Store, url: string) => () => store.db.prepare('UPDATE sites SET notification_url = ? WHERE site_id = 30201').run(url);

describe('group commit', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('commits the transactions of one turn together, once, and lets what waited for it go after', async () => {
    const stmt = commitOf(w.store);
    const real = stmt.commit;
    let commits = 0;
    stmt.commit = { run: () => (commits++, real.run()) };
    try {
      const setUrl = (url: string) => () => w.store.db.prepare('UPDATE sites SET notification_url = ? WHERE site_id = 30201').run(url);
      const order: string[] = [];
      w.store.tx(setUrl('https://one.example/n'));
      w.store.afterCommit((err) => order.push(`first answer, error ${err}`));
      w.store.tx(setUrl('https://two.example/n'));
      w.store.afterCommit((err) => order.push(`second answer, error ${err}`));
      expect(commits).toBe(0);
      expect(order).toEqual([]);
      await new Promise((r) => setImmediate(r));
      expect(commits).toBe(1);
      expect(order).toEqual(['first answer, error null', 'second answer, error null']);
      // Nothing open: what asks now runs at once.
      w.store.afterCommit(() => order.push('later'));
      expect(order.at(-1)).toBe('later');
    } finally {
      stmt.commit = real;
    }
  });

  it('answers 503 {"Message"} to every request of a group whose commit fails, and keeps none of it', async () => {
    const before = snapshot(w.store);
    const stmt = commitOf(w.store);
    const real = stmt.commit;
    stmt.commit = {
      run: () => {
        throw new Error('disk I/O error');
      },
    };
    let res;
    try {
      res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody());
    } finally {
      stmt.commit = real;
    }
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ Message: 'The change could not be saved: disk I/O error' });
    expect(snapshot(w.store)).toBe(before);
    // The count kept in memory was dropped with the group: the list agrees with the table.
    const list = await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect(list.body.TotalCount).toBe(0);
    // And the next request commits normally.
    expect((await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody())).status).toBe(201);
  });

  it('a rejected request inside a group is undone alone: its neighbours are stored', async () => {
    const server = w.api.listen(0, '127.0.0.1');
    try {
      const agent = request(server);
      const [ok1, bad, ok2] = await Promise.all([
        agent.post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'same' })),
        agent.post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'same' })),
        agent.post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'other' })),
      ]);
      expect([ok1.status, bad.status, ok2.status].sort()).toEqual([201, 201, 400]);
      const list = await agent.get('/v1/payments?pageSize=100').set('Authorization', w.auth);
      expect(list.body.Payments.map((p: { MerchantTransactionID: string }) => p.MerchantTransactionID).sort()).toEqual(['other', 'same']);
    } finally {
      server.close();
    }
  });
});

describe('beside the commit group', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  describe('a run of steps (txSteps), as the scheduler writes a slice of due steps', () => {
    it('commits with the group, each step a savepoint at the top of the transaction: one that throws is undone alone', async () => {
      const { seen, restore } = watch(w.store);
      try {
        const order: string[] = [];
        w.store.txSteps(() => {
          w.store.tx(setUrl(w.store, 'https://one.example/n'));
          order.push(`after one: ${urlOf(w.store)}`);
          expect(() =>
            w.store.tx(() => {
              setUrl(w.store, 'https://undone.example/n')();
              throw new Error('this step fails');
            }),
          ).toThrow('this step fails');
          order.push(`after the failed one: ${urlOf(w.store)}`);
          w.store.tx(() => w.store.db.prepare("UPDATE sites SET notification_url = notification_url || '?3' WHERE site_id = 30201").run());
        });
        // Never two savepoints deep: under one around them all, SQLite's undo log for the steps grew
        // with each step, and releasing every step's savepoint walked all of it.
        expect(seen.deepest).toBe(1);
        expect(seen.commits).toBe(0);
        expect(w.store.db.inTransaction).toBe(true);
        await new Promise((r) => setImmediate(r));
        expect(seen.commits).toBe(1);
        expect(order).toEqual(['after one: https://one.example/n', 'after the failed one: https://one.example/n']);
        expect(urlOf(w.store)).toBe('https://one.example/n?3');
      } finally {
        restore();
      }
    });

    it('without a commit group, commits once at its end, and undoes all of it when it throws', () => {
      const store = Store.open(':memory:');
      try {
        store.db.exec('CREATE TABLE notes (v TEXT)');
        const note = (v: string) => () => store.db.prepare('INSERT INTO notes (v) VALUES (?)').run(v);
        const notes = () => store.db.prepare('SELECT v FROM notes ORDER BY rowid').pluck().all();
        const { seen, restore } = watch(store);
        store.txSteps(() => {
          store.tx(note('a'));
          store.tx(note('b'));
        });
        expect(seen.commits).toBe(1);
        expect(seen.deepest).toBe(1);
        expect(store.db.inTransaction).toBe(false);
        expect(() =>
          store.txSteps(() => {
            store.tx(note('c'));
            throw new Error('the run fails');
          }),
        ).toThrow('the run fails');
        expect(seen.commits).toBe(1);
        expect(notes()).toEqual(['a', 'b']);
        restore();
      } finally {
        store.close();
      }
    });
  });

  describe('a write apart (txApart), as the request journal writes its entries', () => {
    it('commits the open group first, then itself at once: no request of a group writes beside it', async () => {
      const { seen, restore } = watch(w.store);
      try {
        const answers: string[] = [];
        w.store.tx(setUrl(w.store, 'https://grouped.example/n'));
        w.store.afterCommit((err) => answers.push(`answer, error ${err}`));
        seen.deepest = 0;
        w.store.txApart(() => w.store.db.prepare("UPDATE sites SET notification_url = notification_url || '#apart' WHERE site_id = 30201").run());
        // The group committed (its answer went), then the write apart in its own transaction.
        expect(seen.commits).toBe(2);
        expect(answers).toEqual(['answer, error null']);
        expect(seen.deepest).toBe(0);
        expect(w.store.db.inTransaction).toBe(false);
        expect(urlOf(w.store)).toBe('https://grouped.example/n#apart');
        // The next request opens a group of its own.
        w.store.tx(setUrl(w.store, 'https://next.example/n'));
        expect(w.store.db.inTransaction).toBe(true);
        await new Promise((r) => setImmediate(r));
        expect(seen.commits).toBe(3);
      } finally {
        restore();
      }
    });
  });

  it.each(['txSteps', 'txApart'] as const)('%s inside a running tx() is a savepoint of it, undone with it', (method) => {
    const before = urlOf(w.store);
    expect(() =>
      w.store.tx(() => {
        w.store[method](setUrl(w.store, 'https://inner.example/n'));
        expect(urlOf(w.store)).toBe('https://inner.example/n');
        throw new Error('the outer one fails');
      }),
    ).toThrow('the outer one fails');
    expect(urlOf(w.store)).toBe(before);
  });
});

describe('group commit on a file', () => {
  it('close() commits an open group: nothing written in the last turn is lost', () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-group-'));
    try {
      const file = join(dir, 'g.db');
      const w = makeWorld({}, Store.open(file));
      w.store.tx(() => w.store.db.prepare("UPDATE sites SET notification_url = 'https://late.example/n' WHERE site_id = 30201").run());
      w.close();
      const again = Store.open(file);
      const row = again.db.prepare('SELECT notification_url FROM sites WHERE site_id = 30201').get() as { notification_url: string };
      again.close();
      expect(row.notification_url).toBe('https://late.example/n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an open group holds the main database’s write lock from its start, and the journal’s file only once it writes an entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-group-'));
    const file = join(dir, 'g.db');
    const w = makeWorld({}, Store.open(file));
    const other = (f: string) => new Database(f, { timeout: 0 });
    const main = other(file);
    const journal = other(`${file}-requests`);
    const canWrite = (db: Database.Database) => {
      try {
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
        return true;
      } catch (e) {
        return `${(e as { code?: string }).code}`;
      }
    };
    try {
      w.store.tx(() => w.store.payments.getAny(1));
      expect([canWrite(main), canWrite(journal)]).toEqual(['SQLITE_BUSY', true]);
      w.store.flush();
      expect([canWrite(main), canWrite(journal)]).toEqual([true, true]);
      // A write apart (the journal's batch) locks the journal's file, not main.
      w.store.txApart(() => {
        w.store.requests.clear();
        expect([canWrite(main), canWrite(journal)]).toEqual([true, 'SQLITE_BUSY']);
      });
      expect([canWrite(main), canWrite(journal)]).toEqual([true, true]);
    } finally {
      main.close();
      journal.close();
      w.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
