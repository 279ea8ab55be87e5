// Preapprovals: insert, read (scoped to the owning site), move and list.
import type { Db } from './db';
import type { Json, PreapprovalRecord } from './records';

interface PreapprovalRow {
  id: number;
  owner_site_id: number;
  merchant_preapproval_id: string;
  method_id: number;
  method_option_id: number | null;
  recurring_period: number | null;
  preapproved_maximum_amount: number | null;
  currency: string | null;
  return_url: string | null;
  description: string | null;
  customer: string | null;
  billing_address: string | null;
  token: string | null;
  status_id: number;
  created_at: number;
  scenario: string | null;
}

const json = (s: string | null): Json | null => (s === null ? null : (JSON.parse(s) as Json));

const toRecord = (r: PreapprovalRow): PreapprovalRecord => ({
  id: r.id,
  ownerSiteId: r.owner_site_id,
  merchantPreapprovalId: r.merchant_preapproval_id,
  methodId: r.method_id,
  methodOptionId: r.method_option_id,
  recurringPeriod: r.recurring_period,
  preapprovedMaximumAmount: r.preapproved_maximum_amount === null ? null : BigInt(r.preapproved_maximum_amount),
  currency: r.currency,
  returnUrl: r.return_url,
  description: r.description,
  customer: json(r.customer),
  billingAddress: json(r.billing_address),
  token: r.token,
  statusId: r.status_id,
  createdAt: r.created_at,
  scenario: r.scenario,
});

export class PreapprovalsRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly byIdAnyStmt;
  private readonly takenStmt;
  private readonly listStmt;
  private readonly moveStmt;
  private readonly changeStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO preapprovals (owner_site_id, merchant_preapproval_id, method_id, method_option_id, recurring_period,
         preapproved_maximum_amount, currency, return_url, description, customer, billing_address, token, status_id, created_at, scenario)
       VALUES (@ownerSiteId, @merchantPreapprovalId, @methodId, @methodOptionId, @recurringPeriod, @max, @currency, @returnUrl,
         @description, @customer, @billingAddress, @token, @statusId, @createdAt, @scenario)`,
    );
    this.byIdStmt = db.prepare<[number, number], PreapprovalRow>('SELECT * FROM preapprovals WHERE id = ? AND owner_site_id = ?');
    this.byIdAnyStmt = db.prepare<[number], PreapprovalRow>('SELECT * FROM preapprovals WHERE id = ?');
    this.takenStmt = db.prepare<[number, string], number>('SELECT 1 FROM preapprovals WHERE owner_site_id = ? AND merchant_preapproval_id = ?').pluck();
    this.listStmt = db.prepare<[number, number, number], PreapprovalRow>('SELECT * FROM preapprovals WHERE owner_site_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
    this.changeStmt = db.prepare(
      `UPDATE preapprovals SET merchant_preapproval_id = @merchantPreapprovalId, method_option_id = @methodOptionId, recurring_period = @recurringPeriod,
         preapproved_maximum_amount = @max, currency = @currency, return_url = @returnUrl, description = @description,
         customer = @customer, billing_address = @billingAddress WHERE id = @id`,
    );
    this.moveStmt = db.prepare('UPDATE preapprovals SET status_id = ?, token = CASE WHEN ? THEN token ELSE NULL END WHERE id = ?');
  }

  insert(p: Omit<PreapprovalRecord, 'id'>): number {
    const info = this.insertStmt.run({
      ownerSiteId: p.ownerSiteId,
      methodId: p.methodId,
      ...changeable(p),
      token: p.token,
      statusId: p.statusId,
      createdAt: p.createdAt,
      scenario: p.scenario,
    });
    return Number(info.lastInsertRowid);
  }

  get(id: number, ownerSiteId: number): PreapprovalRecord | undefined {
    const row = this.byIdStmt.get(id, ownerSiteId);
    return row && toRecord(row);
  }

  getAny(id: number): PreapprovalRecord | undefined {
    const row = this.byIdAnyStmt.get(id);
    return row && toRecord(row);
  }

  merchantPreapprovalIdTaken(ownerSiteId: number, mpid: string): boolean {
    return this.takenStmt.get(ownerSiteId, mpid) !== undefined;
  }

  /** A site's preapprovals, newest first. */
  list(ownerSiteId: number, limit: number, offset = 0): PreapprovalRecord[] {
    return this.listStmt.all(ownerSiteId, limit, offset).map(toRecord);
  }

  /** Sets the status; the payer page's token goes once the preapproval is no longer Pending. */
  setStatus(id: number, statusId: number, keepToken: boolean): void {
    this.moveStmt.run(statusId, keepToken ? 1 : 0, id);
  }

  /** Its terms, as a change (PATCH) leaves them; status and token untouched. */
  change(p: PreapprovalRecord): void {
    this.changeStmt.run({ id: p.id, ...changeable(p) });
  }
}

/** The columns a change may write, as a create writes them too. */
function changeable(p: Omit<PreapprovalRecord, 'id'>) {
  return {
    merchantPreapprovalId: p.merchantPreapprovalId,
    methodOptionId: p.methodOptionId,
    recurringPeriod: p.recurringPeriod,
    max: p.preapprovedMaximumAmount === null ? null : Number(p.preapprovedMaximumAmount),
    currency: p.currency,
    returnUrl: p.returnUrl,
    description: p.description,
    customer: p.customer === null ? null : JSON.stringify(p.customer),
    billingAddress: p.billingAddress === null ? null : JSON.stringify(p.billingAddress),
  };
}
