// The request journal's SQL: entries written, read by filter a page at a time, counted, and dropped
// (oldest first past the cap, with their payments, or all).
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import { JOURNAL_TABLE } from './journal-file';
import type { Surface } from './records';

export interface RequestRecord {
  id: number;
  /** Sandbox time, epoch ms. */
  at: number;
  /** Real time, epoch ms. */
  wallAt: number;
  address: Surface;
  method: string;
  path: string;
  query: string | null;
  route: string | null;
  siteId: number | null;
  authenticated: boolean;
  paymentId: number | null;
  refundId: number | null;
  splitId: number | null;
  /** Null when no answer left (the connection was reset). */
  status: number | null;
  reasons: number[];
  durationMs: number | null;
  fault: string | null;
  nearMiss: string | null;
  requestBody: string | null;
  requestBytes: number;
  responseBody: string | null;
  responseBytes: number;
}

/** An entry to write: its bodies as text, or as that text's UTF-8 bytes (an answer as it left). */
export type NewRequest = Omit<RequestRecord, 'id' | 'requestBody' | 'responseBody'> & { requestBody: string | Buffer | null; responseBody: string | Buffer | null };

/** What to select entries by; every field narrows. */
export interface RequestFilter {
  siteIds?: readonly number[];
  paymentId?: number;
  refundId?: number;
  method?: string;
  route?: string;
  path?: string;
  status?: number;
  reasonCode?: number;
  address?: Surface;
  nearMiss?: boolean;
  /** Sandbox epoch ms, inclusive. */
  since?: number;
  until?: number;
  /** Entries after this ID only. */
  afterId?: number;
}

interface Row {
  id: number;
  at: number;
  wall_at: number;
  address: Surface;
  method: string;
  path: string;
  query: string | null;
  route: string | null;
  site_id: number | null;
  authenticated: number;
  payment_id: number | null;
  refund_id: number | null;
  split_id: number | null;
  status: number | null;
  reasons: string | null;
  duration_ms: number | null;
  fault: string | null;
  near_miss: string | null;
  request_body: string | null;
  request_bytes: number;
  response_body: string | null;
  response_bytes: number;
}

const toRecord = (r: Row): RequestRecord => ({
  id: r.id,
  at: r.at,
  wallAt: r.wall_at,
  address: r.address,
  method: r.method,
  path: r.path,
  query: r.query,
  route: r.route,
  siteId: r.site_id,
  authenticated: r.authenticated === 1,
  paymentId: r.payment_id,
  refundId: r.refund_id,
  splitId: r.split_id,
  status: r.status,
  reasons: r.reasons === null ? [] : (JSON.parse(r.reasons) as number[]),
  durationMs: r.duration_ms,
  fault: r.fault,
  nearMiss: r.near_miss,
  requestBody: r.request_body,
  requestBytes: r.request_bytes,
  responseBody: r.response_body,
  responseBytes: r.response_bytes,
});

/** Each filter field as SQL over named parameters. */
const CONDITIONS: Record<Exclude<keyof RequestFilter, 'nearMiss'>, string> = {
  siteIds: 'site_id IN (SELECT value FROM json_each(@siteIds))',
  paymentId: 'payment_id = @paymentId',
  refundId: 'refund_id = @refundId',
  method: 'method = @method',
  route: 'route = @route COLLATE NOCASE',
  path: 'path = @path COLLATE NOCASE',
  status: 'status = @status',
  reasonCode: 'EXISTS (SELECT 1 FROM json_each(reasons) WHERE value = @reasonCode)',
  address: 'address = @address',
  since: 'at >= @since',
  until: 'at <= @until',
  afterId: 'id > @afterId',
};

const COLUMNS = `at, wall_at, address, method, path, query, route, site_id, authenticated, payment_id, refund_id, split_id, status, reasons,
  duration_ms, fault, near_miss, request_body, request_bytes, response_body, response_bytes`;
// A body given as bytes is taken as the UTF-8 text it is (no text to encode again).
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, CAST(? AS TEXT), ?)';
/** Entries one statement writes at most: a statement run costs about a microsecond whatever it writes. */
const ROWS_AT_ONCE = 16;

// Positional: the binding of 21 named parameters from an object cost more than the row's own insert.
const insertOf = (db: Db, rows: number) => db.prepare(`INSERT INTO ${JOURNAL_TABLE} (${COLUMNS}) VALUES ${Array(rows).fill(ROW).join(', ')}`);

/** An entry's values, in the order of COLUMNS, appended to `out`. */
function valuesOf(r: NewRequest, out: unknown[]): void {
  out.push(
    r.at,
    r.wallAt,
    r.address,
    r.method,
    r.path,
    r.query,
    r.route,
    r.siteId,
    r.authenticated ? 1 : 0,
    r.paymentId,
    r.refundId,
    r.splitId,
    r.status,
    r.reasons.length === 0 ? null : JSON.stringify(r.reasons),
    r.durationMs,
    r.fault,
    r.nearMiss,
    r.requestBody,
    r.requestBytes,
    r.responseBody,
    r.responseBytes,
  );
}

function prepare(db: Db) {
  return {
    // Positional: the binding of 21 named parameters from an object cost more than the row's own insert.
    // A body given as bytes is taken as the UTF-8 text it is (no text to encode again).
    insert: insertOf(db, 1),
    insertMany: insertOf(db, ROWS_AT_ONCE),
    // By ID range, through the primary key: nothing to read when nothing is past the cap.
    trim: db.prepare<[number]>(`DELETE FROM ${JOURNAL_TABLE} WHERE id <= (SELECT max(id) FROM ${JOURNAL_TABLE}) - ?`),
    get: db.prepare<[number], Row>(`SELECT * FROM ${JOURNAL_TABLE} WHERE id = ?`),
    clear: db.prepare(`DELETE FROM ${JOURNAL_TABLE}`),
    ofPayments: db.prepare<{ ids: string }>(`DELETE FROM ${JOURNAL_TABLE} WHERE payment_id IN (SELECT value FROM json_each(@ids))`),
  };
}

export class RequestsRepo {
  private prepared?: ReturnType<typeof prepare>;
  private readonly selects = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  /** Prepared on first use: a store opened on a database not yet migrated (a test's old schema) can still be made. */
  private get stmt() {
    return (this.prepared ??= prepare(this.db));
  }

  /** Writes entries, in order; their IDs. */
  addAll(entries: readonly NewRequest[]): number[] {
    const ids: number[] = [];
    let i = 0;
    for (; i + ROWS_AT_ONCE <= entries.length; i += ROWS_AT_ONCE) {
      const values: unknown[] = [];
      for (let k = i; k < i + ROWS_AT_ONCE; k++) valuesOf(entries[k]!, values);
      // One statement's rows take consecutive IDs: the last is the statement's.
      const last = Number(this.stmt.insertMany.run(values).lastInsertRowid);
      for (let k = ROWS_AT_ONCE - 1; k >= 0; k--) ids.push(last - k);
    }
    for (; i < entries.length; i++) {
      const values: unknown[] = [];
      valuesOf(entries[i]!, values);
      ids.push(Number(this.stmt.insert.run(values).lastInsertRowid));
    }
    return ids;
  }

  /** Drops what is past the newest `cap` entries, oldest first. */
  trim(cap: number): void {
    this.stmt.trim.run(cap);
  }

  get(id: number): RequestRecord | undefined {
    const row = this.stmt.get.get(id);
    return row && toRecord(row);
  }

  page(f: RequestFilter, p: { limit: number; offset: number; descending: boolean }): RequestRecord[] {
    const { sql, params } = this.where(f);
    const stmt = this.statement(`SELECT * FROM ${JOURNAL_TABLE}${sql} ORDER BY id ${p.descending ? 'DESC' : 'ASC'} LIMIT @limit OFFSET @offset`);
    return (stmt.all({ ...params, limit: p.limit, offset: p.offset }) as Row[]).map(toRecord);
  }

  count(f: RequestFilter): number {
    const { sql, params } = this.where(f);
    return this.statement(`SELECT count(*) FROM ${JOURNAL_TABLE}${sql}`).pluck().get(params) as number;
  }

  clear(f: RequestFilter = {}): number {
    if (Object.keys(f).length === 0) return this.stmt.clear.run().changes;
    const { sql, params } = this.where(f);
    return this.statement(`DELETE FROM ${JOURNAL_TABLE}${sql}`).run(params).changes;
  }

  /** Drops the entries of these payments (retention deleted them). */
  deleteOfPayments(ids: readonly number[]): void {
    if (ids.length > 0) this.stmt.ofPayments.run({ ids: JSON.stringify(ids) });
  }

  private where(f: RequestFilter): { sql: string; params: Record<string, unknown> } {
    const parts: string[] = [];
    const params: Record<string, unknown> = {};
    for (const key of Object.keys(CONDITIONS) as (keyof typeof CONDITIONS)[]) {
      const v = f[key];
      if (v === undefined) continue;
      parts.push(CONDITIONS[key]);
      params[key] = key === 'siteIds' ? JSON.stringify(v) : v;
    }
    if (f.nearMiss !== undefined) parts.push(f.nearMiss ? 'near_miss IS NOT NULL' : 'near_miss IS NULL');
    return { sql: parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`, params };
  }

  /** Statements by their text: a filter's shape is prepared once. */
  private statement(sql: string): Statement {
    let s = this.selects.get(sql);
    if (!s) this.selects.set(sql, (s = this.db.prepare(sql)));
    return s;
  }
}
