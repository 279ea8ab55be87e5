// Disputes (chargebacks) on payments.
import type { Db } from './db';
import type { DisputeRecord } from './records';

interface DisputeRow {
  id: number;
  payment_id: number;
  site_id: number;
  amount: number;
  currency: string;
  status_id: number;
  created_at: number;
}

const toRecord = (r: DisputeRow): DisputeRecord => ({
  id: r.id,
  paymentId: r.payment_id,
  siteId: r.site_id,
  amount: BigInt(r.amount),
  currency: r.currency,
  statusId: r.status_id,
  createdAt: r.created_at,
});

export class DisputesRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly ofPaymentStmt;
  private readonly setStatusStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO disputes (payment_id, site_id, amount, currency, status_id, created_at)
       VALUES (@paymentId, @siteId, @amount, @currency, @statusId, @createdAt) RETURNING id`,
    );
    this.byIdStmt = db.prepare<[number], DisputeRow>('SELECT * FROM disputes WHERE id = ?');
    this.ofPaymentStmt = db.prepare<[number], DisputeRow>('SELECT * FROM disputes WHERE payment_id = ? ORDER BY id');
    this.setStatusStmt = db.prepare('UPDATE disputes SET status_id = ? WHERE id = ?');
  }

  insert(d: Omit<DisputeRecord, 'id'>): DisputeRecord {
    const id = (this.insertStmt.get({ ...d, amount: Number(d.amount) }) as { id: number }).id;
    return { id, ...d };
  }

  get(id: number): DisputeRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row && toRecord(row);
  }

  ofPayment(paymentId: number): DisputeRecord[] {
    return this.ofPaymentStmt.all(paymentId).map(toRecord);
  }

  setStatus(id: number, statusId: number): void {
    this.setStatusStmt.run(statusId, id);
  }
}
