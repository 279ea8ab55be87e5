// The status history of payments and their refunds: one row per status a payment or refund entered.
import type { Db } from './db';
import type { HistoryRecord } from './records';

interface HistoryRow {
  id: number;
  payment_id: number | null;
  refund_id: number | null;
  status_id: number;
  at: number;
  cause: string;
  dispute_id: number | null;
}

export class HistoryRepo {
  private readonly insertStmt;
  private disputeInsertStmt?: { run(...args: unknown[]): unknown };
  private readonly ofPaymentStmt;

  private readonly insertPreapprovalStmt;
  private readonly ofPreapprovalStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      'INSERT INTO status_history (payment_id, refund_id, status_id, at, cause) VALUES (?, ?, ?, ?, ?)',
    );
    this.insertPreapprovalStmt = db.prepare('INSERT INTO status_history (preapproval_id, status_id, at, cause) VALUES (?, ?, ?, ?)');
    this.ofPreapprovalStmt = db.prepare<[number], HistoryRow>('SELECT * FROM status_history WHERE preapproval_id = ? ORDER BY id');
    this.ofPaymentStmt = db.prepare<[number], HistoryRow>('SELECT * FROM status_history WHERE payment_id = ? ORDER BY id');
  }

  record(paymentId: number, refundId: number | null, statusId: number, at: number, cause: string, disputeId: number | null = null): void {
    if (disputeId === null) {
      this.insertStmt.run(paymentId, refundId, statusId, at, cause);
      return;
    }
    // Prepared on first use: the column came with a later migration than the rest of this table.
    this.disputeInsertStmt ??= this.db.prepare('INSERT INTO status_history (payment_id, refund_id, status_id, at, cause, dispute_id) VALUES (?, ?, ?, ?, ?, ?)');
    this.disputeInsertStmt.run(paymentId, refundId, statusId, at, cause, disputeId);
  }

  /** A status a preapproval entered. */
  recordPreapproval(preapprovalId: number, statusId: number, at: number, cause: string): void {
    this.insertPreapprovalStmt.run(preapprovalId, statusId, at, cause);
  }

  ofPreapproval(preapprovalId: number): { statusId: number; at: number; cause: string }[] {
    return this.ofPreapprovalStmt.all(preapprovalId).map((r) => ({ statusId: r.status_id, at: r.at, cause: r.cause }));
  }

  ofPayment(paymentId: number): HistoryRecord[] {
    return this.ofPaymentStmt.all(paymentId).map((r) => ({
      id: r.id,
      paymentId: r.payment_id!,
      refundId: r.refund_id,
      statusId: r.status_id,
      at: r.at,
      cause: r.cause,
      // Only on a dispute's rows: the others read as they always did.
      ...(r.dispute_id === null ? {} : { disputeId: r.dispute_id }),
    }));
  }
}
