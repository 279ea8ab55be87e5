// Splits of payments.
import type { Db } from './db';
import type { SplitRecord } from './records';

interface SplitRow {
  id: number;
  payment_id: number;
  site_id: number;
  merchant_transaction_id: string;
  originator_transaction_id: string | null;
  amount: number;
  captured_amount: number | null;
  status_id: number;
  created_at: number;
}

const toRecord = (r: SplitRow): SplitRecord => ({
  id: r.id,
  paymentId: r.payment_id,
  siteId: r.site_id,
  merchantTransactionId: r.merchant_transaction_id,
  originatorTransactionId: r.originator_transaction_id,
  amount: BigInt(r.amount),
  capturedAmount: r.captured_amount === null ? null : BigInt(r.captured_amount),
  statusId: r.status_id,
  createdAt: r.created_at,
});

export class SplitsRepo {
  private readonly insertStmt;
  private readonly ofPaymentStmt;
  private readonly setStatusAllStmt;
  private readonly setStateStmt;
  private readonly markAddedStmt;
  private readonly addedAfterStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO splits (payment_id, site_id, merchant_transaction_id, originator_transaction_id, amount, captured_amount, status_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.ofPaymentStmt = db.prepare<[number], SplitRow>('SELECT * FROM splits WHERE payment_id = ? ORDER BY id');
    this.setStatusAllStmt = db.prepare('UPDATE splits SET status_id = ? WHERE payment_id = ?');
    this.setStateStmt = db.prepare('UPDATE splits SET status_id = ?, captured_amount = ? WHERE id = ?');
    this.markAddedStmt = db.prepare<{ paymentId: number; firstId: number }>(
      `UPDATE splits SET added_after = (SELECT coalesce(max(id), 0) FROM status_history WHERE payment_id = @paymentId)
       WHERE payment_id = @paymentId AND id >= @firstId`,
    );
    this.addedAfterStmt = db.prepare<[number], { id: number; added_after: number | null }>(
      'SELECT id, added_after FROM splits WHERE payment_id = ? ORDER BY id',
    );
  }

  insert(s: Omit<SplitRecord, 'id'>): number {
    const capturedAmount = s.capturedAmount === null ? null : Number(s.capturedAmount);
    return this.insertStmt.run(s.paymentId, s.siteId, s.merchantTransactionId, s.originatorTransactionId, Number(s.amount), capturedAmount, s.statusId, s.createdAt)
      .lastInsertRowid as number;
  }

  ofPayment(paymentId: number): SplitRecord[] {
    return this.ofPaymentStmt.all(paymentId).map(toRecord);
  }

  /** Splits carry the status of their payment: one update moves them all. */
  setStatusOfAll(paymentId: number, statusId: number): void {
    this.setStatusAllStmt.run(statusId, paymentId);
  }

  setState(splitId: number, statusId: number, capturedAmount: bigint | null): void {
    this.setStateStmt.run(statusId, capturedAmount === null ? null : Number(capturedAmount), splitId);
  }

  /**
   * Splits `firstId` and after of the payment were added by the merchant just now: they are marked
   * with the last status change before them, which places the addition in the payment's story.
   */
  markAdded(paymentId: number, firstId: number): void {
    this.markAddedStmt.run({ paymentId, firstId });
  }

  /** Each split of the payment with the status history row it was added after (null: it came with the payment). */
  addedAfter(paymentId: number): { id: number; addedAfter: number | null }[] {
    return this.addedAfterStmt.all(paymentId).map((r) => ({ id: r.id, addedAfter: r.added_after }));
  }
}
