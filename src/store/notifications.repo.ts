// The notification outbox and the journal of delivery attempts.
import { dueBy } from '../domain/time';
import type { Db } from './db';
import { clockSiteOf } from './owned';

export type NotificationState = 'pending' | 'delivered' | 'failed' | 'no-url' | 'dropped';

export interface NotificationRecord {
  id: number;
  /** The payment it tells of; null for a preapproval's notification. */
  paymentId: number | null;
  /** The preapproval it tells of, or null. */
  preapprovalId: number | null;
  /** The card payout it tells of, or null (a payout's notification names no payment). */
  payoutId?: number | null;
  refundId: number | null;
  siteId: number;
  statusId: number;
  body: string;
  state: NotificationState;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  deliveredAt: number | null;
  /** What a fault did to it (`delayed 5s by fault 3`), or null. */
  fault: string | null;
  /** Held back by a fault until nextAttemptAt, out of its payment's queue: later ones go first. */
  held: boolean;
  /** The marketplace whose own clock it runs on; null: the sandbox's. */
  clockSiteId?: number | null;
}

export interface AttemptRecord {
  id: number;
  notificationId: number;
  at: number;
  url: string;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

interface NotificationRow {
  id: number;
  payment_id: number | null;
  preapproval_id: number | null;
  payout_id: number | null;
  refund_id: number | null;
  site_id: number;
  status_id: number;
  body: string;
  state: NotificationState;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  delivered_at: number | null;
  fault: string | null;
  held: number;
  clock_site_id: number | null;
}

const toRecord = (r: NotificationRow): NotificationRecord => ({
  id: r.id,
  paymentId: r.payment_id,
  preapprovalId: r.preapproval_id,
  payoutId: r.payout_id,
  refundId: r.refund_id,
  siteId: r.site_id,
  statusId: r.status_id,
  body: r.body,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
  fault: r.fault,
  held: r.held === 1,
  clockSiteId: r.clock_site_id,
});

export interface NotificationFilter {
  paymentId?: number;
  refundId?: number;
  preapprovalId?: number;
  payoutId?: number;
  state?: NotificationState;
  statusId?: number;
  /** Only notifications in a final state: every state but pending. */
  final?: boolean;
  /** Only those of one marketplace (the site notified). */
  siteId?: number;
}

/**
 * A notification at the head of its object's queue, due to be sent. `queue` names the queue: a
 * payment's ID, a preapproval's ID negated, or a payout's ID negated below PAYOUT_QUEUES (the three
 * kinds never share a queue).
 */
export interface DueHead {
  id: number;
  queue: number;
}

/** A notification as far as its queue goes: a payment's (no preapprovalId), a preapproval's or a payout's. */
export type QueuedRef = Pick<NotificationRecord, 'id' | 'paymentId'> & { preapprovalId?: number | null; payoutId?: number | null };

/** Payouts' queues are numbered below this (2^40), far from any preapproval's negated ID. */
export const PAYOUT_QUEUES = 1099511627776;
const QUEUE_SQL = `coalesce(payment_id, -preapproval_id, -${PAYOUT_QUEUES} - payout_id)`;

/** The queue a notification waits in (DueHead.queue). */
export const queueOf = (n: Omit<QueuedRef, 'id'>): number =>
  n.paymentId ?? (n.preapprovalId != null ? -n.preapprovalId : n.payoutId != null ? -PAYOUT_QUEUES - n.payoutId : 0);

/** Whose queue: the object a notification tells of, as the statements below bind it. */
const owner = (n: Omit<QueuedRef, 'id'>) => ({ paymentId: n.paymentId, preapprovalId: n.preapprovalId ?? null, payoutId: n.payoutId ?? null });

/**
 * Due heads in due order, from the heads index alone (the tests check the plan). Only the keys: the
 * heads on the wire are due too and come back on every call, and reading their bodies each time
 * took a fifth of the server's time under load.
 */
export const DUE_HEADS_SQL = `SELECT id, ${QUEUE_SQL} AS queue FROM notifications INDEXED BY notifications_due
  WHERE state = 'pending' AND behind = 0 AND clock_site_id IS @clock AND next_attempt_at <= @now
  ORDER BY next_attempt_at, id LIMIT @limit`;
export const EARLIEST_DUE_SQL = `SELECT next_attempt_at AS due, ${QUEUE_SQL} AS queue FROM notifications INDEXED BY notifications_due
  WHERE state = 'pending' AND behind = 0 AND clock_site_id IS ?
  ORDER BY next_attempt_at, id`;
/** The clock of a new notification: its marketplace's own, when it has one (NULL: the sandbox's). */
const CLOCK_OF_SITE = (site: string) => `(SELECT c.site_id FROM site_clocks c WHERE c.site_id = ${clockSiteOf(site)})`;

const NONE: ReadonlySet<number> = new Set();

/**
 * Whether a new pending notification of the payment (`payment`: an SQL expression) waits behind its
 * queue: the payment has a pending one already that is not held (a held one is out of the queue).
 */
const queuedBehind = (payment: string, preapproval: string, payout: string) =>
  `EXISTS (SELECT 1 FROM notifications q WHERE q.payment_id IS ${payment} AND q.preapproval_id IS ${preapproval} AND q.payout_id IS ${payout}
     AND q.state = 'pending' AND q.held = 0)`;

export class NotificationsRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly dueHeadsStmt;
  private readonly earliestStmt;
  private readonly reheadStmt;
  private readonly deliveredStmt;
  private readonly failedAttemptStmt;
  private readonly attemptStmt;
  private readonly attemptsOfStmt;
  private readonly redeliverStmt;
  private readonly holdStmt;
  private readonly releaseStmt;
  private readonly dropStmt;
  private readonly copyStmt;
  private readonly faultStmt;
  private readonly behindStmt;
  private readonly moveClockStmt;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();

  constructor(private readonly db: Db) {
    // A new notification is the newest of its payment: it waits if any other is still pending
    // (one held back by a fault has stepped aside and holds nothing back).
    // Its parameters by position (insert() gives them in this order, some twice): the driver binds a
    // named one by making its name a string and looking it up on an object, once for each.
    this.insertStmt = db.prepare(
      `INSERT INTO notifications (payment_id, preapproval_id, payout_id, refund_id, site_id, status_id, body, state, next_attempt_at, created_at, behind, clock_site_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
               ? = 'pending' AND ${queuedBehind('?', '?', '?')}, ${CLOCK_OF_SITE('?')})`,
    );
    this.byIdStmt = db.prepare<[number], NotificationRow>('SELECT * FROM notifications WHERE id = ?');
    // Per payment, in order: only the oldest pending notification of a payment (its head, behind = 0)
    // may be sent. One queued behind a failing head is not due before that head, whatever its own
    // next_attempt_at says (counting it made the manual clock's advance() loop forever on a time at
    // which nothing could be sent). The partial index holds the heads alone, so neither query reads
    // the rows waiting behind them.
    this.dueHeadsStmt = db.prepare<[{ now: number; limit: number; clock: number | null }], DueHead>(DUE_HEADS_SQL);
    this.earliestStmt = db.prepare<[number | null], { due: number; queue: number }>(EARLIEST_DUE_SQL);
    this.moveClockStmt = db.prepare<[number | null, number]>(`UPDATE notifications SET clock_site_id = ? WHERE state = 'pending' AND site_id IN (SELECT site_id FROM sites WHERE ? IN (site_id, marketplace_site_id))`);
    // After a notification of the payment left or re-entered the queue: its oldest pending one heads it.
    // A held one is out of the queue: a head of its own (behind = 0), due when its delay ends.
    this.reheadStmt = db.prepare<[{ paymentId: number | null; preapprovalId: number | null; payoutId: number | null }]>(
      `UPDATE notifications SET behind = NOT behind
       WHERE payment_id IS @paymentId AND preapproval_id IS @preapprovalId AND payout_id IS @payoutId AND state = 'pending' AND held = 0
         AND behind = (id = (SELECT min(id) FROM notifications
                             WHERE payment_id IS @paymentId AND preapproval_id IS @preapprovalId AND payout_id IS @payoutId AND state = 'pending' AND held = 0))`,
    );
    this.deliveredStmt = db.prepare(
      `UPDATE notifications SET state = 'delivered', attempts = attempts + 1, delivered_at = ? WHERE id = ?`,
    );
    this.failedAttemptStmt = db.prepare(
      `UPDATE notifications SET state = ?, attempts = attempts + 1, next_attempt_at = ? WHERE id = ?`,
    );
    this.attemptStmt = db.prepare(
      `INSERT INTO notification_attempts (notification_id, at, url, http_status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.attemptsOfStmt = db.prepare<[number], { id: number; notification_id: number; at: number; url: string; http_status: number | null; error: string | null; duration_ms: number }>(
      'SELECT * FROM notification_attempts WHERE notification_id = ? ORDER BY id',
    );
    this.redeliverStmt = db.prepare(`UPDATE notifications SET state = 'pending', next_attempt_at = ? WHERE id = ?`);
    this.holdStmt = db.prepare(`UPDATE notifications SET held = 1, behind = 0, next_attempt_at = ?, fault = ? WHERE id = ?`);
    this.releaseStmt = db.prepare(`UPDATE notifications SET held = 0 WHERE id = ?`);
    this.dropStmt = db.prepare(`UPDATE notifications SET state = 'dropped', fault = ? WHERE id = ?`);
    this.copyStmt = db.prepare<[{ id: number; fault: string; at: number }]>(
      `INSERT INTO notifications (payment_id, preapproval_id, payout_id, refund_id, site_id, status_id, body, state, next_attempt_at, created_at, behind, fault, clock_site_id)
       SELECT payment_id, preapproval_id, payout_id, refund_id, site_id, status_id, body, 'pending', @at, @at,
              ${queuedBehind('n.payment_id', 'n.preapproval_id', 'n.payout_id')}, @fault, clock_site_id
       FROM notifications n WHERE id = @id`,
    );
    this.faultStmt = db.prepare(`UPDATE notifications SET fault = ? WHERE id = ?`);
    this.behindStmt = db.prepare<[number], number>(`SELECT behind FROM notifications WHERE id = ?`).pluck();
  }

  insert(n: Omit<NotificationRecord, 'id' | 'attempts' | 'deliveredAt' | 'fault' | 'held' | 'preapprovalId'> & { preapprovalId?: number | null }): number {
    const preapprovalId = n.preapprovalId ?? null;
    const payoutId = n.payoutId ?? null;
    const info = this.insertStmt.run(
      // The row's values, in the order of its columns…
      n.paymentId, preapprovalId, payoutId, n.refundId, n.siteId, n.statusId, n.body, n.state, dueBy(n.nextAttemptAt), n.createdAt,
      // …then its place in the queue (its state, whose queue it joins) and its clock (its site, twice in CLOCK_OF_SITE).
      n.state, n.paymentId, preapprovalId, payoutId, n.siteId, n.siteId,
    );
    return Number(info.lastInsertRowid);
  }

  get(id: number): NotificationRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row && toRecord(row);
  }

  /** Heads due at `now` on a clock (a marketplace's own, null the sandbox's). */
  dueHeads(now: number, limit: number, clock: number | null = null): DueHead[] {
    return this.dueHeadsStmt.all({ now, limit, clock });
  }

  /** The pending notifications of a marketplace run on `clock` from now on (its own, or null: the sandbox's). */
  moveToClock(siteId: number, clock: number | null): void {
    this.moveClockStmt.run(clock, siteId);
  }

  /**
   * When the next head is due, passing over those of payments in `onTheWire`: a notification being
   * sent is still pending, and its due time, long past, would make a timer fire again and again until
   * its answer came. Reads one head more than there are payments on the wire, at most.
   */
  earliestDue(onTheWire: ReadonlySet<number> = NONE, clock: number | null = null): number | null {
    for (const h of this.earliestStmt.iterate(clock)) if (!onTheWire.has(h.queue)) return h.due;
    return null;
  }

  markDelivered(n: QueuedRef, at: number): void {
    this.deliveredStmt.run(at, n.id);
    this.reheadStmt.run(owner(n));
  }

  markFailedAttempt(n: QueuedRef, nextAttemptAt: number, givenUp: boolean): void {
    this.failedAttemptStmt.run(givenUp ? 'failed' : 'pending', dueBy(nextAttemptAt), n.id);
    if (givenUp) this.reheadStmt.run(owner(n));
  }

  recordAttempt(a: Omit<AttemptRecord, 'id'>): void {
    this.attemptStmt.run(a.notificationId, a.at, a.url, a.httpStatus, a.error, a.durationMs);
  }

  attemptsOf(id: number): AttemptRecord[] {
    return this.attemptsOfStmt.all(id).map((r) => ({
      id: r.id,
      notificationId: r.notification_id,
      at: r.at,
      url: r.url,
      httpStatus: r.http_status,
      error: r.error,
      durationMs: r.duration_ms,
    }));
  }

  redeliver(n: QueuedRef, at: number): void {
    this.redeliverStmt.run(at, n.id);
    this.reheadStmt.run(owner(n));
  }

  /** A fault holds `n` back until `until`: it steps out of its payment's queue, and the next one heads it. */
  hold(n: QueuedRef, until: number, fault: string): void {
    this.holdStmt.run(dueBy(until), fault, n.id);
    this.reheadStmt.run(owner(n));
  }

  /**
   * Its delay is over: back in its payment's queue, at the place its age gives it. Whether it heads
   * the queue (false when an older one of its payment still waits: it goes after that one).
   */
  release(n: QueuedRef): boolean {
    this.releaseStmt.run(n.id);
    this.reheadStmt.run(owner(n));
    return this.behindStmt.get(n.id) === 0;
  }

  /** A fault drops `n`: never sent, and the next one of its payment heads the queue. */
  drop(n: QueuedRef, fault: string): void {
    this.dropStmt.run(fault, n.id);
    this.reheadStmt.run(owner(n));
  }

  /** Queues a copy of notification `id` (same body) at the end of its payment's queue; returns its ID. */
  insertCopy(id: number, at: number, fault: string): number {
    return Number(this.copyStmt.run({ id, at, fault }).lastInsertRowid);
  }

  setFault(id: number, fault: string): void {
    this.faultStmt.run(fault, id);
  }

  list(f: NotificationFilter, limit = 500): NotificationRecord[] {
    return this.page(f, { limit, offset: 0, descending: false });
  }

  /**
   * One page of the journal, by ID. A payment's notifications are read through notifications_by_payment
   * and a state's through notifications_by_state, in either direction.
   */
  page(f: NotificationFilter, p: { limit: number; offset: number; descending: boolean }): NotificationRecord[] {
    const { params } = whereOf(f);
    const rows = this.statement(journalPageSql(f, p.descending)).all({
      ...params,
      limit: p.limit,
      offset: p.offset,
    }) as NotificationRow[];
    return rows.map(toRecord);
  }

  count(f: NotificationFilter): number {
    const { where, params } = whereOf(f);
    return (this.statement(`SELECT count(*) AS n FROM notifications ${where}`).get(params) as { n: number }).n;
  }

  private statement(sql: string): ReturnType<Db['prepare']> {
    let stmt = this.statements.get(sql);
    if (!stmt) this.statements.set(sql, (stmt = this.db.prepare(sql)));
    return stmt;
  }
}

/** The query of a journal page (the tests check its plan). */
export function journalPageSql(f: NotificationFilter, descending: boolean): string {
  return `SELECT * FROM notifications ${whereOf(f).where} ORDER BY id ${descending ? 'DESC' : ''} LIMIT @limit OFFSET @offset`;
}

function whereOf(f: NotificationFilter): { where: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (f.paymentId !== undefined) (where.push('payment_id = @paymentId'), (params.paymentId = f.paymentId));
  if (f.refundId !== undefined) (where.push('refund_id = @refundId'), (params.refundId = f.refundId));
  if (f.preapprovalId !== undefined) (where.push('preapproval_id = @preapprovalId'), (params.preapprovalId = f.preapprovalId));
  if (f.payoutId !== undefined) (where.push('payout_id = @payoutId'), (params.payoutId = f.payoutId));
  if (f.state !== undefined) (where.push('state = @state'), (params.state = f.state));
  if (f.statusId !== undefined) (where.push('status_id = @statusId'), (params.statusId = f.statusId));
  if (f.final) where.push("state <> 'pending'");
  if (f.siteId !== undefined) (where.push('site_id = @siteId'), (params.siteId = f.siteId));
  return { where: where.length ? 'WHERE ' + where.join(' AND ') : '', params };
}
