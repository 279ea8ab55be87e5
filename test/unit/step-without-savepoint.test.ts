// A scenario step's payment event writes, in a commit group, without a savepoint of its own (its refusals
// all come before its first write, as a create's do): a write that fails anyway undoes the whole group,
// every answer that waited for it fails, and the steps stay pending. The step that failed runs with a
// savepoint of its own the next time, so that a failure that comes again is recorded against it alone.
import request from 'supertest';
import { DEFAULT_CONFIG, type Config } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createLifecycle } from '../../src/main';
import type { Scheduler } from '../../src/scheduler/scheduler';
import { createPayment } from '../../src/services/payments.service';
import { runJob } from '../../src/services/steps.service';
import { GroupUndone, isStorageFailure } from '../../src/store/failures';
import { MARKETPLACE, START, type World, makeWorld, paymentBody, snapshot } from '../helpers/world';

const GROUP_UNDONE = 'a change stored together with it failed, and both were undone; try again';

type Runnable = { run(): unknown };

/** Counts the savepoints the store opens. */
function savepoints(w: World) {
  const stmt = (w.store as unknown as { stmt: Record<'savepoint', Runnable> }).stmt;
  const real = stmt.savepoint;
  const seen = { opened: 0 };
  stmt.savepoint = { run: () => (seen.opened++, real.run()) };
  return { seen, restore: () => (stmt.savepoint = real) };
}

/** The authorization's history row fails to be written, each time a step's is (of payment `only`, if given). */
function failStepHistory(w: World, only?: number) {
  const real = w.store.history.record.bind(w.store.history);
  return jest.spyOn(w.store.history, 'record').mockImplementation((...args) => {
    if (String(args[4]).startsWith('scenario') && (only === undefined || args[0] === only)) throw new Error('a write that fails');
    return real(...args);
  });
}

const jobsOf = (w: World) => w.store.db.prepare('SELECT payment_id, state, outcome FROM scenario_jobs ORDER BY id').all();

describe("a scenario step's payment event in a commit group", () => {
  let w: World;
  const config: Config = { ...DEFAULT_CONFIG, clock: 'manual', startTime: START, seed: 42, quiet: true };
  const create = (id: string) => createPayment(w.services, w.store.sites.get(MARKETPLACE.SiteID)!, paymentBody({ MerchantTransactionID: id })).payment.id;

  beforeEach(() => (w = makeWorld(config)));
  afterEach(() => {
    jest.restoreAllMocks();
    w.close();
  });

  it('whose write fails undoes the whole group: what waited for it fails, nothing of the turn is kept, the step stays pending', async () => {
    const first = create('first');
    w.store.flush();
    w.clock.set(w.clock.now() + 2_000);
    const before = snapshot(w.store);
    const beforeJobs = jobsOf(w);
    // A create of the same turn, then the run of steps, as a tick of the real clock carries them.
    create('same-turn');
    const outcomes: (string | null)[] = [];
    w.store.afterCommit((err) => outcomes.push(err && err.message));
    failStepHistory(w);
    const now = w.clock.now();
    let thrown: unknown;
    try {
      w.store.txSteps(() => {
        for (let job = w.store.jobs.nextDue(now); job; job = w.store.jobs.nextDue(now)) runJob(w.services, job);
      });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GroupUndone);
    expect(isStorageFailure(thrown)).toBe(true);
    expect(((thrown as Error).cause as Error).message).toBe('a write that fails');
    w.store.flush();
    expect(outcomes).toEqual([GROUP_UNDONE]);
    expect(snapshot(w.store)).toBe(before);
    expect(jobsOf(w)).toEqual(beforeJobs);
    expect(w.store.payments.getAny(first)!.statusId).toBe(1);
  });

  describe('run by the scheduler', () => {
    let scheduler: Scheduler;
    beforeEach(() => {
      scheduler = createLifecycle(config, w.services, () => w.ctx.urls.baseUrl, silentLogger);
      w.ctx.scheduler = scheduler;
    });
    afterEach(() => scheduler.stop());

    it('fails the advance whose write failed; the next runs that step with a savepoint and records a failure that comes again against it alone', async () => {
      const [a, b] = [create('a'), create('b')];
      w.store.flush();
      const history = failStepHistory(w, a);
      const failed = await request(w.api).post('/_sandbox/clock/advance').send({ Seconds: 2 });
      expect(failed.status).toBe(503);
      expect(failed.body).toEqual({ Message: `The change could not be saved: ${GROUP_UNDONE}` });
      expect(jobsOf(w)).toEqual([
        { payment_id: a, state: 'pending', outcome: null },
        { payment_id: b, state: 'pending', outcome: null },
      ]);

      // Again, still failing: the step that failed runs in a savepoint and is recorded as failed, alone;
      // the other runs without one, as before, and is stored.
      const { seen, restore } = savepoints(w);
      try {
        await request(w.api).post('/_sandbox/clock/advance').send({ Seconds: 1 }).expect(200);
      } finally {
        restore();
      }
      expect(seen.opened).toBe(1);
      expect(jobsOf(w)).toEqual([
        { payment_id: a, state: 'skipped', outcome: 'error: a write that fails' },
        { payment_id: b, state: 'done', outcome: 'Authorized' },
      ]);
      expect(w.store.payments.getAny(a)!.statusId).toBe(1);
      expect(w.store.payments.getAny(b)!.statusId).toBe(9);

      // Writes work again: a new payment's step runs without a savepoint, and is stored.
      history.mockRestore();
      const c = create('c');
      w.store.flush();
      const next = savepoints(w);
      try {
        await request(w.api).post('/_sandbox/clock/advance').send({ Seconds: 2 }).expect(200);
      } finally {
        next.restore();
      }
      expect(next.seen.opened).toBe(0);
      expect(w.store.payments.getAny(c)!.statusId).toBe(9);
      expect(jobsOf(w)[2]).toEqual({ payment_id: c, state: 'done', outcome: 'Authorized' });
    });
  });
});
