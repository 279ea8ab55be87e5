// Scenario steps waiting for their time.
import { dueBy } from '../domain/time';
import type { Db } from './db';
import { clockSiteOf } from './owned';

export interface JobRecord {
  id: number;
  /** The payment the step belongs to; null for a preapproval's step. */
  paymentId: number | null;
  /** The preapproval the step belongs to, or null. */
  preapprovalId: number | null;
  refundId: number | null;
  stepIndex: number;
  action: string;
  dueAt: number;
  state: 'pending' | 'done' | 'skipped';
  outcome: string | null;
  ranAt: number | null;
  /** When the scenario planned the step, if the payer's open page moved it (then dueAt is the hold's end). */
  plannedDueAt: number | null;
}

interface JobRow {
  id: number;
  payment_id: number | null;
  preapproval_id: number | null;
  refund_id: number | null;
  step_index: number;
  action: string;
  due_at: number;
  state: JobRecord['state'];
  outcome: string | null;
  ran_at: number | null;
  planned_due_at: number | null;
}

const toRecord = (r: JobRow): JobRecord => ({
  id: r.id,
  paymentId: r.payment_id,
  preapprovalId: r.preapproval_id,
  refundId: r.refund_id,
  stepIndex: r.step_index,
  action: r.action,
  dueAt: r.due_at,
  state: r.state,
  outcome: r.outcome,
  ranAt: r.ran_at,
  plannedDueAt: r.planned_due_at,
});

export class JobsRepo {
  private readonly insertStmt;
  private readonly nextDueStmt;
  private readonly earliestStmt;
  private readonly countDueStmt;
  private readonly finishStmt;
  private readonly ofPaymentStmt;
  private readonly holdStmt;
  private readonly heldStmt;
  private readonly insertPreapprovalStmt;
  private readonly ofPreapprovalStmt;
  private readonly moveClockStmt;
  private readonly insertOwnedStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      // On the clock of the payment's marketplace when it has its own (NULL: the sandbox's).
      `INSERT INTO scenario_jobs (payment_id, refund_id, step_index, action, due_at, state, clock_site_id)
       VALUES (?, ?, ?, ?, ?, 'pending',
               (SELECT c.site_id FROM payments p JOIN site_clocks c ON c.site_id = ${clockSiteOf('p.owner_site_id')} WHERE p.id = ?))`,
    );
    // The same, its payment's owner given: its clock is found from the owner without the payment's row.
    this.insertOwnedStmt = db.prepare(
      `INSERT INTO scenario_jobs (payment_id, refund_id, step_index, action, due_at, state, clock_site_id)
       VALUES (?, ?, ?, ?, ?, 'pending', (SELECT c.site_id FROM site_clocks c WHERE c.site_id = ${clockSiteOf('?')}))`,
    );
    this.insertPreapprovalStmt = db.prepare(
      `INSERT INTO scenario_jobs (preapproval_id, step_index, action, due_at, state) VALUES (?, ?, ?, ?, 'pending')`,
    );
    this.ofPreapprovalStmt = db.prepare<[number], JobRow>('SELECT * FROM scenario_jobs WHERE preapproval_id = ? ORDER BY id');
    // Each clock's own due rows, through scenario_jobs_due (clock_site_id IS NULL: the sandbox's).
    this.nextDueStmt = db.prepare<[number, number | null], JobRow>(
      `SELECT * FROM scenario_jobs WHERE state = 'pending' AND due_at <= ? AND clock_site_id IS ? ORDER BY due_at, id LIMIT 1`,
    );
    this.countDueStmt = db
      .prepare<[number, number | null, number], number>(
        `SELECT count(*) FROM (SELECT 1 FROM scenario_jobs WHERE state = 'pending' AND due_at <= ? AND clock_site_id IS ? LIMIT ?)`,
      )
      .pluck();
    this.earliestStmt = db.prepare<[number | null], { due: number | null }>(
      `SELECT min(due_at) AS due FROM scenario_jobs WHERE state = 'pending' AND clock_site_id IS ?`,
    );
    this.moveClockStmt = db.prepare<[number | null, number]>(
      `UPDATE scenario_jobs SET clock_site_id = ? WHERE state = 'pending' AND payment_id IN (SELECT id FROM payments WHERE owner_site_id IN (SELECT site_id FROM sites WHERE ? IN (site_id, marketplace_site_id)))`,
    );
    this.finishStmt = db.prepare('UPDATE scenario_jobs SET state = ?, outcome = ?, ran_at = ? WHERE id = ?');
    this.ofPaymentStmt = db.prepare<[number], JobRow>('SELECT * FROM scenario_jobs WHERE payment_id = ? ORDER BY id');
    // Through scenario_jobs_by_payment: a payment has a handful of steps.
    this.holdStmt = db.prepare<{ paymentId: number; until: number; actions: string }>(
      `UPDATE scenario_jobs SET planned_due_at = coalesce(planned_due_at, due_at), due_at = @until
       WHERE payment_id = @paymentId AND state = 'pending' AND refund_id IS NULL AND due_at < @until
         AND action IN (SELECT value FROM json_each(@actions))`,
    );
    this.heldStmt = db.prepare<[number], JobRow>(
      `SELECT * FROM scenario_jobs WHERE payment_id = ? AND state = 'pending' AND planned_due_at IS NOT NULL ORDER BY id`,
    );
  }

  /** Moves the payment's pending steps doing one of `actions` to `until` (none sooner), keeping their planned time. */
  hold(paymentId: number, actions: readonly string[], until: number): number {
    return this.holdStmt.run({ paymentId, until: dueBy(until), actions: JSON.stringify(actions) }).changes;
  }

  /** The payment's pending steps that a hold moved. */
  heldOf(paymentId: number): JobRecord[] {
    return this.heldStmt.all(paymentId).map(toRecord);
  }

  /** `ownerSiteId`, the payment's owner, when the caller has it: its clock is then found without reading the payment. */
  schedule(paymentId: number, refundId: number | null, stepIndex: number, action: string, dueAt: number, ownerSiteId?: number): void {
    // By position (the payment's ID twice: its row's and its clock's; or its owner, twice in clockSiteOf): cheaper to bind than by name.
    if (ownerSiteId === undefined) this.insertStmt.run(paymentId, refundId, stepIndex, action, dueBy(dueAt), paymentId);
    else this.insertOwnedStmt.run(paymentId, refundId, stepIndex, action, dueBy(dueAt), ownerSiteId, ownerSiteId);
  }

  /** A step of a preapproval's scenario. */
  schedulePreapproval(preapprovalId: number, stepIndex: number, action: string, dueAt: number): void {
    this.insertPreapprovalStmt.run(preapprovalId, stepIndex, action, dueBy(dueAt));
  }

  ofPreapproval(preapprovalId: number): JobRecord[] {
    return this.ofPreapprovalStmt.all(preapprovalId).map(toRecord);
  }

  /**
   * The pending job due first on a clock (`clock`: a marketplace's own, null the sandbox's), if it is
   * due at `now`. Ties go in the order they were scheduled. One query a step: a run of steps reading
   * 32 due jobs at once cost more instructions a step than this (the driver's making of each row's
   * values dominates either way, and a slice of 16 to 50 steps read rows it did not run).
   */
  nextDue(now: number, clock: number | null = null): JobRecord | undefined {
    const row = this.nextDueStmt.get(now, clock);
    return row && toRecord(row);
  }

  /** How many pending jobs of a clock are due at `now`, counting up to `limit`. */
  countDue(now: number, limit: number, clock: number | null = null): number {
    return this.countDueStmt.get(now, clock, limit)!;
  }

  earliestDue(clock: number | null = null): number | null {
    return this.earliestStmt.get(clock)!.due;
  }

  /** The pending steps of a marketplace's payments run on `clock` from now on (its own, or null: the sandbox's). */
  moveToClock(siteId: number, clock: number | null): void {
    this.moveClockStmt.run(clock, siteId);
  }

  finish(id: number, state: 'done' | 'skipped', outcome: string, at: number): void {
    this.finishStmt.run(state, outcome, at, id);
  }

  ofPayment(paymentId: number): JobRecord[] {
    return this.ofPaymentStmt.all(paymentId).map(toRecord);
  }
}
