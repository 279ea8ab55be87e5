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
  private prepared?: ReturnType<typeof prepareStatements>;

  constructor(private readonly db: Db) {}

  /** Prepared on first use: these tables came with a later migration than the store's first ones. */
  private get s() {
    return (this.prepared ??= prepareStatements(this.db));
  }

  insert(d: Omit<DisputeRecord, 'id'>): DisputeRecord {
    const id = (this.s.insertStmt.get({ ...d, amount: Number(d.amount) }) as { id: number }).id;
    return { id, ...d };
  }

  get(id: number): DisputeRecord | undefined {
    const row = this.s.byIdStmt.get(id);
    return row && toRecord(row);
  }

  ofPayment(paymentId: number): DisputeRecord[] {
    return this.s.ofPaymentStmt.all(paymentId).map(toRecord);
  }

  setStatus(id: number, statusId: number): void {
    this.s.setStatusStmt.run(statusId, id);
  }
}

function prepareStatements(db: Db) {
  return {
    insertStmt: db.prepare(
      `INSERT INTO disputes (payment_id, site_id, amount, currency, status_id, created_at)
       VALUES (@paymentId, @siteId, @amount, @currency, @statusId, @createdAt) RETURNING id`,
    ),
    byIdStmt: db.prepare<[number], DisputeRow>('SELECT * FROM disputes WHERE id = ?'),
    ofPaymentStmt: db.prepare<[number], DisputeRow>('SELECT * FROM disputes WHERE payment_id = ? ORDER BY id'),
    setStatusStmt: db.prepare('UPDATE disputes SET status_id = ? WHERE id = ?'),
  };
}
