// Group commit: the writes of one turn of the event loop commit together, each request's answer waits
// for that commit, and a failed commit undoes every request of the group and answers each 503.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Store } from '../../src/store/store';
import { makeWorld, paymentBody, snapshot, type World } from '../helpers/world';

type Runnable = { run(): unknown };
const commitOf = (store: Store) => (store as unknown as { stmt: { commit: Runnable } }).stmt;

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
});
