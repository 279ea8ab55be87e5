// The notification outbox and the journal of delivery attempts.
import type { Db } from './db';

export type NotificationState = 'pending' | 'delivered' | 'failed' | 'no-url';

export interface NotificationRecord {
  id: number;
  paymentId: number;
  refundId: number | null;
  siteId: number;
  statusId: number;
  body: string;
  state: NotificationState;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  deliveredAt: number | null;
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
  payment_id: number;
  refund_id: number | null;
  site_id: number;
  status_id: number;
  body: string;
  state: NotificationState;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  delivered_at: number | null;
}

const toRecord = (r: NotificationRow): NotificationRecord => ({
  id: r.id,
  paymentId: r.payment_id,
  refundId: r.refund_id,
  siteId: r.site_id,
  statusId: r.status_id,
  body: r.body,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
});

export interface NotificationFilter {
  paymentId?: number;
  refundId?: number;
  state?: NotificationState;
  statusId?: number;
}

export class NotificationsRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly dueHeadsStmt;
  private readonly earliestStmt;
  private readonly deliveredStmt;
  private readonly failedAttemptStmt;
  private readonly attemptStmt;
  private readonly attemptsOfStmt;
  private readonly redeliverStmt;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO notifications (payment_id, refund_id, site_id, status_id, body, state, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byIdStmt = db.prepare<[number], NotificationRow>('SELECT * FROM notifications WHERE id = ?');
    // Per payment, in order: only the oldest pending notification of a payment may be sent.
    this.dueHeadsStmt = db.prepare<[number, number], NotificationRow>(
      `SELECT n.* FROM notifications n
       WHERE n.state = 'pending' AND n.next_attempt_at <= ?
         AND NOT EXISTS (SELECT 1 FROM notifications e WHERE e.payment_id = n.payment_id AND e.state = 'pending' AND e.id < n.id)
       ORDER BY n.next_attempt_at, n.id LIMIT ?`,
    );
    // Only heads count, as in dueHeadsStmt: a pending notification queued behind its payment's
    // failing head is not due before that head, whatever its own next_attempt_at says. Counting it
    // made the manual clock's advance() loop forever (and the real-time timer fire at once, again
    // and again) on a time at which nothing could be sent.
    // In due order, stopping at the first head: min() would read every pending notification, and this
    // runs after every burst of deliveries.
    this.earliestStmt = db.prepare<[], { due: number }>(
      `SELECT n.next_attempt_at AS due FROM notifications n
       WHERE n.state = 'pending'
         AND NOT EXISTS (SELECT 1 FROM notifications e WHERE e.payment_id = n.payment_id AND e.state = 'pending' AND e.id < n.id)
       ORDER BY n.next_attempt_at, n.id LIMIT 1`,
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
  }

  insert(n: Omit<NotificationRecord, 'id' | 'attempts' | 'deliveredAt'>): number {
    const info = this.insertStmt.run(n.paymentId, n.refundId, n.siteId, n.statusId, n.body, n.state, n.nextAttemptAt, n.createdAt);
    return Number(info.lastInsertRowid);
  }

  get(id: number): NotificationRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row && toRecord(row);
  }

  dueHeads(now: number, limit: number): NotificationRecord[] {
    return this.dueHeadsStmt.all(now, limit).map(toRecord);
  }

  earliestDue(): number | null {
    return this.earliestStmt.get()?.due ?? null;
  }

  markDelivered(id: number, at: number): void {
    this.deliveredStmt.run(at, id);
  }

  markFailedAttempt(id: number, nextAttemptAt: number, givenUp: boolean): void {
    this.failedAttemptStmt.run(givenUp ? 'failed' : 'pending', nextAttemptAt, id);
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

  redeliver(id: number, at: number): void {
    this.redeliverStmt.run(at, id);
  }

  list(f: NotificationFilter, limit = 500): NotificationRecord[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit };
    if (f.paymentId !== undefined) (where.push('payment_id = @paymentId'), (params.paymentId = f.paymentId));
    if (f.refundId !== undefined) (where.push('refund_id = @refundId'), (params.refundId = f.refundId));
    if (f.state !== undefined) (where.push('state = @state'), (params.state = f.state));
    if (f.statusId !== undefined) (where.push('status_id = @statusId'), (params.statusId = f.statusId));
    const sql = `SELECT * FROM notifications ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id LIMIT @limit`;
    let stmt = this.statements.get(sql);
    if (!stmt) this.statements.set(sql, (stmt = this.db.prepare(sql)));
    return (stmt.all(params) as NotificationRow[]).map(toRecord);
  }
}
