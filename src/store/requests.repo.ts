// The request journal's SQL: entries written, read by filter a page at a time, counted, and dropped
// (an owner's oldest first past its quota, with their payments, or all).
import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import { withDeferredPrepares } from './deferred';
import { ANSWERS_TABLE, BODIES_TABLE, DROPPING_TABLE, ENTRIES_VIEW, JOURNAL_SCHEMA, JOURNAL_TABLE, SHARES_TABLE } from './journal-file';
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
  /** The marketplace the entry belongs to; null: it failed authentication (the unauthenticated pool). */
  ownerSiteId: number | null;
  /** What it counts against its owner's quota (storedBytes). */
  storedBytes: number;
}

/** An entry to write: its bodies as text, or as that text's UTF-8 bytes (an answer as it left). */
export type NewRequest = Omit<RequestRecord, 'id' | 'requestBody' | 'responseBody' | 'storedBytes'> & { requestBody: string | Buffer | null; responseBody: string | Buffer | null };

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
  /** This entry only. */
  id?: number;
  /** The entries of this marketplace (its own, never the pool's). */
  owner?: number;
  /** Only the unauthenticated pool's entries (true), or none of them (false). */
  unowned?: boolean;
}

/** An owner's share of the journal: its entries and their stored bytes. */
export interface Share {
  entries: number;
  bytes: number;
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
  owner_site_id: number | null;
  stored_bytes: number;
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
  ownerSiteId: r.owner_site_id,
  storedBytes: r.stored_bytes,
});

/** Bytes an entry is counted for beyond its texts: its numbers, and its rows in the table and the indexes. */
export const ENTRY_OVERHEAD = 256;

const utf8 = (v: string | Buffer | null) => (v === null ? 0 : typeof v === 'string' ? Buffer.byteLength(v) : v.length);

/**
 * What an entry counts against its quota: every text it keeps as UTF-8 bytes (its bodies as kept, cut
 * at the cap), and ENTRY_OVERHEAD. Migration 17's storedBytesOf says the same in SQL.
 */
export function storedBytes(r: NewRequest, reasons: string | null, responseUtf8 = utf8(r.responseBody)): number {
  return (
    ENTRY_OVERHEAD +
    utf8(r.method) +
    utf8(r.path) +
    utf8(r.query) +
    utf8(r.route) +
    utf8(reasons) +
    utf8(r.fault) +
    utf8(r.nearMiss) +
    utf8(r.requestBody) +
    responseUtf8
  );
}

/** Each filter field as SQL over named parameters. */
const CONDITIONS: Record<Exclude<keyof RequestFilter, 'nearMiss' | 'unowned'>, string> = {
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
  id: 'id = @id',
  owner: 'owner_site_id = @owner',
};

const COLUMNS = `at, wall_at, address, method, path, query, route, site_id, authenticated, payment_id, refund_id, split_id, status, reasons,
  duration_ms, fault, near_miss, request_body, request_bytes, response_body, response_bytes, owner_site_id, stored_bytes`;
// A body given as bytes is taken as the UTF-8 text it is (no text to encode again).
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, CAST(? AS TEXT), ?, ?, ?)';
/** An answer's SHA-256 (`key`: as a string, to find it among a batch's), and its UTF-8 bytes. */
interface Digested {
  digest: Buffer;
  key: string;
  bytes: number;
}
const digested = (digest: Buffer, bytes: number): Digested => ({ digest, key: digest.toString('latin1'), bytes });

/** Answers whose digests are remembered (by their text), at most. */
const DIGESTS_KEPT = 64;

/**
 * How many entries one statement writes, largest first: a statement run costs about a microsecond
 * whatever it writes, so a batch's rest (15 at most) is written by fours, then one by one, rather than
 * one statement each.
 */
const ROWS_AT_ONCE = [16, 4, 1] as const;

// Positional: the binding of 23 named parameters from an object cost more than the row's own insert.
const insertOf = (db: Db, rows: number) => db.prepare(`INSERT INTO ${JOURNAL_TABLE} (${COLUMNS}) VALUES ${Array(rows).fill(ROW).join(', ')}`);

/** An entry's values, in the order of COLUMNS, appended to `out` (`shared`: its answer is kept apart, not in its row, and is that many bytes). */
function valuesOf(r: NewRequest, out: unknown[], shares: Map<number, Share>, shared: Digested | undefined): void {
  const reasons = r.reasons.length === 0 ? null : JSON.stringify(r.reasons);
  const bytes = shared ? storedBytes(r, reasons, shared.bytes) : storedBytes(r, reasons);
  const owner = r.ownerSiteId ?? 0;
  const share = shares.get(owner);
  if (share) {
    share.entries++;
    share.bytes += bytes;
  } else shares.set(owner, { entries: 1, bytes });
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
    reasons,
    r.durationMs,
    r.fault,
    r.nearMiss,
    r.requestBody,
    r.requestBytes,
    shared ? null : r.responseBody,
    r.responseBytes,
    r.ownerSiteId,
    bytes,
  );
}

const answersOf = (db: Db, rows: number) => db.prepare(`INSERT INTO ${ANSWERS_TABLE} (entry_id, body_id) VALUES ${Array(rows).fill('(?, ?)').join(', ')}`);

/**
 * What deletes an owner's oldest entries up to `@last` (`owned`: which owner's, over `@owner`): the
 * shares and the kept answers of all of them kept at once, and then the rows, which the triggers leave
 * alone (DROPPING_TABLE). Done by the triggers, each entry's deletion cost four statements more, three
 * quarters of what deleting it cost.
 */
function dropStatements(db: Db, owned: string) {
  const dropped = `SELECT id FROM ${JOURNAL_TABLE} WHERE ${owned} AND id <= @last`;
  return [
    `INSERT INTO ${DROPPING_TABLE} (owner, last) VALUES (@key, @last)`,
    `UPDATE ${SHARES_TABLE} SET entries = entries - d.n, bytes = bytes - d.b
       FROM (SELECT count(*) AS n, coalesce(sum(stored_bytes), 0) AS b FROM ${JOURNAL_TABLE} WHERE ${owned} AND id <= @last) AS d WHERE owner = @key`,
    `UPDATE ${BODIES_TABLE} SET refs = refs - d.n
       FROM (SELECT body_id, count(*) AS n FROM ${ANSWERS_TABLE} WHERE entry_id IN (${dropped}) GROUP BY body_id) AS d WHERE id = d.body_id`,
    `DELETE FROM ${BODIES_TABLE} WHERE refs <= 0 AND id IN (SELECT body_id FROM ${ANSWERS_TABLE} WHERE entry_id IN (${dropped}))`,
    `DELETE FROM ${ANSWERS_TABLE} WHERE entry_id IN (${dropped})`,
    `DELETE FROM ${JOURNAL_TABLE} WHERE ${owned} AND id <= @last`,
    `DELETE FROM ${DROPPING_TABLE}`,
  ].map((sql) => db.prepare(sql));
}

function prepare(db: Db) {
  return {
    inserts: ROWS_AT_ONCE.map((n) => insertOf(db, n)),
    answers: ROWS_AT_ONCE.map((n) => answersOf(db, n)),
    // The conflict's row is the one kept: only its count of entries grows (the text bound is not written again).
    keepBody: db.prepare<[Buffer, string | Buffer, number], { id: number }>(
      `INSERT INTO ${BODIES_TABLE} (digest, body, refs) VALUES (?, CAST(? AS TEXT), ?) ON CONFLICT (digest) DO UPDATE SET refs = refs + excluded.refs RETURNING id`,
    ),
    // A kept answer found by the row it was last kept in (the digest says it is still that answer's).
    addRefs: db.prepare<[number, number, Buffer]>(`UPDATE ${BODIES_TABLE} SET refs = refs + ? WHERE id = ? AND digest = ?`),
    addShare: db.prepare<[number, number, number]>(
      `INSERT INTO ${SHARES_TABLE} (owner, entries, bytes) VALUES (?, ?, ?) ON CONFLICT (owner) DO UPDATE SET entries = entries + excluded.entries, bytes = bytes + excluded.bytes`,
    ),
    shares: db.prepare<[], { owner: number; entries: number; bytes: number }>(`SELECT owner, entries, bytes FROM ${SHARES_TABLE} WHERE entries > 0`),
    // An owner's entries after an ID, oldest first, through the index that holds their sizes (the rows, bodies and all, are not read).
    oldestOf: db.prepare<[number, number], { id: number; bytes: number }>(`SELECT id, stored_bytes AS bytes FROM ${JOURNAL_TABLE} WHERE owner_site_id = ? AND id > ? ORDER BY id`),
    oldestUnowned: db.prepare<[number], { id: number; bytes: number }>(`SELECT id, stored_bytes AS bytes FROM ${JOURNAL_TABLE} WHERE owner_site_id IS NULL AND id > ? ORDER BY id`),
    // The n-th entry after one, and then what the entries up to it hold: counted by SQLite along the index, not row by row here.
    nthOf: db.prepare<[number, number, number], { id: number }>(`SELECT id FROM ${JOURNAL_TABLE} WHERE owner_site_id = ? AND id > ? ORDER BY id LIMIT 1 OFFSET ?`).pluck(),
    nthUnowned: db.prepare<[number, number], { id: number }>(`SELECT id FROM ${JOURNAL_TABLE} WHERE owner_site_id IS NULL AND id > ? ORDER BY id LIMIT 1 OFFSET ?`).pluck(),
    spanOf: db.prepare<[number, number, number], { entries: number; bytes: number }>(
      `SELECT count(*) AS entries, coalesce(sum(stored_bytes), 0) AS bytes FROM ${JOURNAL_TABLE} WHERE owner_site_id = ? AND id > ? AND id <= ?`,
    ),
    spanUnowned: db.prepare<[number, number], { entries: number; bytes: number }>(
      `SELECT count(*) AS entries, coalesce(sum(stored_bytes), 0) AS bytes FROM ${JOURNAL_TABLE} WHERE owner_site_id IS NULL AND id > ? AND id <= ?`,
    ),
    dropOf: dropStatements(db, 'owner_site_id = @owner'),
    dropUnowned: dropStatements(db, 'owner_site_id IS NULL'),
    pageCount: db.prepare(`PRAGMA ${JOURNAL_SCHEMA}.page_count`).pluck(),
    pageSize: db.prepare(`PRAGMA ${JOURNAL_SCHEMA}.page_size`).pluck(),
    freePages: db.prepare(`PRAGMA ${JOURNAL_SCHEMA}.freelist_count`).pluck(),
    get: db.prepare<[number], Row>(`SELECT * FROM ${ENTRIES_VIEW} WHERE id = ?`),
    clear: db.prepare(`DELETE FROM ${JOURNAL_TABLE}`),
    ofPayments: db.prepare<{ ids: string }>(`DELETE FROM ${JOURNAL_TABLE} WHERE payment_id IN (SELECT value FROM json_each(@ids))`),
  };
}

export class RequestsRepo {
  private prepared?: ReturnType<typeof prepare>;
  private readonly selects = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  /** Each prepared on its first use: a store opened on a database not yet migrated (a test's old schema) can still be made, and a start writing one entry at a time never compiles the 16-row insert. */
  private get stmt() {
    return (this.prepared ??= withDeferredPrepares(this.db, prepare));
  }

  /** Writes entries, in order, and adds them to their owners' shares (inside a transaction); their IDs. */
  addAll(entries: readonly NewRequest[]): number[] {
    const kept: (Digested | undefined)[] = new Array(entries.length);
    const bodyIds = this.keepAnswers(entries, kept);
    const ids: number[] = [];
    const shares = new Map<number, Share>();
    let i = 0;
    for (let s = 0; s < ROWS_AT_ONCE.length; s++) {
      const rows = ROWS_AT_ONCE[s]!;
      for (; i + rows <= entries.length; i += rows) {
        const values: unknown[] = [];
        for (let k = i; k < i + rows; k++) valuesOf(entries[k]!, values, shares, kept[k]);
        // One statement's rows take consecutive IDs: the last is the statement's. Its values go as the
        // call's arguments, not as one array: the driver reads an array's values one by one through
        // V8's API (some 300 instructions each, 368 for 16 rows), the arguments directly.
        const last = Number(this.stmt.inserts[s]!.run(...values).lastInsertRowid);
        for (let k = rows - 1; k >= 0; k--) ids.push(last - k);
      }
    }
    const pairs: number[] = [];
    for (let k = 0; k < entries.length; k++) if (kept[k] !== undefined) pairs.push(ids[k]!, bodyIds[k]!);
    let p = 0;
    for (let s = 0; s < ROWS_AT_ONCE.length; s++) {
      const width = 2 * ROWS_AT_ONCE[s]!;
      for (; p + width <= pairs.length; p += width) this.stmt.answers[s]!.run(...(p === 0 && width === pairs.length ? pairs : pairs.slice(p, p + width)));
    }
    for (const [owner, share] of shares) this.stmt.addShare.run(owner, share.entries, share.bytes);
    return ids;
  }

  /** Answers last digested, a text by its value and bytes by the object: a kept answer is the same Buffer each time (found at once), a read given again the same text. */
  private readonly digests = new Map<string | Buffer, Digested>();

  /**
   * Keeps the answers of reads (GET) once each, by digest: the ID of the kept answer for each entry
   * that names one (undefined for the rest, whose answer stays in their row), and its digest in `kept`.
   * A write's answer is its own (a payment made, a refund): a digest and a row apart would cost it more than they save.
   */
  private keepAnswers(entries: readonly NewRequest[], kept: (Digested | undefined)[]): (number | undefined)[] {
    const out: (number | undefined)[] = new Array(entries.length);
    let batch: Map<string, { digest: Buffer; body: string | Buffer; refs: number; at: number[] }> | undefined;
    for (let k = 0; k < entries.length; k++) {
      const e = entries[k]!;
      const body = e.responseBody;
      if (e.method !== 'GET' || body === null || body.length === 0) continue;
      const d = (kept[k] = this.digestOf(body));
      const key = d.key;
      batch ??= new Map();
      const same = batch.get(key);
      if (same) {
        same.refs++;
        same.at.push(k);
      } else batch.set(key, { digest: d.digest, body, refs: 1, at: [k] });
    }
    if (batch) {
      for (const [key, b] of batch) {
        const id = this.keepBody(key, b.digest, b.body, b.refs);
        for (const k of b.at) out[k] = id;
      }
    }
    return out;
  }

  /** The rows answers were last kept in, by digest (`Digested.key`): a read given again is counted in its row without its text bound and looked up again. */
  private readonly bodyRows = new Map<string, number>();

  /** Keeps an answer (`refs` more entries name it): the ID of its row. */
  private keepBody(key: string, digest: Buffer, body: string | Buffer, refs: number): number {
    const known = this.bodyRows.get(key);
    // Not changed: the row went with its last entry, or a write rolled back (the digest says whether the row is still this answer's).
    if (known !== undefined && this.stmt.addRefs.run(refs, known, digest).changes === 1) return known;
    const id = this.stmt.keepBody.get(digest, body, refs)!.id;
    if (this.bodyRows.size >= DIGESTS_KEPT) this.bodyRows.clear();
    this.bodyRows.set(key, id);
    return id;
  }

  private digestOf(body: string | Buffer): Digested {
    // A text by its value, bytes by the object (a kept answer is the same Buffer each time, never changed).
    let d = this.digests.get(body);
    if (d === undefined) {
      d = typeof body === 'string' ? digested(createHash('sha256').update(body, 'utf8').digest(), Buffer.byteLength(body)) : digested(createHash('sha256').update(body).digest(), body.length);
      if (this.digests.size >= DIGESTS_KEPT) this.digests.clear();
      this.digests.set(body, d);
    }
    return d;
  }

  /** Each owner's share, by owner (0: the unauthenticated pool). */
  shares(): Map<number, Share> {
    const out = new Map<number, Share>();
    for (const r of this.stmt.shares.all()) out.set(r.owner, { entries: r.entries, bytes: r.bytes });
    return out;
  }

  /**
   * An owner's oldest entries after the entry `after` (`owner` null: the unauthenticated pool's), as
   * few as make at least `entries` of them and `bytes` of theirs: how many, their bytes, and the last
   * one's ID (0 for none). Nothing is deleted (dropThrough does).
   */
  oldest(owner: number | null, after: number, entries: number, bytes: number): Share & { last: number } {
    // Past the count alone (the usual case: a quota of entries reached, one batch over it), the last
    // of them is the n-th: found along the index, their bytes summed there.
    if (entries > 0 && bytes <= 0) {
      const last = (owner === null ? this.stmt.nthUnowned.get(after, entries - 1) : this.stmt.nthOf.get(owner, after, entries - 1)) as number | undefined;
      if (last !== undefined) {
        const span = owner === null ? this.stmt.spanUnowned.get(after, last)! : this.stmt.spanOf.get(owner, after, last)!;
        return { entries: span.entries, bytes: span.bytes, last };
      }
    }
    const found = { entries: 0, bytes: 0, last: 0 };
    for (const r of owner === null ? this.stmt.oldestUnowned.iterate(after) : this.stmt.oldestOf.iterate(owner, after)) {
      if (found.entries >= entries && found.bytes >= bytes) break;
      found.entries++;
      found.bytes += r.bytes;
      found.last = r.id;
    }
    return found;
  }

  /** Deletes an owner's entries up to the entry `last`, that one too (`owner` null: the unauthenticated pool's). */
  dropThrough(owner: number | null, last: number): void {
    const params = { key: owner ?? 0, owner, last };
    for (const s of owner === null ? this.stmt.dropUnowned : this.stmt.dropOf) s.run(params);
  }

  /** The journal's file: its size and its free pages' (pages × page size), in bytes. */
  fileBytes(): { bytes: number; freeBytes: number } {
    const pageSize = this.stmt.pageSize.get() as number;
    return { bytes: (this.stmt.pageCount.get() as number) * pageSize, freeBytes: (this.stmt.freePages.get() as number) * pageSize };
  }

  get(id: number): RequestRecord | undefined {
    const row = this.stmt.get.get(id);
    return row && toRecord(row);
  }

  page(f: RequestFilter, p: { limit: number; offset: number; descending: boolean }): RequestRecord[] {
    const { sql, params } = this.where(f);
    const stmt = this.statement(`SELECT * FROM ${ENTRIES_VIEW}${sql} ORDER BY id ${p.descending ? 'DESC' : 'ASC'} LIMIT @limit OFFSET @offset`);
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
    if (f.unowned !== undefined) parts.push(f.unowned ? 'owner_site_id IS NULL' : 'owner_site_id IS NOT NULL');
    return { sql: parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`, params };
  }

  /** Statements by their text: a filter's shape is prepared once. */
  private statement(sql: string): Statement {
    let s = this.selects.get(sql);
    if (!s) this.selects.set(sql, (s = this.db.prepare(sql)));
    return s;
  }
}
