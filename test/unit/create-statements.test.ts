// What a create and a run of its authorization steps ask of SQLite: no UPDATE … RETURNING (an ephemeral
// table of the returned rows each time), one read of the first due job a step (reading 32 at a time cost
// more), and a step put on its clock without reading its payment's row again; and the rows are those of before.
import { createOutbox } from '../../src/notifications/outbox';
import { createPayment } from '../../src/services/payments.service';
import { runJob } from '../../src/services/steps.service';
import { statementsRunBy } from '../helpers/statements-run';
import { MARKETPLACE, type World, makeWorld, paymentBody } from '../helpers/world';

/** The SQL of every statement the driver runs, reads or iterates while `fn` runs. */
const statementsRun = (fn: () => void): string[] => statementsRunBy(fn, (sql) => sql.replace(/\s+/g, ' ').trim());

const DUE_READ = /^SELECT \* FROM scenario_jobs WHERE state = 'pending' AND due_at <= \?/;

describe('the statements of creates and their steps', () => {
  let w: World;
  beforeEach(() => {
    w = makeWorld();
    w.services.changes = createOutbox({ baseUrl: () => 'http://sandbox.test', cardBaseUrl: () => 'http://card.sandbox.test' });
  });
  afterEach(() => w.close());

  const create = (i: number) => createPayment(w.services, w.store.sites.get(MARKETPLACE.SiteID)!, paymentBody({ MerchantTransactionID: `statements-${i}` })).payment.id;

  it('a create steps its customer counter without RETURNING, to the next number each time', () => {
    const customerOf = (id: number) => (w.store.payments.getAny(id)!.customer as { ID: number }).ID;
    let ids: number[] = [];
    const sql = statementsRun(() => {
      ids = [create(1), create(2), create(3)];
    });
    expect(sql.filter((s) => /RETURNING/i.test(s))).toEqual([]);
    const customers = ids.map(customerOf);
    expect(customers).toEqual([customers[0], customers[0]! + 1, customers[0]! + 2]);
    expect(w.store.db.prepare(`SELECT value FROM counters WHERE name = 'customer'`).pluck().get()).toBe(customers[2]);
  });

  it('a run of 70 steps reads one due job a step, and each step is put on its clock without its payment read', () => {
    for (let i = 0; i < 70; i++) create(i);
    w.store.flush();
    w.clock.set(w.clock.now() + 2_000);
    const now = w.clock.now();
    let ran = 0;
    const sql = statementsRun(() => {
      w.store.txSteps(() => {
        for (let job = w.store.jobs.nextDue(now); job; job = w.store.jobs.nextDue(now), ran++) runJob(w.services, job);
      });
    });
    expect(ran).toBe(70);
    // One a step, then none left.
    const reads = sql.filter((s) => DUE_READ.test(s));
    expect(reads).toHaveLength(71);
    expect(reads.every((s) => s.endsWith('LIMIT 1'))).toBe(true);
    expect(w.store.db.prepare(`SELECT count(*) FROM scenario_jobs WHERE state = 'done' AND outcome = 'Authorized'`).pluck().get()).toBe(70);
  });

  it("a create's step is scheduled without reading its payment in the insert", () => {
    const sql = statementsRun(() => create(1));
    const inserts = sql.filter((s) => s.startsWith('INSERT INTO scenario_jobs'));
    expect(inserts).toHaveLength(1);
    expect(inserts[0]).not.toMatch(/FROM payments/);
  });
});
