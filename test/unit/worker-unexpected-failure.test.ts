// An attempt whose journal cannot be written leaves its notification due. Sending it again at once
// (each failure starting the next) spun the server at full CPU and never let it answer: a test run
// hung on such a fault. The payment now waits before its next try.
import http from 'node:http';
import { DEFAULT_CONFIG } from '../../src/config';
import { createLifecycle, createServices } from '../../src/main';
import { applyPaymentEvent } from '../../src/services/events.service';
import { createPayment as create } from '../../src/services/payments.service';
import { Store } from '../../src/store/store';
import { silentLogger } from '../../src/log';
import { startReceiver } from '../helpers/receiver';
import { START, paymentBody } from '../helpers/world';

describe('a notification attempt that fails unexpectedly', () => {
  afterEach(() => jest.useRealTimers());

  it('is tried again after a pause, not at once and forever; then it is delivered', async () => {
    jest.useFakeTimers({ now: START, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const rx = await startReceiver();
    const store = Store.open(':memory:');
    const config = { ...DEFAULT_CONFIG, clock: 'manual' as const, startTime: START, quiet: true, notifyUrl: rx.url, notifyTimeoutMs: 60_000 };
    const services = createServices(config, store);
    const errors: string[] = [];
    const worker = createLifecycle(config, services, () => 'http://sandbox.test', { ...silentLogger, error: (msg) => void errors.push(msg) }).worker;
    // A round trip to the receiver on a connection of its own: anything the worker sent before it has arrived by then.
    const roundTrip = () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(rx.url, { method: 'POST', agent: false }, (res) => res.resume().on('end', resolve));
        req.on('error', reject);
        req.end('{}');
      });
    const posts = () => rx.received.filter((r) => r.body?.Payment).length;
    try {
      const p = create(services, store.sites.get(30201)!, paymentBody() as never).payment;
      applyPaymentEvent(services, p.id, 'authorize');
      applyPaymentEvent(services, p.id, 'fail'); // queued behind the first
      const record = store.notifications.recordAttempt.bind(store.notifications);
      store.notifications.recordAttempt = () => {
        throw new Error('disk I/O error');
      };
      worker.send();
      while (errors.length === 0) await roundTrip();
      expect(errors[0]).toMatch(/failed unexpectedly/);
      // Nothing more happens until the pause is over, however long the receiver is watched.
      jest.advanceTimersByTime(999);
      for (let i = 0; i < 5; i++) await roundTrip();
      expect(posts()).toBe(1);
      expect(rx.received.find((r) => r.body?.Payment)!.body.Payment.Status.ID).toBe(9);
      expect(errors).toHaveLength(1);
      // Then it is tried again; with the journal writable once more, it is delivered, and the
      // next notification of the payment follows in order.
      store.notifications.recordAttempt = record;
      jest.advanceTimersByTime(1);
      const done = new Promise<void>((resolve) => worker.events.on('delivered', () => void (store.notifications.list({ state: 'pending' }).length === 0 && resolve())));
      await done;
      const journal = store.notifications.list({ paymentId: p.id });
      expect(journal.map((n) => n.state)).toEqual(['delivered', 'delivered']);
      expect(store.notifications.attemptsOf(journal[0]!.id)).toHaveLength(1);
      expect(rx.received.filter((r) => r.body?.Payment).map((r) => r.body.Payment.Status.ID)).toEqual([9, 9, 4]);
      expect(errors).toHaveLength(1);
    } finally {
      await worker.stop();
      store.close();
      await rx.close();
    }
  });
});
