// A scenario step that moves its payment writes, in a commit group, with no savepoint at all (its
// refusals come before its first write: Store.txChecked); outside a group inside the step's own
// savepoint, with none of its own inside it. A step whose event is refused is skipped, and changes nothing.
import request from 'supertest';
import { createOutbox } from '../../src/notifications/outbox';
import { runJob } from '../../src/services/steps.service';
import { type World, createPayment, makeWorld, snapshot } from '../helpers/world';

type Runnable = { run(): unknown };
type Statements = Record<'savepoint' | 'release', Runnable>;

/** Follows how deep the store's savepoints nest (the deepest seen). */
function watch(w: World) {
  const stmt = (w.store as unknown as { stmt: Statements }).stmt;
  const real = { ...stmt };
  const seen = { depth: 0, deepest: 0, opened: 0 };
  stmt.savepoint = { run: () => (seen.opened++, (seen.deepest = Math.max(seen.deepest, ++seen.depth)), real.savepoint.run()) };
  stmt.release = { run: () => (seen.depth--, real.release.run()) };
  return { seen, restore: () => Object.assign(stmt, real) };
}

/** Runs every step due after `ms`, as the scheduler does: a run of steps, each a tx() of its own. */
function runDueSteps(w: World, ms: number): void {
  w.clock.set(w.clock.now() + ms);
  const now = w.clock.now();
  w.store.txSteps(() => {
    for (let job = w.store.jobs.nextDue(now); job; job = w.store.jobs.nextDue(now)) runJob(w.services, job);
  });
}

const rowsOf = (w: World, paymentId: number) => ({
  history: w.store.db.prepare('SELECT status_id, cause FROM status_history WHERE payment_id = ? ORDER BY id').all(paymentId),
  notifications: w.store.db.prepare('SELECT status_id, state, body FROM notifications WHERE payment_id = ? ORDER BY id').all(paymentId),
  jobs: w.store.db.prepare('SELECT action, state, outcome FROM scenario_jobs WHERE payment_id = ? ORDER BY id').all(paymentId),
});

describe('a scenario step', () => {
  let w: World;
  beforeEach(() => {
    w = makeWorld();
    // Status changes journal their notifications, as in a server.
    w.services.changes = createOutbox({ baseUrl: () => 'http://sandbox.test', cardBaseUrl: () => 'http://card.sandbox.test' });
  });
  afterEach(() => w.close());

  it.each([
    ['in a commit group opens no savepoint', true, { depth: 0, deepest: 0, opened: 0 }],
    ['outside a commit group opens one savepoint, its own', false, { depth: 0, deepest: 1, opened: 1 }],
  ])('authorizing its payment %s, and stores the move, its history and its notification', async (_, grouped, savepoints) => {
    const p = await createPayment(w);
    await new Promise((r) => setImmediate(r));
    if (!grouped) (w.store as unknown as { grouping: boolean }).grouping = false;
    const { seen, restore } = watch(w);
    try {
      runDueSteps(w, 2_000);
    } finally {
      restore();
    }
    expect(seen).toEqual(savepoints);
    await new Promise((r) => setImmediate(r));
    const read = await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth).expect(200);
    expect(read.body.Payment.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: null });
    expect(read.body.Payment.Splits.map((s: { StateDetails: { ID: number } }) => s.StateDetails.ID)).toEqual([9, 9, 9]);
    const rows = rowsOf(w, p.ID);
    expect(rows.history).toEqual([
      { status_id: 1, cause: 'created' },
      { status_id: 9, cause: 'scenario two-step: authorize' },
    ]);
    expect(rows.jobs).toEqual([{ action: 'authorize', state: 'done', outcome: 'Authorized' }]);
    expect(rows.notifications).toHaveLength(1);
    // The notification tells of the payment as a read shows it.
    expect(JSON.parse((rows.notifications[0] as { body: string }).body)).toEqual({ Payment: read.body.Payment });
  });

  it('whose event no longer fits the payment is skipped, and changes nothing else', async () => {
    const p = await createPayment(w);
    await request(w.api).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', w.auth).expect(200);
    await new Promise((r) => setImmediate(r));
    const before = rowsOf(w, p.ID);
    const stored = snapshot(w.store);
    const { seen, restore } = watch(w);
    try {
      runDueSteps(w, 2_000);
    } finally {
      restore();
    }
    // Refused before it wrote anything: no savepoint was needed to undo it.
    expect(seen.opened).toBe(0);
    await new Promise((r) => setImmediate(r));
    const after = rowsOf(w, p.ID);
    expect(after.history).toEqual(before.history);
    expect(after.notifications).toEqual(before.notifications);
    expect(after.jobs).toEqual([{ action: 'authorize', state: 'skipped', outcome: expect.stringMatching(/^skipped: Event authorize refused/) }]);
    expect(snapshot(w.store)).not.toBe(stored);
  });
});
