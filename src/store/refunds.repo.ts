// Refunds: of a split, or of a whole payment without splits (split_id NULL).
import type { Db } from './db';
import type { Json, RefundRecord } from './records';

interface RefundRow {
  id: number;
  payment_id: number;
  split_id: number | null;
  site_id: number;
  merchant_transaction_id: string;
  originator_transaction_id: string | null;
  amount: number;
  currency: string;
  description: string;
  type_id: number;
  status_id: number;
  created_at: number;
  capture_id: number | null;
  articles: string | null;
}

const toRecord = (r: RefundRow): RefundRecord => ({
  id: r.id,
  paymentId: r.payment_id,
  splitId: r.split_id,
  siteId: r.site_id,
  merchantTransactionId: r.merchant_transaction_id,
  originatorTransactionId: r.originator_transaction_id,
  amount: BigInt(r.amount),
  currency: r.currency,
  description: r.description,
  typeId: r.type_id,
  statusId: r.status_id,
  createdAt: r.created_at,
  // Only when the refund named a capture: the others read as they always did.
  ...(r.capture_id === null ? {} : { captureId: r.capture_id }),
  ...(r.articles === null ? {} : { articles: JSON.parse(r.articles) as Json[] }),
});

export class RefundsRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly ofPaymentStmt;
  private readonly countStmt;
  private readonly refundedStmt;
  private readonly refundedOfPaymentStmt;
  private readonly setStatusStmt;
  private readonly setMtidStmt;
  private setCaptureStmt?: { run(...args: unknown[]): unknown };
  private setArticlesStmt?: { run(...args: unknown[]): unknown };

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO refunds (payment_id, split_id, site_id, merchant_transaction_id, originator_transaction_id, amount, currency, description, type_id, status_id, created_at)
       VALUES (@paymentId, @splitId, @siteId, @merchantTransactionId, @originatorTransactionId, @amount, @currency, @description, @typeId, @statusId, @createdAt)
       RETURNING id`,
    );
    this.byIdStmt = db.prepare<[number], RefundRow>('SELECT * FROM refunds WHERE id = ?');
    this.ofPaymentStmt = db.prepare<[number], RefundRow>('SELECT * FROM refunds WHERE payment_id = ? ORDER BY id');
    this.countStmt = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM refunds WHERE payment_id = ?');
    // Failed refunds gave nothing back, so they do not count against what is refundable.
    this.refundedStmt = db.prepare<[number], { total: number }>(
      'SELECT coalesce(sum(amount), 0) AS total FROM refunds WHERE split_id = ? AND status_id != 4',
    );
    this.refundedOfPaymentStmt = db.prepare<[number], { total: number }>(
      'SELECT coalesce(sum(amount), 0) AS total FROM refunds WHERE payment_id = ? AND status_id != 4',
    );
    this.setStatusStmt = db.prepare('UPDATE refunds SET status_id = ? WHERE id = ?');
    this.setMtidStmt = db.prepare('UPDATE refunds SET merchant_transaction_id = ? WHERE id = ?');
  }

  insert(r: Omit<RefundRecord, 'id'>): number {
    const { captureId, articles, ...row } = r;
    const id = (this.insertStmt.get({ ...row, amount: Number(r.amount) }) as { id: number }).id;
    // The capture a card refund names is set apart: the column came with a later migration than the rest.
    if (captureId != null) (this.setCaptureStmt ??= this.db.prepare('UPDATE refunds SET capture_id = ? WHERE id = ?')).run(captureId, id);
    // So are the articles a refund request sent.
    if (articles != null) (this.setArticlesStmt ??= this.db.prepare('UPDATE refunds SET articles = ? WHERE id = ?')).run(JSON.stringify(articles), id);
    return id;
  }

  get(id: number): RefundRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row && toRecord(row);
  }

  ofPayment(paymentId: number): RefundRecord[] {
    return this.ofPaymentStmt.all(paymentId).map(toRecord);
  }

  existForPayment(paymentId: number): boolean {
    return this.countStmt.get(paymentId)!.n > 0;
  }

  refundedOnSplit(splitId: number): bigint {
    return BigInt(this.refundedStmt.get(splitId)!.total);
  }

  /** What was refunded of a payment, all its refunds together (failed ones gave nothing back). */
  refundedOnPayment(paymentId: number): bigint {
    return BigInt(this.refundedOfPaymentStmt.get(paymentId)!.total);
  }

  setStatus(id: number, statusId: number): void {
    this.setStatusStmt.run(statusId, id);
  }

  setMerchantTransactionId(id: number, mtid: string): void {
    this.setMtidStmt.run(mtid, id);
  }
}
