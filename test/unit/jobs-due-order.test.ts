// A run of scenario steps (Store.txSteps) is handed its due jobs by nextDue(): the same job, in the same
// order, as a query of the first due job at that moment, whatever the steps write.
import { type World, createPayment, makeWorld } from '../helpers/world';

const FIRST_DUE = `SELECT id FROM scenario_jobs WHERE state = 'pending' AND due_at <= ? AND clock_site_id IS ? ORDER BY due_at, id LIMIT 1`;

describe('the due jobs of a run of steps', () => {
  let w: World;
  let payments: number[];
  beforeEach(async () => {
    w = makeWorld();
    payments = [];
    for (let i = 0; i < 5; i++) payments.push((await createPayment(w)).ID);
    await new Promise((r) => setImmediate(r));
  });
  afterEach(() => w.close());

  /** Schedules `count` more jobs over the payments, due at times spread over the last minute (ties among them). */
  function scheduleMany(count: number, now: number): void {
    w.store.tx(() => {
      for (let i = 0; i < count; i++) w.store.jobs.schedule(payments[i % payments.length]!, null, -1, 'authorize', now - 60_000 + (i % 7) * 1_000);
    });
  }

  const firstDue = (now: number) => w.store.db.prepare<[number, null], number>(FIRST_DUE).pluck().get(now, null);

  /**
   * Runs the due jobs as the scheduler does (each handed out is finished), checking each against the
   * query, with `between(n, now)` writing what a step might after the n-th.
   */
  function runChecked(now: number, between: (n: number, now: number) => void = () => {}): number[] {
    const ran: number[] = [];
    w.store.txSteps(() => {
      for (let job = w.store.jobs.nextDue(now); job; job = w.store.jobs.nextDue(now)) {
        expect(job.id).toBe(firstDue(now));
        expect(job.state).toBe('pending');
        w.store.jobs.finish(job.id, 'done', 'ran', now);
        ran.push(job.id);
        between(ran.length, now);
      }
      expect(firstDue(now)).toBeUndefined();
    });
    return ran;
  }

  it('are handed out in due order, over more than one read, each once', () => {
    const now = w.clock.now() + 60_000;
    scheduleMany(80, now);
    const ran = runChecked(now);
    // The five creates' authorizations and the eighty scheduled.
    expect(ran).toHaveLength(85);
    expect(new Set(ran).size).toBe(85);
  });

  it('follow what the steps write: a job due sooner, a job finished meanwhile, a hold, a move of clocks', () => {
    const now = w.clock.now() + 60_000;
    scheduleMany(60, now);
    const ran = runChecked(now, (n, at) => {
      // Due before those already due: it comes next.
      if (n === 3) w.store.jobs.schedule(payments[0]!, null, -1, 'authorize', at - 120_000);
      // Due as the run's time: after every due job, as the query has it.
      if (n === 5) w.store.jobs.schedule(payments[1]!, null, -1, 'authorize', at);
      // One due, finished by another step (a payer's choice supersedes it).
      if (n === 8) w.store.jobs.finish(firstDue(at)!, 'skipped', 'superseded', at);
      if (n === 12) w.store.jobs.hold(payments[2]!, ['authorize'], at + 3_600_000);
      if (n === 20) w.store.jobs.moveToClock(payments[3]!, null);
      // Not due yet, whenever it is scheduled.
      if (n === 25) w.store.jobs.schedule(payments[4]!, null, -1, 'authorize', at + 1);
    });
    const held = w.store.db.prepare<[number], number>(`SELECT count(*) FROM scenario_jobs WHERE payment_id = ? AND state = 'pending'`).pluck().get(payments[2]!);
    expect(held).toBeGreaterThan(0);
    expect(ran.length).toBeGreaterThan(40);
  });

  it('outside a run of steps: the first due, until it is finished', () => {
    const now = w.clock.now() + 60_000;
    scheduleMany(10, now);
    const first = w.store.jobs.nextDue(now);
    expect(first?.id).toBe(firstDue(now));
    // Not finished: the same job is the first due still.
    expect(w.store.jobs.nextDue(now)?.id).toBe(first?.id);
  });

  it("are put on their marketplace's clock alike, whether the payment's owner is given or read from the payment", () => {
    const clockOf = (id: number) => w.store.db.prepare<[number], number | null>('SELECT clock_site_id FROM scenario_jobs WHERE id = ?').pluck().get(id);
    const lastJob = () => w.store.db.prepare<[], number>('SELECT max(id) FROM scenario_jobs').pluck().get()!;
    const both = () => {
      const owner = w.store.payments.getAny(payments[0]!)!.ownerSiteId;
      w.store.tx(() => w.store.jobs.schedule(payments[0]!, null, -1, 'authorize', 1));
      const read = clockOf(lastJob());
      w.store.tx(() => w.store.jobs.schedule(payments[0]!, null, -1, 'authorize', 1, owner));
      return [read, clockOf(lastJob())];
    };
    expect(both()).toEqual([null, null]);
    // The marketplace (the payments' owner) on a clock of its own.
    w.store.tx(() => w.store.db.prepare('INSERT INTO site_clocks (site_id, sandbox_ms) VALUES (30201, 0)').run());
    expect(both()).toEqual([30201, 30201]);
  });
});
