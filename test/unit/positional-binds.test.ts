// The rows a create and its authorization step write are bound by position, not by name: the driver
// binds a named parameter by making its name a string and looking it up on the object given, once per
// parameter (34 for a payment's row), and the rows are the same either way.
import { createOutbox } from '../../src/notifications/outbox';
import { runJob } from '../../src/services/steps.service';
import request from 'supertest';
import { Status } from '../../src/domain/statuses';
import { createPayment } from '../../src/services/payments.service';
import { statementsRunBy } from '../helpers/statements-run';
import { MARKETPLACE, type World, makeWorld, paymentBody } from '../helpers/world';

/** What the driver's statements run, while `fn` runs: each one's SQL and whether it was given named parameters. */
const statementsRun = (fn: () => void): { sql: string; named: boolean; array: boolean }[] =>
  statementsRunBy(
    fn,
    (sql, args) => {
      const first = args[0];
      return { sql, named: args.length === 1 && first !== null && typeof first === 'object' && !Array.isArray(first), array: args.some((a) => Array.isArray(a)) };
    },
    ['run', 'get'],
  );

/** The writes of a create and of its step (the request journal's, elsewhere, are not counted). */
const PAYMENT_WRITES = /^\s*(INSERT INTO (payments|splits|status_history|scenario_jobs|notifications)\b|UPDATE (payments|splits|scenario_jobs|counters)\b)/;

function runDueSteps(w: World, ms: number): void {
  w.clock.set(w.clock.now() + ms);
  const now = w.clock.now();
  w.store.txSteps(() => {
    for (let job = w.store.jobs.nextDue(now); job; job = w.store.jobs.nextDue(now)) runJob(w.services, job);
  });
}

describe('the rows of a create and of its authorization', () => {
  let w: World;
  beforeEach(() => {
    w = makeWorld();
    // Status changes journal their notifications, as in a server.
    w.services.changes = createOutbox({ baseUrl: () => 'http://sandbox.test', cardBaseUrl: () => 'http://card.sandbox.test' });
  });
  afterEach(() => w.close());

  it('are written with parameters bound by position, and read back as written', async () => {
    const site = w.store.sites.get(MARKETPLACE.SiteID)!;
    let id = 0;
    const run = statementsRun(() => {
      id = createPayment(w.services, site, paymentBody({ MerchantTransactionID: 'by-position' })).payment.id;
      w.store.flush();
      runDueSteps(w, 2_000);
      w.store.flush();
    });
    const writes = run.filter((s) => PAYMENT_WRITES.test(s.sql));
    const kinds = new Set(writes.map((s) => s.sql.trim().split(/\s+/).slice(0, 3).join(' ').replace(/ SET$/, '')));
    expect([...kinds].sort()).toEqual(
      [
        'INSERT INTO notifications',
        'INSERT INTO payments',
        'INSERT INTO scenario_jobs',
        'INSERT INTO splits',
        'INSERT INTO status_history',
        'UPDATE counters',
        'UPDATE payments',
        'UPDATE scenario_jobs',
        'UPDATE splits',
      ].sort(),
    );
    expect(writes.filter((s) => s.named || /@\w/.test(s.sql)).map((s) => s.sql)).toEqual([]);
    // As the call's arguments, which the driver reads directly: an array's values it reads one by one through V8's API.
    expect(writes.filter((s) => s.array).map((s) => s.sql)).toEqual([]);

    // What was bound by position is where it belongs: the payment as the API shows it, and its notification.
    const read = await request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth).expect(200);
    expect(read.body.Payment).toMatchObject({ ID: id, MerchantTransactionID: 'by-position', Amount: '1000', Currency: 'EUR', Status: { ID: Status.Authorized } });
    expect(read.body.Payment.Splits.map((s: { Amount: string }) => s.Amount)).toEqual(['600', '300', '100']);
    const notifications = w.store.db
      .prepare('SELECT site_id, status_id, state, behind, clock_site_id, next_attempt_at, created_at, body FROM notifications WHERE payment_id = ?')
      .all(id) as { body: string }[];
    expect(notifications).toEqual([
      expect.objectContaining({ site_id: MARKETPLACE.SiteID, status_id: Status.Authorized, state: 'no-url', behind: 0, clock_site_id: null, next_attempt_at: w.clock.now(), created_at: w.clock.now() }),
    ]);
    expect(JSON.parse(notifications[0]!.body).Payment).toMatchObject({ ID: id, Status: { ID: Status.Authorized } });
    const job = w.store.db.prepare('SELECT step_index, action, state, clock_site_id FROM scenario_jobs WHERE payment_id = ?').get(id);
    expect(job).toEqual({ step_index: 0, action: 'authorize', state: 'done', clock_site_id: null });
  });
});
