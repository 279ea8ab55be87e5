// Captures of card payments: one row per capture (the whole payment, part of it, or one split's share).
import type { Db } from './db';
import type { CaptureRecord } from './records';

interface CaptureRow {
  id: number;
  payment_id: number;
  split_id: number | null;
  site_id: number;
  merchant_transaction_id: string;
  originator_transaction_id: string | null;
  amount: number;
  currency: string;
  status_id: number;
  created_at: number;
}

const toRecord = (r: CaptureRow): CaptureRecord => ({
  id: r.id,
  paymentId: r.payment_id,
  splitId: r.split_id,
  siteId: r.site_id,
  merchantTransactionId: r.merchant_transaction_id,
  originatorTransactionId: r.originator_transaction_id,
  amount: BigInt(r.amount),
  currency: r.currency,
  statusId: r.status_id,
  createdAt: r.created_at,
});

export class CapturesRepo {
  private prepared?: ReturnType<typeof prepareStatements>;

  constructor(private readonly db: Db) {}

  /** Prepared on first use: these tables came with a later migration than the store's first ones. */
  private get s() {
    return (this.prepared ??= prepareStatements(this.db));
  }

  insert(c: Omit<CaptureRecord, 'id'>): CaptureRecord {
    const id = (this.s.insertStmt.get({ ...c, amount: Number(c.amount) }) as { id: number }).id;
    return { id, ...c };
  }

  get(id: number): CaptureRecord | undefined {
    const row = this.s.byIdStmt.get(id);
    return row && toRecord(row);
  }

  ofPayment(paymentId: number): CaptureRecord[] {
    return this.s.ofPaymentStmt.all(paymentId).map(toRecord);
  }
}

function prepareStatements(db: Db) {
  return {
    insertStmt: db.prepare(
      `INSERT INTO captures (payment_id, split_id, site_id, merchant_transaction_id, originator_transaction_id, amount, currency, status_id, created_at)
       VALUES (@paymentId, @splitId, @siteId, @merchantTransactionId, @originatorTransactionId, @amount, @currency, @statusId, @createdAt)
       RETURNING id`,
    ),
    byIdStmt: db.prepare<[number], CaptureRow>('SELECT * FROM captures WHERE id = ?'),
    ofPaymentStmt: db.prepare<[number], CaptureRow>('SELECT * FROM captures WHERE payment_id = ? ORDER BY id'),
  };
}
