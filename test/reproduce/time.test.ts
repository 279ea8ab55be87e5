// Time QA can steer: a real clock that runs --speed times faster, and sandbox time that survives a
// restart (kept in the store).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DEFAULT_CONFIG, type Config } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createLifecycle, createServices, startSandbox } from '../../src/main';
import { ManualClock, RealClock } from '../../src/scheduler/clock';
import { ClockKeeper, createClock } from '../../src/scheduler/clock-keeper';
import { createPayment as createPaymentService } from '../../src/services/payments.service';
import { Store } from '../../src/store/store';
import { START, paymentBody } from '../helpers/world';
import { AUTH, advance, boot, createPayment, getPayment, journal, labels, shutdown, stamp, story } from '../lifecycle/harness';
import { startReceiver } from '../helpers/receiver';

describe('a real clock at --speed', () => {
  it('runs n times as fast as real time, from where it was set', () => {
    let real = 1_000_000;
    const clock = new RealClock(60, () => real);
    expect(clock.now()).toBe(1_000_000);
    real += 1000;
    expect(clock.now()).toBe(1_060_000);
    clock.set(START);
    real += 34;
    expect(clock.now()).toBe(START + 2040);
    expect(clock.realDelay(2000)).toBeCloseTo(33.33, 2);
    expect(new RealClock(1, () => real).now()).toBe(real);
    expect(() => new RealClock(0.5)).toThrow(RangeError);
  });

  describe('with the scheduler (fake real time)', () => {
    afterEach(() => jest.useRealTimers());

    it('authorizes a two-step payment 2 s of sandbox time after creation: after 34 ms of real time at 60', async () => {
      jest.useFakeTimers({ now: START, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
      const store = Store.open(':memory:');
      const config: Config = { ...DEFAULT_CONFIG, db: ':memory:', clock: 'real', speed: 60, quiet: true };
      const services = createServices(config, store);
      const scheduler = createLifecycle(config, services, () => 'http://sandbox.test', silentLogger);
      try {
        scheduler.start();
        const view = createPaymentService(services, store.sites.get(30201)!, paymentBody(), { scenario: 'two-step' });
        const turn = () => new Promise((resolve) => setImmediate(resolve));
        await turn();
        jest.advanceTimersByTime(33);
        await turn();
        expect(store.payments.getAny(view.payment.id)!.statusId).toBe(1);
        jest.advanceTimersByTime(1);
        await turn();
        await turn();
        expect(store.payments.getAny(view.payment.id)!.statusId).toBe(9);
        const authorized = store.history.ofPayment(view.payment.id).at(-1)!;
        expect(authorized.at - view.payment.createdAt).toBe(2040);
      } finally {
        await scheduler.stop();
        store.close();
      }
    });
  });

  it('shows Mode and Speed in GET /_sandbox/clock, and delivers a 2 s step long before 2 s have passed', async () => {
    const rx = await startReceiver();
    const sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'real', speed: 60, quiet: true, notifyUrl: rx.url });
    try {
      const clock = await request(sb.baseUrl).get('/_sandbox/clock');
      expect(clock.body).toEqual({ Mode: 'real', Speed: 60, Now: expect.stringMatching(/^\d{14}$/), NowMs: expect.any(Number) });
      const p = await createPayment(sb, { scenario: 'two-step' });
      // At speed 1 this would take 2 s; at 60, about 33 ms.
      const n = await sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 9 }, 1500);
      expect(n.Body).toMatchObject({ Payment: { ID: p.ID, Status: { ID: 9 } } });
      const advanced = await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 1 });
      expect(advanced.status).toBe(400);
    } finally {
      await sb.stop();
      await rx.close();
    }
  });

  it('is refused with a manual clock', async () => {
    await expect(startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', speed: 60, quiet: true })).rejects.toThrow(/--speed is for the real clock/);
  });
});

describe('sandbox time across a restart', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-time-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('a manual clock resumes where it stood, and what was due later runs at its time, once', async () => {
    const db = join(tmp, 'sandbox.db');
    let rig = await boot({ db });
    await advance(rig.sb, 3600);
    const p = await createPayment(rig.sb, { scenario: 'two-step' });
    await advance(rig.sb, 1);
    await shutdown({ sb: rig.sb });

    // The same command line again (its --start-time is an hour behind): time goes on from where it stood.
    rig = await boot({ db }, rig.rx);
    try {
      expect((await request(rig.sb.baseUrl).get('/_sandbox/clock')).body).toMatchObject({ Mode: 'manual', Now: stamp(3_601_000), NowMs: START + 3_601_000, Speed: null });
      expect((await getPayment(rig.sb, p.ID)).Status.ID).toBe(1);
      await advance(rig.sb, 0.999);
      expect((await getPayment(rig.sb, p.ID)).Status.ID).toBe(1);
      await advance(rig.sb, 0.001);
      expect((await getPayment(rig.sb, p.ID)).Status.ID).toBe(9);
      expect((await story(rig.sb, p.ID)).History.map((h: { At: string }) => h.At)).toEqual([stamp(3_600_000), stamp(3_602_000)]);
      await advance(rig.sb, 60);
      expect(labels(rig.rx)).toEqual(['P9']);
      expect(await journal(rig.sb, p.ID)).toHaveLength(1);
    } finally {
      await shutdown({ sb: rig.sb });
    }
    // A later --start-time moves a kept time forward.
    rig = await boot({ db, startTime: START + 7_200_000 }, rig.rx);
    try {
      expect(rig.sb.clock.now()).toBe(START + 7_200_000);
    } finally {
      await shutdown(rig);
    }
  });

  it('a fast real clock resumes from its kept time (it does not run while stopped), never before real time, and never back', () => {
    const db = join(tmp, 'fast.db');
    let real = START;
    const source = () => real;
    let store = Store.open(db);
    const fast = createClock({ clock: 'real', speed: 60 }, store, source);
    expect(fast.now()).toBe(START);
    real += 60_000; // a real minute: an hour of sandbox time
    const keeper = new ClockKeeper(store, fast);
    store.tx(() => keeper.save());
    store.close();

    real += 5000;
    store = Store.open(db);
    const again = createClock({ clock: 'real', speed: 60 }, store, source);
    expect(again.now()).toBe(START + 3_600_000);
    real += 1000;
    expect(again.now()).toBe(START + 3_660_000);
    store.tx(() => new ClockKeeper(store, again).save());
    // At speed 1 later on, it goes on from there (time never goes back)…
    const slow = createClock({ clock: 'real', speed: 1 }, store, source);
    expect(slow.now()).toBe(START + 3_660_000);
    store.close();
    // …and once real time has caught up, it is simply real time.
    real = START + 10_000_000;
    store = Store.open(db);
    expect(createClock({ clock: 'real', speed: 1 }, store, source).now()).toBe(real);
    // A manual clock on the same file starts from the time kept last.
    const manual = createClock({ clock: 'manual', speed: 1 }, store, source);
    expect(manual).toBeInstanceOf(ManualClock);
    expect(manual.now()).toBe(START + 3_660_000);
    store.close();
  });

  it('never starts before the newest status change the database holds', () => {
    const store = Store.open(':memory:');
    try {
      createServices({ ...DEFAULT_CONFIG, db: ':memory:', clock: 'manual', startTime: START, quiet: true }, store);
      const view = createPaymentService(
        { store, clock: new ManualClock(START + 50_000), ids: { token: () => 'A'.repeat(32), invalidRequestId: () => '1', apiKey: () => 'k' }, settings: { cancelOpen: true, pageSize: 10 } },
        store.sites.get(30201)!,
        paymentBody(),
      );
      expect(view.payment.createdAt).toBe(START + 50_000);
      // The clock's own row says START (it was not saved since): the history wins.
      expect(createClock({ clock: 'manual', speed: 1, startTime: START }, store).now()).toBe(START + 50_000);
    } finally {
      store.close();
    }
  });

  it('the API answers the same across the restart', async () => {
    const db = join(tmp, 'api.db');
    let rig = await boot({ db });
    await advance(rig.sb, 10);
    const p = await createPayment(rig.sb);
    await shutdown({ sb: rig.sb });
    rig = await boot({ db }, rig.rx);
    try {
      const got = await request(rig.sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH);
      expect(got.body.Payment.Created).toBe(stamp(10_000));
    } finally {
      await shutdown(rig);
    }
  });
});
