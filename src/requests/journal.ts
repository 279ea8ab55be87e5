// The request journal: entries written (each owner's oldest dropped first past its quota), read by
// filter, counted, cleared and waited for.
import { EventEmitter } from 'node:events';
import { parseTimestamp } from '../domain/time';
import { HttpError } from '../errors/errors';
import type { Clock } from '../scheduler/clock';
import type { Surface } from '../store/records';
import type { NewRequest, RequestFilter, RequestRecord, Share } from '../store/requests.repo';
import type { Store } from '../store/store';
import { BODY_CAP, type RequestEntry, requestView } from '../wire/requests';

/** Entries each marketplace keeps when `--request-journal` names no number: a long QA day of a busy test suite. */
export const DEFAULT_REQUEST_JOURNAL = 20_000;

// Each entry's view is the wire's (a floor below): the journal's readers find it here as before.
export { BODY_CAP, type RequestEntry, requestView };

const MiB = 1024 * 1024;

/**
 * How much of the journal each owner keeps, in entries and in bytes (an entry's StoredBytes): past
 * either, its own oldest entries are dropped, nobody else's.
 */
export interface JournalQuotas {
  /** Each marketplace's share (its linked sites' entries and its payer pages' presses are its own). */
  marketplace: Share;
  /** The entries that failed authentication (or named no marketplace), which belong to no one. */
  unauthenticated: Share;
  /** All entries together, in bytes: past it, the owner holding the most gives way. */
  fileBytes: number;
}

/** The quotas' defaults (docs/journal.md, "Quotas"): a shared QA instance of some twenty teams. */
export const DEFAULT_JOURNAL_QUOTAS: JournalQuotas = {
  marketplace: { entries: DEFAULT_REQUEST_JOURNAL, bytes: 64 * MiB },
  unauthenticated: { entries: 2_000, bytes: 8 * MiB },
  fileBytes: 512 * MiB,
};

/** Entries written together at most (about a megabyte of bodies), and the longest an entry waits. */
const BATCH_MAX = 256;
const BATCH_MS = 20;

/**
 * Entries past their quotas, and their bytes, that may wait to be deleted together: then the shares
 * and the kept answers of all of them are kept by a few statements (RequestsRepo.dropThrough), where
 * the triggers ran four for each entry (three quarters of deleting one, a third of writing one), and
 * the oldest pages of the table and its indexes are changed (and copied into the rollback journal)
 * once rather than with each batch. Until they go they are not the journal's any more: no quota counts
 * them, and whoever reads the journal deletes them first.
 */
const PAST_QUOTA_ENTRIES = 2048;
const PAST_QUOTA_BYTES = 4 * MiB;

/** An owner's oldest entries that are past its quota, not deleted yet: how many, their bytes, and the newest one's ID. */
interface PastQuota extends Share {
  last: number;
}

/** An entry to be made (RequestJournal.later), by its `make`. */
export interface Unmade {
  make(): void;
}

/** A filter as the control API's query and the embedded `sandbox.requests` take it (the wire names). */
export interface RequestQuery {
  SiteID?: number;
  PaymentID?: number;
  RefundID?: number;
  /** GET, POST… (any case). */
  Method?: string;
  /** The route template, such as `/v1/payments/{id}/capture`. */
  Route?: string;
  /** The path as sent, without its query string, such as `/v1/payments/5014571/capture`. */
  Path?: string;
  /** The answer's HTTP status. */
  Status?: number;
  /** A reason code of the answer (17: the payment is not in a status that allows it…). */
  ReasonCode?: number;
  /** `api` or `card`. */
  Address?: Surface;
  /** Only near misses (true), or none of them (false). */
  NearMiss?: boolean;
  /** Only the entries that failed authentication (true: the unauthenticated pool's), or none of them (false). */
  Unauthenticated?: boolean;
  /** Sandbox time from (inclusive): yyyyMMddHHmmss, or epoch ms. */
  Since?: string | number;
  /** Sandbox time up to (inclusive): yyyyMMddHHmmss, or epoch ms. */
  Until?: string | number;
}

const SURFACES: readonly Surface[] = ['api', 'card'];

function whole(name: string, v: unknown): number {
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new HttpError(400, `${name} must be a whole number`);
  return v as number;
}

function time(name: string, v: string | number): number {
  if (typeof v === 'number') return whole(name, v);
  const ms = parseTimestamp(v);
  if (ms === null) throw new HttpError(400, `${name} must be a sandbox time as yyyyMMddHHmmss`);
  return ms;
}

/** The store's filter for a query; a value of the wrong kind is a 400 naming it. */
export function filterOf(q: RequestQuery): RequestFilter {
  const f: RequestFilter = {};
  if (q.SiteID !== undefined) f.siteIds = [whole('SiteID', q.SiteID)];
  if (q.PaymentID !== undefined) f.paymentId = whole('PaymentID', q.PaymentID);
  if (q.RefundID !== undefined) f.refundId = whole('RefundID', q.RefundID);
  if (q.Status !== undefined) f.status = whole('Status', q.Status);
  if (q.ReasonCode !== undefined) f.reasonCode = whole('ReasonCode', q.ReasonCode);
  if (q.Method !== undefined) {
    if (typeof q.Method !== 'string' || !/^[A-Za-z]{1,16}$/.test(q.Method)) throw new HttpError(400, 'Method must be an HTTP method such as POST');
    f.method = q.Method.toUpperCase();
  }
  if (q.Route !== undefined) f.route = String(q.Route);
  if (q.Path !== undefined) f.path = String(q.Path).replace(/\?.*$/, '');
  if (q.Address !== undefined) {
    if (!SURFACES.includes(q.Address)) throw new HttpError(400, 'Address must be api or card');
    f.address = q.Address;
  }
  if (q.NearMiss !== undefined) {
    if (typeof q.NearMiss !== 'boolean') throw new HttpError(400, 'NearMiss must be true or false');
    f.nearMiss = q.NearMiss;
  }
  if (q.Unauthenticated !== undefined) {
    if (typeof q.Unauthenticated !== 'boolean') throw new HttpError(400, 'Unauthenticated must be true or false');
    f.unowned = q.Unauthenticated;
  }
  if (q.Since !== undefined) f.since = time('Since', q.Since);
  if (q.Until !== undefined) f.until = time('Until', q.Until);
  return f;
}

/** The filter's conditions as a person reads them, for a wait that found nothing. */
const described = (q: RequestQuery) => JSON.stringify(q);

export class RequestJournal {
  /** `entry` with the ID of each entry written. */
  readonly events = new EventEmitter();

  /** @param quotas each owner's share (a marketplace's at least 1 entry: a journal that is off is not made) */
  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly quotas: JournalQuotas = DEFAULT_JOURNAL_QUOTAS,
  ) {
    this.events.setMaxListeners(0);
    // An in-memory journal being closed with no entry waiting has nothing to keep: holding it to its
    // quotas (a first read's work, done by each test's sandbox at its close) would change nothing anyone sees.
    store.addPendingWriter((closing) => (closing && store.db.memory ? this.writeWaitingEntries() : this.flush()));
  }

  /** Each owner's entries past its quota that are still in the file (0: the pool's), and all of them together. */
  private pastQuota = new Map<number, PastQuota>();
  private pastQuotaEntries = 0;
  private pastQuotaBytes = 0;
  /** The entries in place were held to the quotas (at the first read: a file left by a process that stopped can hold more). */
  private settled = false;

  /** Entries of answers gone, not yet written. */
  private pending: NewRequest[] = [];
  /** Entries of answers gone, not yet made (each one's add to come), in the order their answers left. */
  private unmade: (Unmade | (() => void))[] = [];

  /**
   * Makes an entry after the current turn, when the answers of the turn have left: `make` adds it (a
   * function, or what has one as its `make`: a request's capture is, with no closure made for it).
   * Whoever reads or writes the journal makes those waiting first (flush), so that none is missed.
   */
  later(make: Unmade | (() => void)): void {
    if (this.unmade.push(make) === 1) setImmediate(this.makeWaiting);
  }

  private readonly makeWaiting = (): void => {
    const waiting = this.unmade;
    if (waiting.length === 0) return;
    this.unmade = [];
    for (const make of waiting) {
      if (typeof make === 'function') make();
      else make.make();
    }
  };
  private timer: NodeJS.Timeout | undefined;
  private soon = false;

  /**
   * Keeps an entry: written with the entries of the next few milliseconds, in a transaction of their
   * own (Store.txJournal), which no request's commit group joins. Never inside a request's own
   * transaction: an entry is written once its answer has left, with the answer that left. Together,
   * because each commit of the journal's file costs some 40 µs whatever it holds: written with the
   * commit group that released its answer (some 30 entries under load), an entry cost half as much
   * again as in batches of a hundred. Readers, waiters, copies and closing write what waits first.
   */
  add(entry: NewRequest): void {
    const n = this.pending.push(entry);
    if (n >= BATCH_MAX || this.events.listenerCount('entry') > 0) this.writeSoon();
    else if (n === 1) this.timer = setTimeout(this.writeWaiting, BATCH_MS).unref();
  }

  private writeSoon(): void {
    if (this.soon) return;
    this.soon = true;
    queueMicrotask(this.writeWaiting);
  }

  private readonly writeWaiting = (): void => this.write(false);

  /**
   * Writes the entries waiting and deletes those past their quotas: readers (and copies, closing)
   * call it first, to see exactly the entries the quotas keep.
   */
  flush(): void {
    this.write(true);
  }

  /** Writes the entries waiting, if any, as flush() does. */
  private writeWaitingEntries(): void {
    this.makeWaiting();
    if (this.pending.length > 0) this.flush();
  }

  /** Writes the entries waiting; `exact`: and deletes every entry past its quota (otherwise only once they are many). */
  private write(exact: boolean): void {
    this.makeWaiting();
    this.soon = false;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0 && !(exact && (!this.settled || this.pastQuota.size > 0))) return;
    // Another connection is replacing the data: written once it is done (unless discarded with it).
    if (this.store.writesHeld) {
      if (this.pending.length > 0) this.timer = setTimeout(this.writeWaiting, BATCH_MS).unref();
      return;
    }
    if (this.pending.length === 0) {
      try {
        this.store.txJournal(() => this.keepQuotas(undefined, true));
      } catch {
        this.unsettle();
      }
      return;
    }
    const entries = this.pending;
    this.pending = [];
    try {
      this.insert(entries, exact);
    } catch {
      // Kept in memory only, and lost with a failing disk: the answers they tell of have gone already.
      this.unsettle();
    }
  }

  /** Forgets the entries not yet written (the data they tell of was replaced), and holds the entries now in place to the quotas. */
  discard(): void {
    this.unmade = [];
    this.pending = [];
    // What was past the quotas was in the data replaced.
    this.unsettle();
    this.flush();
  }

  private insert(entries: readonly NewRequest[], exact: boolean): void {
    const ids = this.store.txJournal(() => {
      const made = this.store.requests.addAll(entries);
      this.keepQuotas(this.settled ? new Set(entries.map((e) => e.ownerSiteId)) : undefined, exact);
      return made;
    });
    if (this.events.listenerCount('entry') > 0) for (const id of ids) this.events.emit('entry', id);
  }

  /** After a write that failed (rolled back): what is past the quotas is found again by the next write. */
  private unsettle(): void {
    this.forgetPastQuota();
    this.settled = false;
  }

  private forgetPastQuota(): void {
    this.pastQuota.clear();
    this.pastQuotaEntries = 0;
    this.pastQuotaBytes = 0;
  }

  /** Notes an owner's oldest entries as past its quota (`key` 0: the pool); what they are. */
  private passQuota(key: number, entries: number, bytes: number): Share {
    const past = this.pastQuota.get(key);
    const found = this.store.requests.oldest(key === 0 ? null : key, past?.last ?? 0, entries, bytes);
    if (found.entries === 0) return found;
    if (past) {
      past.entries += found.entries;
      past.bytes += found.bytes;
      past.last = found.last;
    } else this.pastQuota.set(key, found);
    this.pastQuotaEntries += found.entries;
    this.pastQuotaBytes += found.bytes;
    return found;
  }

  /** Deletes the entries past the quotas, each owner's in one statement (the file's shares follow by its trigger). */
  private deletePastQuota(): void {
    for (const [key, past] of this.pastQuota) this.store.requests.dropThrough(key === 0 ? null : key, past.last);
    this.forgetPastQuota();
  }

  /**
   * Drops the oldest entries of each owner past its share (of `owners`, or of all), then, while all
   * of them together are past the file's quota, those of the owner holding the most: one owner's
   * entries never push out another's, unless it holds less than it. Inside a transaction. Dropped
   * entries are deleted together once they are many, or at once when `exact` (a reader is next).
   */
  private keepQuotas(owners: ReadonlySet<number | null> | undefined, exact: boolean): void {
    const repo = this.store.requests;
    const shares = repo.shares();
    // The file's shares still count the entries past the quotas: what the owners hold is the rest.
    for (const [key, past] of this.pastQuota) {
      const share = shares.get(key);
      if (!share) continue;
      share.entries -= past.entries;
      share.bytes -= past.bytes;
    }
    for (const [key, share] of shares) {
      const owner = key === 0 ? null : key;
      if (owners && !owners.has(owner)) continue;
      const quota = owner === null ? this.quotas.unauthenticated : this.quotas.marketplace;
      if (share.entries <= quota.entries && share.bytes <= quota.bytes) continue;
      const dropped = this.passQuota(key, share.entries - quota.entries, share.bytes - quota.bytes);
      share.entries -= dropped.entries;
      share.bytes -= dropped.bytes;
    }
    let total = 0;
    for (const share of shares.values()) total += share.bytes;
    while (total > this.quotas.fileBytes) {
      const [first, second] = [...shares].filter(([, s]) => s.entries > 0).sort((a, b) => b[1].bytes - a[1].bytes);
      if (!first) break;
      // Down to the next holder's size at most, each round: the largest ones give way in turn.
      const give = Math.min(total - this.quotas.fileBytes, Math.max(1, first[1].bytes - (second?.[1].bytes ?? 0)));
      const dropped = this.passQuota(first[0], 0, give);
      if (dropped.entries === 0) break;
      first[1].entries -= dropped.entries;
      first[1].bytes -= dropped.bytes;
      total -= dropped.bytes;
    }
    if (exact || this.pastQuotaEntries >= PAST_QUOTA_ENTRIES || this.pastQuotaBytes >= PAST_QUOTA_BYTES) this.deletePastQuota();
    this.settled = true;
  }

  private lastHealth: ReturnType<RequestJournal['figures']> | undefined;

  /**
   * The journal as health shows it: its file, the entries of all and of the pool, and the quotas.
   * While another connection replaces the data (an off-thread restore writes the journal's file),
   * the figures of before: health answers at once, and reading the file could wait for that writer.
   */
  health() {
    if (this.store.writesHeld && this.lastHealth) return this.lastHealth;
    return (this.lastHealth = this.figures());
  }

  private figures() {
    this.flush();
    const shares = this.store.requests.shares();
    const all: Share = { entries: 0, bytes: 0 };
    for (const s of shares.values()) {
      all.entries += s.entries;
      all.bytes += s.bytes;
    }
    const pool = shares.get(0) ?? { entries: 0, bytes: 0 };
    const file = this.store.requests.fileBytes();
    let largest = 0;
    for (const [owner, s] of shares) if (owner !== 0) largest = Math.max(largest, s.bytes);
    return {
      FileBytes: file.bytes,
      FileFreeBytes: file.freeBytes,
      Entries: all.entries,
      StoredBytes: all.bytes,
      Unauthenticated: { Entries: pool.entries, StoredBytes: pool.bytes },
      LargestMarketplaceStoredBytes: largest,
      Quotas: {
        Marketplace: { Entries: this.quotas.marketplace.entries, StoredBytes: this.quotas.marketplace.bytes },
        Unauthenticated: { Entries: this.quotas.unauthenticated.entries, StoredBytes: this.quotas.unauthenticated.bytes },
        FileStoredBytes: this.quotas.fileBytes,
      },
    };
  }

  /** Entries matching `f`, oldest first unless `descending`. */
  find(f: RequestFilter, p: { limit: number; offset: number; descending: boolean }): RequestRecord[] {
    this.flush();
    return this.store.requests.page(f, p);
  }

  count(f: RequestFilter): number {
    this.flush();
    return this.store.requests.count(f);
  }

  /** Deletes the entries matching `f` (all of them without one); how many. */
  clear(f: RequestFilter = {}): number {
    this.flush();
    return this.store.tx(() => this.store.requests.clear(f));
  }

  /**
   * The first entry matching `q`, already written or the next one to be; rejects after `timeoutMs`
   * saying how many entries it looked at. With `signal`, stops waiting when it aborts (null).
   */
  waitFor(q: RequestQuery, timeoutMs: number, signal?: AbortSignal): Promise<RequestRecord | null> {
    const f = filterOf(q);
    const [found] = this.find(f, { limit: 1, offset: 0, descending: false });
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.events.off('entry', onEntry);
        signal?.removeEventListener('abort', onAbort);
      };
      const onEntry = (id: number) => {
        // The new entry is read back through the same filter, so that it matches as a find would.
        const [match] = this.find({ ...f, afterId: id - 1 }, { limit: 1, offset: 0, descending: false });
        if (!match) return;
        done();
        resolve(match);
      };
      const onAbort = () => {
        done();
        resolve(null);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no request matching ${described(q)} within ${timeoutMs} ms (${this.count({})} in the journal)`));
      }, timeoutMs);
      this.events.on('entry', onEntry);
      signal?.addEventListener('abort', onAbort);
    });
  }
}
