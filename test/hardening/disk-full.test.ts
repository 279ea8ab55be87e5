// A full disk: writes answer 503 and keep nothing, reads are served all the same (also in a turn whose
// commit group carries the scheduler's failing background writes), and the scheduler's steps that
// could not be stored stay pending and run once there is space again. SQLite's max_page_count makes
// writes fail with SQLITE_FULL "database or disk is full", as a full disk does.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DEFAULT_CONFIG, type Config } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createLifecycle, createServices } from '../../src/main';
import type { Scheduler } from '../../src/scheduler/scheduler';
import { createPayment as create } from '../../src/services/payments.service';
import { Store } from '../../src/store/store';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, type World, createPayment, makeWorld, paymentBody, snapshot } from '../helpers/world';

const FULL = { Message: 'The change could not be saved: database or disk is full' };

/** Pages packed full (VACUUM), and no page more than that: every write that needs room fails. */
const fillDisk = (store: Store) => {
  // The request journal's entries of the last answers are written in a commit group of their own: committed first.
  store.writePending();
  store.flush();
  store.db.exec('VACUUM');
  store.db.pragma(`max_page_count = ${store.db.pragma('page_count', { simple: true }) as number}`);
};
const freeDisk = (store: Store) => store.db.pragma('max_page_count = 1073741823');
const statesOf = (store: Store) => store.db.prepare('SELECT state, count(*) AS n FROM scenario_jobs GROUP BY state').all();
const statusesOf = (store: Store) => store.db.prepare('SELECT status_id AS status, count(*) AS n FROM payments GROUP BY status_id').all();

describe('a full disk', () => {
  let w: World;
  let scheduler: Scheduler;
  let rx: Receiver;
  let ids: number[];

  beforeEach(async () => {
    rx = await startReceiver();
    const config: Config = { ...DEFAULT_CONFIG, clock: 'manual', startTime: START, seed: 42, quiet: true, scenario: 'two-step', notifyUrl: rx.url };
    w = makeWorld(config);
    scheduler = createLifecycle(config, w.services, () => w.ctx.urls.baseUrl, silentLogger);
    w.ctx.scheduler = scheduler;
    ids = [];
    for (let i = 0; i < 30; i++) ids.push((await createPayment(w)).ID);
  });
  afterEach(async () => {
    await scheduler.stop();
    w.close();
    await rx.close();
  });

  it("serves a read whose turn also carries the scheduler's failing steps, and keeps the steps for later", async () => {
    fillDisk(w.store);
    w.clock.set(START + 2000); // the 30 authorize steps are due; nothing has run them yet
    const failures: unknown[] = [];
    // One turn of the event loop: a background write that fits opens the commit group, the read runs,
    // then the scheduler's slice fails for want of space (SQLite then rolls back the whole group).
    const server: Server = createServer();
    server.on('request', () => void w.store.tx(() => w.store.db.prepare('UPDATE sites SET name = name WHERE site_id = 30201').run()));
    server.on('request', w.api);
    server.on('request', () => void scheduler.tick().catch((e: unknown) => failures.push(e)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of [`/v1/payments/${ids[0]}`, '/v1/payments?pageSize=1', `/_sandbox/payments/${ids[1]}`]) {
        const res = await request(url).get(path).set('Authorization', w.auth);
        expect([path, res.status]).toEqual([path, 200]);
      }
      const one = await request(url).get(`/v1/payments/${ids[0]}`).set('Authorization', w.auth);
      expect(one.body.Payment).toMatchObject({ ID: ids[0], Status: { ID: 1, Info: 'Open', Reasons: null } });
    } finally {
      server.close();
    }
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((e) => (e as { code?: string }).code === 'SQLITE_FULL')).toBe(true);
    // Nothing of the slice was kept, and no step was given up: all 30 still pending, none skipped.
    expect(statesOf(w.store)).toEqual([{ state: 'pending', n: 30 }]);
    expect(statusesOf(w.store)).toEqual([{ status: 1, n: 30 }]);
    expect(rx.received).toEqual([]);

    freeDisk(w.store);
    await scheduler.advance(0);
    expect(statesOf(w.store)).toEqual([{ state: 'done', n: 30 }]);
    expect(statusesOf(w.store)).toEqual([{ status: 9, n: 30 }]);
    expect(rx.received.map((r) => r.body.Payment.ID).sort()).toEqual([...ids].sort());
  });

  it('answers creates 503 once the disk is full and keeps nothing of them; reads answer 200 all along', async () => {
    fillDisk(w.store);
    // Creates fit in what room the pages still have, until they do not.
    let stored = 0;
    let created = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody());
    for (; created.status === 201 && stored < 200; stored++) {
      created = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody());
    }
    expect(created.status).toBe(503);
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(created.body).toEqual(FULL);
    const before = snapshot(w.store);
    const again = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody());
    expect([again.status, again.body]).toEqual([503, FULL]);
    expect(snapshot(w.store)).toBe(before);
    // The journal tells of the answers that left (its own file has room): the 503s, with no payment.
    const refused = await request(w.api).get('/_sandbox/requests?Route=/v1/payments&Method=POST&Status=503');
    expect(refused.body.TotalCount).toBe(2);
    for (const e of refused.body.Requests) {
      expect(e).toMatchObject({ Status: 503, PaymentID: null, Response: { Body: JSON.stringify(FULL), CappedAt: null } });
    }
    const made = await request(w.api).get('/_sandbox/requests?Route=/v1/payments&Method=POST&Status=201');
    expect(made.body.TotalCount).toBe(30 + stored);
    for (const id of ids) expect((await request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth)).status).toBe(200);
    const list = await request(w.api).get('/v1/payments?pageSize=2').set('Authorization', w.auth);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ TotalCount: 30 + stored, Count: 2 });
    expect((await request(w.api).get('/_sandbox/notifications')).body).toMatchObject({ TotalCount: 0 });
    freeDisk(w.store);
    expect((await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody())).status).toBe(201);
  });

  it('a clock advance that cannot store its steps answers 503; they run, and notify, on the next one once there is space', async () => {
    fillDisk(w.store);
    const advanced = await request(w.api).post('/_sandbox/clock/advance').send({ Seconds: 5 });
    expect(advanced.status).toBe(503);
    expect(advanced.body).toEqual(FULL);
    expect(statesOf(w.store)).toEqual([{ state: 'pending', n: 30 }]);
    expect(statusesOf(w.store)).toEqual([{ status: 1, n: 30 }]);
    expect(rx.received).toEqual([]); // no notification of a change that was not kept
    // The clock stopped at the steps it could not run.
    expect((await request(w.api).get('/_sandbox/clock')).body.NowMs).toBe(START + 2000);

    freeDisk(w.store);
    expect((await request(w.api).post('/_sandbox/clock/advance').send({ Seconds: 3 })).status).toBe(200);
    expect(statesOf(w.store)).toEqual([{ state: 'done', n: 30 }]);
    expect(statusesOf(w.store)).toEqual([{ status: 9, n: 30 }]);
    expect(rx.received).toHaveLength(30);
    const [p] = ids;
    const story = await request(w.api).get(`/_sandbox/payments/${p}`);
    expect(story.body.Steps).toMatchObject([{ Do: 'authorize', State: 'done', Outcome: 'Authorized', Due: '20260115100002', Ran: '20260115100002' }]);
  });
});

describe('a full disk with the real clock', () => {
  beforeEach(() => jest.useFakeTimers({ now: START }));
  afterEach(() => jest.useRealTimers());

  it('tries the steps it could not store again a second later (not at once, again and again), and runs them once there is space', async () => {
    const store = Store.open(':memory:');
    store.groupCommits();
    const config = { ...DEFAULT_CONFIG, clock: 'real' as const, scenario: 'two-step', quiet: true };
    const services = createServices(config, store);
    const scheduler = createLifecycle(config, services, () => 'http://sandbox.test', silentLogger);
    const ticks = jest.spyOn(scheduler, 'tick');
    try {
      scheduler.start();
      const site = store.sites.get(30201)!;
      const ids = store.tx(() => Array.from({ length: 20 }, (_, i) => create(services, site, paymentBody({ MerchantTransactionID: `rt-${i}` })).payment.id));
      await jest.advanceTimersByTimeAsync(0);
      fillDisk(store);
      await jest.advanceTimersByTimeAsync(2000); // the steps are due: the slice fails
      expect(statesOf(store)).toEqual([{ state: 'pending', n: 20 }]);
      const afterFailure = ticks.mock.calls.length;
      await jest.advanceTimersByTimeAsync(900);
      expect(ticks.mock.calls.length).toBe(afterFailure); // it waits
      await jest.advanceTimersByTimeAsync(200); // a second after the failure: tried again, still full
      expect(ticks.mock.calls.length).toBe(afterFailure + 1);
      expect(statesOf(store)).toEqual([{ state: 'pending', n: 20 }]);
      freeDisk(store);
      await jest.advanceTimersByTimeAsync(1100);
      expect(statesOf(store)).toEqual([{ state: 'done', n: 20 }]);
      expect(ids.map((id) => store.payments.getAny(id)!.statusId)).toEqual(ids.map(() => 9));
    } finally {
      await scheduler.stop();
      store.close();
    }
  });
});
