// Payments: insert, read (always scoped to the owning site), update and list with filters.
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import { clockSiteOf } from './owned';
import type { Json, PaymentRecord, Surface } from './records';

interface PaymentRow {
  id: number;
  surface: Surface;
  owner_site_id: number;
  site_id: number;
  merchant_transaction_id: string;
  originator_transaction_id: string | null;
  amount: number;
  currency: string;
  captured_amount: number | null;
  return_url: string | null;
  description: string | null;
  statement_descriptor: string | null;
  method_id: number | null;
  method_option_id: number | null;
  skin_id: number | null;
  client_ip: string | null;
  token_lifetime: number | null;
  token: string | null;
  status_id: number;
  created_at: number;
  notification_at: number | null;
  country: string | null;
  customer: string | null;
  billing_address: string | null;
  shipping_address: string | null;
  details: string | null;
  card: string | null;
  capture: number | null;
  retry: number | null;
  has_splits: number;
  scenario: string | null;
  preapproval_id: number | null;
  fraud_reason: string | null;
  articles: string | null;
  preapproval_details: string | null;
}

/**
 * A payment read by its ID, as an array (better-sqlite3's raw rows): made into its row here, in one
 * object literal, it costs half what the driver's object of 35 named columns did, on every GET.
 */
const ROW_COLUMNS = 'id, surface, owner_site_id, site_id, merchant_transaction_id, originator_transaction_id, amount, currency, captured_amount, return_url, description, statement_descriptor, method_id, method_option_id, skin_id, client_ip, token_lifetime, token, status_id, created_at, notification_at, country, customer, billing_address, shipping_address, details, card, capture, retry, has_splits, scenario, preapproval_id, fraud_reason, articles, preapproval_details';
const rowOf = (a: unknown[]): PaymentRow => ({
  id: a[0] as PaymentRow['id'],
  surface: a[1] as PaymentRow['surface'],
  owner_site_id: a[2] as PaymentRow['owner_site_id'],
  site_id: a[3] as PaymentRow['site_id'],
  merchant_transaction_id: a[4] as PaymentRow['merchant_transaction_id'],
  originator_transaction_id: a[5] as PaymentRow['originator_transaction_id'],
  amount: a[6] as PaymentRow['amount'],
  currency: a[7] as PaymentRow['currency'],
  captured_amount: a[8] as PaymentRow['captured_amount'],
  return_url: a[9] as PaymentRow['return_url'],
  description: a[10] as PaymentRow['description'],
  statement_descriptor: a[11] as PaymentRow['statement_descriptor'],
  method_id: a[12] as PaymentRow['method_id'],
  method_option_id: a[13] as PaymentRow['method_option_id'],
  skin_id: a[14] as PaymentRow['skin_id'],
  client_ip: a[15] as PaymentRow['client_ip'],
  token_lifetime: a[16] as PaymentRow['token_lifetime'],
  token: a[17] as PaymentRow['token'],
  status_id: a[18] as PaymentRow['status_id'],
  created_at: a[19] as PaymentRow['created_at'],
  notification_at: a[20] as PaymentRow['notification_at'],
  country: a[21] as PaymentRow['country'],
  customer: a[22] as PaymentRow['customer'],
  billing_address: a[23] as PaymentRow['billing_address'],
  shipping_address: a[24] as PaymentRow['shipping_address'],
  details: a[25] as PaymentRow['details'],
  card: a[26] as PaymentRow['card'],
  capture: a[27] as PaymentRow['capture'],
  retry: a[28] as PaymentRow['retry'],
  has_splits: a[29] as PaymentRow['has_splits'],
  scenario: a[30] as PaymentRow['scenario'],
  preapproval_id: a[31] as PaymentRow['preapproval_id'],
  fraud_reason: a[32] as PaymentRow['fraud_reason'],
  articles: a[33] as PaymentRow['articles'],
  preapproval_details: a[34] as PaymentRow['preapproval_details'],
});

const json = (s: string | null): Json | null => (s === null ? null : (JSON.parse(s) as Json));
const text = (o: Json | null): string | null => (o === null ? null : JSON.stringify(o));
const bool = (n: number | null): boolean | null => (n === null ? null : n !== 0);
const bit = (b: boolean | null): number | null => (b === null ? null : b ? 1 : 0);

/** Every column but the JSON ones, read as NULL: reading those strings is most of a page's cost. */
const WITHOUT_OBJECTS = `id, surface, owner_site_id, site_id, merchant_transaction_id, originator_transaction_id, amount,
  currency, captured_amount, return_url, description, statement_descriptor, method_id, method_option_id, skin_id,
  client_ip, token_lifetime, token, status_id, created_at, notification_at, country, NULL AS customer,
  NULL AS billing_address, NULL AS shipping_address, NULL AS details, NULL AS card, capture, retry, has_splits, scenario, preapproval_id, fraud_reason,
  NULL AS articles, NULL AS preapproval_details`;

function toRecord(r: PaymentRow, objects = true): PaymentRecord {
  return {
    id: r.id,
    surface: r.surface,
    ownerSiteId: r.owner_site_id,
    siteId: r.site_id,
    merchantTransactionId: r.merchant_transaction_id,
    originatorTransactionId: r.originator_transaction_id,
    amount: BigInt(r.amount),
    currency: r.currency,
    capturedAmount: r.captured_amount === null ? null : BigInt(r.captured_amount),
    returnUrl: r.return_url,
    description: r.description,
    statementDescriptor: r.statement_descriptor,
    methodId: r.method_id,
    methodOptionId: r.method_option_id,
    skinId: r.skin_id,
    clientIp: r.client_ip,
    tokenLifetime: r.token_lifetime,
    token: r.token,
    statusId: r.status_id,
    createdAt: r.created_at,
    notificationAt: r.notification_at,
    country: r.country,
    customer: objects ? json(r.customer) : null,
    billingAddress: objects ? json(r.billing_address) : null,
    shippingAddress: objects ? json(r.shipping_address) : null,
    details: objects ? json(r.details) : null,
    card: objects ? json(r.card) : null,
    capture: bool(r.capture),
    retry: bool(r.retry),
    hasSplits: r.has_splits !== 0,
    scenario: r.scenario,
    preapprovalId: r.preapproval_id,
    fraudReason: r.fraud_reason,
    articles: objects && r.articles !== null ? (JSON.parse(r.articles) as Json[]) : null,
    preapprovalDetails: objects ? json(r.preapproval_details) : null,
  };
}

function toRow(p: Omit<PaymentRecord, 'id'>): Omit<PaymentRow, 'id'> {
  return {
    surface: p.surface,
    owner_site_id: p.ownerSiteId,
    site_id: p.siteId,
    merchant_transaction_id: p.merchantTransactionId,
    originator_transaction_id: p.originatorTransactionId,
    amount: Number(p.amount),
    currency: p.currency,
    captured_amount: p.capturedAmount === null ? null : Number(p.capturedAmount),
    return_url: p.returnUrl,
    description: p.description,
    statement_descriptor: p.statementDescriptor,
    method_id: p.methodId,
    method_option_id: p.methodOptionId,
    skin_id: p.skinId,
    client_ip: p.clientIp,
    token_lifetime: p.tokenLifetime,
    token: p.token,
    status_id: p.statusId,
    created_at: p.createdAt,
    notification_at: p.notificationAt,
    country: p.country,
    customer: text(p.customer),
    billing_address: text(p.billingAddress),
    shipping_address: text(p.shippingAddress),
    details: text(p.details),
    card: text(p.card),
    capture: bit(p.capture),
    retry: bit(p.retry),
    has_splits: p.hasSplits ? 1 : 0,
    scenario: p.scenario,
    preapproval_id: p.preapprovalId ?? null,
    fraud_reason: p.fraudReason ?? null,
    articles: p.articles == null ? null : JSON.stringify(p.articles),
    preapproval_details: text(p.preapprovalDetails ?? null),
  };
}

/** Filters of the payment lists. Every field is optional; amounts and dates are already parsed. */
export interface PaymentFilter {
  ownerSiteId: number;
  surface: Surface;
  startMs?: number;
  endMs?: number;
  methodId?: number;
  statusId?: number;
  currency?: string;
  country?: string;
  minimumAmount?: bigint;
  maximumAmount?: bigint;
  merchantTransactionId?: string;
  /** The sandbox never sets MethodTransactionID, so filtering by it finds nothing. */
  methodTransactionId?: string;
  /** 1 = payments; 2 = recurring payments, which the sandbox does not have. */
  typeId?: number;
}

/** The WHERE of a site's list without filters. */
const UNFILTERED = 'owner_site_id = @ownerSiteId AND surface = @surface';

export type SortBy = 'id' | 'merchanttransactionid' | 'inputdatetime' | 'amount';

const SORT_COLUMNS: Record<SortBy, string> = {
  id: 'id',
  merchanttransactionid: 'merchant_transaction_id',
  inputdatetime: 'created_at',
  amount: 'amount',
};

export interface PageRequest {
  sortBy: SortBy;
  descending: boolean;
  limit: number;
  offset: number;
}

export class PaymentsRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly byIdAnyStmt;
  private readonly mtidStmt;
  private readonly expiredStmt;
  private readonly nextExpiryStmt;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();
  private readonly updates = new Map<string, { columns: string[]; sql: string }>();
  private readonly dataVersion;
  private writes = 0;
  private counts = new Map<string, number>();
  private countsVersion = '';
  private readonly totals = new Map<string, number>();
  private totalsVersion = -1;

  constructor(private readonly db: Db) {
    // Bound by position: the driver binds a named parameter by making its name a string and looking it
    // up on the object, 34 times a create; the row's values in toRow's order need neither. They are
    // given as the call's arguments, which the driver reads directly, not as an array, whose values
    // it reads one by one through V8's API.
    const cols = Object.keys(toRow({} as PaymentRecord));
    this.insertStmt = db.prepare(`INSERT INTO payments (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    this.byIdStmt = db.prepare<[number, number, string], unknown[]>(`SELECT ${ROW_COLUMNS} FROM payments WHERE id = ? AND owner_site_id = ? AND surface = ?`).raw();
    // Each clock's own payments: the sandbox's (owners without a clock of their own), or one marketplace's.
    const onClock = `(CASE WHEN @clock IS NULL THEN ${clockSiteOf('owner_site_id')} NOT IN (SELECT site_id FROM site_clocks) ELSE ${clockSiteOf('owner_site_id')} = @clock END)`;
    this.expiredStmt = db.prepare<[{ now: number; clock: number | null }], { id: number }>(
      `SELECT id FROM payments WHERE status_id = 1 AND token_lifetime IS NOT NULL
         AND created_at + token_lifetime * 60000 <= @now AND ${onClock} ORDER BY created_at + token_lifetime * 60000, id`,
    );
    this.nextExpiryStmt = db.prepare<[{ clock: number | null }], { at: number | null }>(
      `SELECT min(created_at + token_lifetime * 60000) AS at FROM payments WHERE status_id = 1 AND token_lifetime IS NOT NULL AND ${onClock}`,
    );
    this.dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
    this.byIdAnyStmt = db.prepare<[number], unknown[]>(`SELECT ${ROW_COLUMNS} FROM payments WHERE id = ?`).raw();
    this.mtidStmt = db.prepare<[number, string, string], { id: number }>(
      'SELECT id FROM payments WHERE owner_site_id = ? AND surface = ? AND merchant_transaction_id = ?',
    );
  }

  /** The recurring payments charged under a preapproval, newest first, and how many there are. */
  ofPreapproval(preapprovalId: number, limit: number, offset: number): { total: number; items: PaymentRecord[] } {
    const total = this.db.prepare<[number], number>('SELECT count(*) FROM payments WHERE preapproval_id = ?').pluck().get(preapprovalId)!;
    const rows = this.db
      .prepare<[number, number, number], PaymentRow>(`SELECT ${WITHOUT_OBJECTS} FROM payments WHERE preapproval_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(preapprovalId, limit, offset);
    return { total, items: rows.map((r) => toRecord(r, false)) };
  }

  /** Open payments whose token lifetime (minutes) has run out at `now`. */
  /** Open payments whose token lifetime ran out at `now`, of a clock's payments (`clock`: a marketplace's own, null the sandbox's). */
  expiredOpen(now: number, clock: number | null = null): number[] {
    return this.expiredStmt.all({ now, clock }).map((r) => r.id);
  }

  /** When the next Open payment's token lifetime runs out on a clock, if any has one. */
  nextExpiry(clock: number | null = null): number | null {
    return this.nextExpiryStmt.get({ clock })!.at;
  }

  insert(p: Omit<PaymentRecord, 'id'>): number {
    this.writes++;
    const totalKey = `${p.ownerSiteId}:${p.surface}`;
    const total = this.totals.get(totalKey);
    if (total !== undefined) this.totals.set(totalKey, total + 1);
    return this.insertStmt.run(...Object.values(toRow(p))).lastInsertRowid as number;
  }

  /** A payment as its owner sees it on one address; another site's payment is simply not there. */
  get(id: number, ownerSiteId: number, surface: Surface): PaymentRecord | undefined {
    const row = this.byIdStmt.get(id, ownerSiteId, surface);
    return row && toRecord(rowOf(row));
  }

  /** A payment by ID alone, for the sandbox's own control surface. */
  getAny(id: number): PaymentRecord | undefined {
    const row = this.byIdAnyStmt.get(id);
    return row && toRecord(rowOf(row));
  }

  merchantTransactionIdTaken(ownerSiteId: number, surface: Surface, mtid: string): boolean {
    return this.mtidStmt.get(ownerSiteId, surface, mtid) !== undefined;
  }

  /** Writes the changed fields of a payment. */
  update(id: number, changes: Partial<Omit<PaymentRecord, 'id'>>): void {
    this.writes++;
    const row = toRow({ ...({} as PaymentRecord), ...changes }) as Record<string, unknown>;
    const fields = Object.keys(changes);
    // The columns and SQL of each set of fields changed, made once: a status change updates the same few every time.
    const shape = fields.join(' ');
    let update = this.updates.get(shape);
    if (update === undefined) {
      const columns = fields.map((k) => camelToSnake(k));
      update = { columns, sql: `UPDATE payments SET ${columns.map((k) => `${k} = ?`).join(', ')} WHERE id = ?` };
      this.updates.set(shape, update);
    }
    // By position, as the insert: the changed columns in order, then the ID.
    const params: unknown[] = [];
    for (const k of update.columns) params.push(row[k]);
    params.push(id);
    (this.prepared(update.sql) as Statement<unknown[]>).run(...params);
  }

  /**
   * A page of payments and the count of all that match. `objects: false` leaves the JSON columns
   * (customer, addresses, details, card) unread, for lists that show them as null anyway.
   */
  list(filter: PaymentFilter, page: PageRequest, objects = true): { total: number; items: PaymentRecord[] } {
    const where: string[] = ['owner_site_id = @ownerSiteId', 'surface = @surface'];
    const params: Record<string, unknown> = { ownerSiteId: filter.ownerSiteId, surface: filter.surface };
    const add = (clause: string, name: string, value: unknown) => {
      where.push(clause);
      params[name] = value;
    };
    if (filter.startMs !== undefined) add('created_at >= @startMs', 'startMs', filter.startMs);
    if (filter.endMs !== undefined) add('created_at <= @endMs', 'endMs', filter.endMs);
    if (filter.methodId !== undefined) add('method_id = @methodId', 'methodId', filter.methodId);
    if (filter.statusId !== undefined) add('status_id = @statusId', 'statusId', filter.statusId);
    if (filter.currency !== undefined) add('currency = @currency', 'currency', filter.currency);
    if (filter.country !== undefined) add('country = @country', 'country', filter.country);
    if (filter.minimumAmount !== undefined) add('amount >= @minimumAmount', 'minimumAmount', Number(filter.minimumAmount));
    if (filter.maximumAmount !== undefined) add('amount <= @maximumAmount', 'maximumAmount', Number(filter.maximumAmount));
    if (filter.merchantTransactionId !== undefined) {
      add('merchant_transaction_id = @mtid', 'mtid', filter.merchantTransactionId);
    }
    if (filter.methodTransactionId !== undefined || (filter.typeId !== undefined && filter.typeId !== 1)) {
      where.push('0');
    }
    const whereSql = where.join(' AND ');
    const total = this.count(whereSql, params);
    const dir = page.descending ? 'DESC' : 'ASC';
    const col = SORT_COLUMNS[page.sortBy];
    const order = col === 'id' ? `id ${dir}` : `${col} ${dir}, id ${dir}`;
    const rows = this.prepared(
      `SELECT ${objects ? '*' : WITHOUT_OBJECTS} FROM payments WHERE ${whereSql} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
    ).all({ ...params, limit: page.limit, offset: page.offset }) as PaymentRow[];
    return { total, items: rows.map((r) => toRecord(r, objects)) };
  }

  /**
   * Counting a list's matches reads every matching index entry (milliseconds at 100k payments), while
   * a page reads ten rows: counts are kept until the payments change, here (`writes`) or through
   * another connection on the same file (SQLite's data_version).
   */
  private count(whereSql: string, params: Record<string, unknown>): number {
    const dataVersion = this.dataVersion.get()!.data_version;
    if (this.totalsVersion !== dataVersion) {
      this.totals.clear();
      this.totalsVersion = dataVersion;
    }
    // A site's unfiltered total changes only by inserts: kept up to date by insert(), so the plain
    // list stays O(1) under a steady stream of writes.
    const totalKey = whereSql === UNFILTERED ? `${String(params.ownerSiteId)}:${String(params.surface)}` : null;
    if (totalKey !== null) {
      let total = this.totals.get(totalKey);
      if (total === undefined) {
        total = (this.prepared(`SELECT count(*) AS n FROM payments WHERE ${whereSql}`).get(params) as { n: number }).n;
        this.totals.set(totalKey, total);
      }
      return total;
    }
    const version = `${this.writes}:${dataVersion}`;
    if (this.countsVersion !== version) {
      this.counts.clear();
      this.countsVersion = version;
    }
    const key = whereSql + JSON.stringify(params);
    let n = this.counts.get(key);
    if (n === undefined) {
      n = (this.prepared(`SELECT count(*) AS n FROM payments WHERE ${whereSql}`).get(params) as { n: number }).n;
      if (this.counts.size > 1000) this.counts.clear();
      this.counts.set(key, n);
    }
    return n;
  }

  /** Forgets cached counts (after the tables were emptied). */
  forget(): void {
    this.writes++;
    this.totals.clear();
  }

  // Filter combinations are few: each distinct SQL text is prepared once and reused.
  private prepared(sql: string) {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }
}

function camelToSnake(key: string): string {
  const special: Record<string, string> = { hasSplits: 'has_splits', notificationAt: 'notification_at' };
  return special[key] ?? key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}
