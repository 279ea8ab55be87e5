// Card payouts of a site, and the filtered pages of the payouts list.
import type { Db } from './db';
import type { PayoutRecord } from './records';

interface PayoutRow {
  id: number;
  site_id: number;
  merchant_transaction_id: string;
  originator_transaction_id: string | null;
  amount: number;
  currency: string;
  description: string | null;
  statement_descriptor: string | null;
  customer: string | null;
  billing_address: string | null;
  card: string | null;
  status_id: number;
  reasons: string;
  created_at: number;
}

const parse = (s: string | null) => (s === null ? null : (JSON.parse(s) as Record<string, unknown>));
const toRecord = (r: PayoutRow): PayoutRecord => ({
  id: r.id,
  siteId: r.site_id,
  merchantTransactionId: r.merchant_transaction_id,
  originatorTransactionId: r.originator_transaction_id,
  amount: BigInt(r.amount),
  currency: r.currency,
  description: r.description,
  statementDescriptor: r.statement_descriptor,
  customer: parse(r.customer),
  billingAddress: parse(r.billing_address),
  card: parse(r.card),
  statusId: r.status_id,
  reasons: JSON.parse(r.reasons) as PayoutRecord['reasons'],
  createdAt: r.created_at,
});

/** The payouts list's filters (each optional), as the card host's list takes them. */
export interface PayoutFilter {
  startDate?: number;
  endDate?: number;
  currency?: string;
  minimumAmount?: number;
  maximumAmount?: number;
  merchantTransactionId?: string;
  statusId?: number;
}

const CONDITIONS: Record<keyof PayoutFilter, string> = {
  startDate: 'created_at >= @startDate',
  endDate: 'created_at <= @endDate',
  currency: 'currency = @currency',
  minimumAmount: 'amount >= @minimumAmount',
  maximumAmount: 'amount <= @maximumAmount',
  merchantTransactionId: 'merchant_transaction_id = @merchantTransactionId',
  statusId: 'status_id = @statusId',
};

export class PayoutsRepo {
  private prepared?: ReturnType<typeof prepareStatements>;

  constructor(private readonly db: Db) {}

  /** Prepared on first use: these tables came with a later migration than the store's first ones. */
  private get s() {
    return (this.prepared ??= prepareStatements(this.db));
  }

  insert(p: Omit<PayoutRecord, 'id'>): PayoutRecord {
    const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
    const id = (
      this.s.insertStmt.get({
        ...p,
        amount: Number(p.amount),
        customer: json(p.customer),
        billingAddress: json(p.billingAddress),
        card: json(p.card),
        reasons: JSON.stringify(p.reasons),
      }) as { id: number }
    ).id;
    return { id, ...p };
  }

  /** One payout of the site, or undefined (another site's is not seen). */
  get(id: number, siteId: number): PayoutRecord | undefined {
    const row = this.s.byIdStmt.get(id, siteId);
    return row && toRecord(row);
  }

  merchantTransactionIdTaken(siteId: number, mtid: string): boolean {
    return this.s.takenStmt.get(siteId, mtid) !== undefined;
  }

  /** A page of the site's payouts that pass `filter`, newest first. */
  list(siteId: number, filter: PayoutFilter, limit: number, offset: number): PayoutRecord[] {
    const where = ['site_id = @siteId', ...Object.keys(filter).map((k) => CONDITIONS[k as keyof PayoutFilter])];
    return this.db
      .prepare<Record<string, unknown>, PayoutRow>(`SELECT * FROM payouts WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...filter, siteId, limit, offset })
      .map(toRecord);
  }
}

function prepareStatements(db: Db) {
  return {
    insertStmt: db.prepare(
      `INSERT INTO payouts (site_id, merchant_transaction_id, originator_transaction_id, amount, currency, description, statement_descriptor, customer, billing_address, card, status_id, reasons, created_at)
       VALUES (@siteId, @merchantTransactionId, @originatorTransactionId, @amount, @currency, @description, @statementDescriptor, @customer, @billingAddress, @card, @statusId, @reasons, @createdAt)
       RETURNING id`,
    ),
    byIdStmt: db.prepare<[number, number], PayoutRow>('SELECT * FROM payouts WHERE id = ? AND site_id = ?'),
    takenStmt: db.prepare<[number, string], { one: number }>('SELECT 1 AS one FROM payouts WHERE site_id = ? AND merchant_transaction_id = ?'),
  };
}
