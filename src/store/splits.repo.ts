// Splits of payments.
import type { Db } from './db';
import type { SplitRecord } from './records';

/** A payment's splits as arrays (raw rows), made into records directly: the driver's named rows cost twice as much. */
const fromRaw = (a: unknown[]): SplitRecord => ({
  id: a[0] as number,
  paymentId: a[1] as number,
  siteId: a[2] as number,
  merchantTransactionId: a[3] as string,
  originatorTransactionId: a[4] as string | null,
  amount: BigInt(a[5] as number),
  capturedAmount: a[6] === null ? null : BigInt(a[6] as number),
  statusId: a[7] as number,
  createdAt: a[8] as number,
});

/** The most splits one INSERT writes; more are written in runs of this many. */
const ROWS_A_STATEMENT = 16;

export class SplitsRepo {
  private readonly insertStmt;
  /** INSERTs of 2 to ROWS_A_STATEMENT rows, by their count, prepared on first use. */
  private readonly insertRowsStmts = new Map<number, { run(...params: unknown[]): { lastInsertRowid: number | bigint } }>();
  private readonly ofPaymentStmt;
  private readonly setStatusAllStmt;
  private readonly setStateStmt;
  private readonly markAddedStmt;
  private readonly addedAfterStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO splits (payment_id, site_id, merchant_transaction_id, originator_transaction_id, amount, captured_amount, status_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.ofPaymentStmt = db
      .prepare<[number], unknown[]>('SELECT id, payment_id, site_id, merchant_transaction_id, originator_transaction_id, amount, captured_amount, status_id, created_at FROM splits WHERE payment_id = ? ORDER BY id')
      .raw();
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

  /**
   * Writes a payment's new splits in one statement (a run of them, past ROWS_A_STATEMENT) rather than
   * one each, and returns their IDs in order. One INSERT's rows take consecutive IDs: each is the
   * largest yet plus one, and the write lock is held for the whole statement.
   */
  insertAll(splits: Omit<SplitRecord, 'id'>[]): number[] {
    const ids: number[] = [];
    for (let from = 0; from < splits.length; from += ROWS_A_STATEMENT) {
      const run = splits.slice(from, from + ROWS_A_STATEMENT);
      if (run.length === 1) {
        ids.push(this.insert(run[0]!));
        continue;
      }
      const params: unknown[] = [];
      for (const s of run) {
        params.push(s.paymentId, s.siteId, s.merchantTransactionId, s.originatorTransactionId, Number(s.amount));
        params.push(s.capturedAmount === null ? null : Number(s.capturedAmount), s.statusId, s.createdAt);
      }
      const last = Number(this.insertRows(run.length).run(...params).lastInsertRowid);
      for (let i = run.length - 1; i >= 0; i--) ids.push(last - i);
    }
    return ids;
  }

  private insertRows(count: number) {
    let stmt = this.insertRowsStmts.get(count);
    if (stmt === undefined) {
      const rows = Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      stmt = this.db.prepare(
        `INSERT INTO splits (payment_id, site_id, merchant_transaction_id, originator_transaction_id, amount, captured_amount, status_id, created_at) VALUES ${rows}`,
      );
      this.insertRowsStmts.set(count, stmt);
    }
    return stmt;
  }

  ofPayment(paymentId: number): SplitRecord[] {
    return this.ofPaymentStmt.all(paymentId).map(fromRaw);
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
