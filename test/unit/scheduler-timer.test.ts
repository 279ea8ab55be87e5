// With the real clock, one timer waits for the next due step. Requests wake the scheduler all the
// time; a wake must not push back a timer already set for sooner, or under steady load the timer
// never fires and due steps wait for the 5 s sweep.
import { DEFAULT_CONFIG } from '../../src/config';
import { createLifecycle, createServices } from '../../src/main';
import { createPayment as create } from '../../src/services/payments.service';
import { applyPaymentEvent } from '../../src/services/events.service';
import { Store } from '../../src/store/store';
import { type Logger, createLogger, silentLogger } from '../../src/log';
import { START, paymentBody } from '../helpers/world';

/** A sandbox's store, services and scheduler on the real clock, every payment two-step, logging to `log`. */
function twoStepOnRealClock(log: Logger) {
  const store = Store.open(':memory:');
  const config = { ...DEFAULT_CONFIG, clock: 'real' as const, scenario: 'two-step', quiet: true };
  const services = createServices(config, store);
  const scheduler = createLifecycle(config, services, () => 'http://sandbox.test', log);
  return { store, services, scheduler };
}

describe('the real-clock timer under a stream of wakes', () => {
  beforeEach(() => jest.useFakeTimers({ now: START }));
  afterEach(() => jest.useRealTimers());

  it('stays set for the first due step, and the step runs on time', async () => {
    const { store, services, scheduler } = twoStepOnRealClock(silentLogger);
    scheduler.start();
    const site = store.sites.get(30201)!;
    const p = create(services, site, paymentBody() as never).payment;
    jest.advanceTimersByTime(0); // the wake after the create arms the timer for the step, 2 s on
    const timerOf = () => (scheduler as unknown as { timer: unknown }).timer;
    const armed = timerOf();
    expect(armed).not.toBeNull();
    // A request every millisecond, each waking the scheduler: the timer set for the step stays as it is.
    for (let ms = 0; ms < 1900; ms++) {
      services.wake!();
      jest.advanceTimersByTime(1);
      if (timerOf() !== armed) throw new Error(`the timer was set again after ${ms} ms of wakes`);
    }
    expect(store.payments.getAny(p.id)!.statusId).toBe(1);
    // It fires when the step is due, not at the next sweep.
    await jest.advanceTimersByTimeAsync(150);
    expect(store.payments.getAny(p.id)!.statusId).toBe(9);
    await scheduler.stop();
    store.close();
  });
});

describe('the real-clock timer while a snapshot is restored', () => {
  beforeEach(() => jest.useFakeTimers({ now: START }));
  afterEach(() => jest.useRealTimers());

  it('says nothing of writes held for the restore, and after it runs the restored steps when due', async () => {
    const lines: string[] = [];
    const { store, services, scheduler } = twoStepOnRealClock(createLogger('info', 'pretty', (l) => lines.push(l)));
    scheduler.start();
    const p = create(services, store.sites.get(30201)!, paymentBody() as never).payment;
    // The time a snapshot taken now keeps, which the restore brings back.
    store.tx(() => store.clockState.save(services.clock.now()));
    jest.advanceTimersByTime(0);
    store.holdWrites();
    await jest.advanceTimersByTimeAsync(2100); // the step is due, and its tick meets the held writes
    expect(store.payments.getAny(p.id)!.statusId).toBe(1);
    expect(lines).toEqual([]);
    store.releaseWrites();
    store.dataReplaced('restore');
    // The clock is back at the snapshot's time: the step is due 2 s on, as it was, not later.
    await jest.advanceTimersByTimeAsync(2100);
    expect(store.payments.getAny(p.id)!.statusId).toBe(9);
    await scheduler.stop();
    store.close();
  });
});

describe('real-clock ticks while a notification is on the wire', () => {
  it('leave nothing behind: no waiter per tick (a receiver that always has one in flight grew memory)', async () => {
    const { createServer } = await import('node:http');
    const hanging = createServer(() => {}); // accepts and never answers
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
    const { port } = hanging.address() as { port: number };
    const store = Store.open(':memory:');
    const config = { ...DEFAULT_CONFIG, clock: 'real' as const, quiet: true, notifyUrl: `http://127.0.0.1:${port}/n`, notifyTimeoutMs: 30_000 };
    const services = createServices(config, store);
    const scheduler = createLifecycle(config, services, () => 'http://sandbox.test', silentLogger);
    try {
      const p = create(services, store.sites.get(30201)!, paymentBody() as never).payment;
      applyPaymentEvent(services, p.id, 'authorize');
      await scheduler.tick();
      const worker = scheduler.worker as unknown as { inFlight: Set<number>; idleWaiters: unknown[] };
      expect(worker.inFlight.size).toBe(1);
      for (let i = 0; i < 100; i++) await scheduler.tick();
      expect(worker.idleWaiters).toHaveLength(0);
    } finally {
      await scheduler.stop();
      store.close();
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('a tick that fails on the real-clock timer', () => {
  beforeEach(() => jest.useFakeTimers({ now: START }));
  afterEach(() => jest.useRealTimers());

  it('is logged, and leaves no unhandled rejection (which would end the process)', async () => {
    const errors: string[] = [];
    const { store, services, scheduler } = twoStepOnRealClock({ ...silentLogger, error: (msg: string) => void errors.push(msg) });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      scheduler.start();
      create(services, store.sites.get(30201)!, paymentBody() as never);
      jest.advanceTimersByTime(0);
      jest.spyOn(store.jobs, 'countDue').mockImplementation(() => {
        throw new Error('boom');
      });
      await jest.advanceTimersByTimeAsync(2000);
      await new Promise((r) => jest.requireActual<typeof import('node:timers')>('node:timers').setImmediate(r));
      expect(errors).toContain('due work on its timer failed');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      jest.restoreAllMocks();
      await scheduler.stop();
      store.close();
    }
  });
});

describe('the safety-net sweep', () => {
  beforeEach(() => jest.useFakeTimers({ now: START }));
  afterEach(() => jest.useRealTimers());

  it('ticks every 5 s without reading the wall clock through Intl (which cost a loaded server some 2%)', async () => {
    const { store, scheduler } = twoStepOnRealClock(silentLogger);
    const formatToParts = jest.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    const tick = jest.spyOn(scheduler as unknown as { tickLogged(why: string): void }, 'tickLogged');
    scheduler.start();
    await jest.advanceTimersByTimeAsync(1000 + 3 * 5000 + 10);
    expect(tick.mock.calls.filter(([why]) => why === 'in the sweep')).toHaveLength(3);
    expect(formatToParts).not.toHaveBeenCalled();
    formatToParts.mockRestore();
    await scheduler.stop();
    store.close();
  });
});
