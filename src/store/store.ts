// The store: the repositories over one database, and the one way to run a transaction.
import { holdRunningMark } from './running-mark';
import { type Db, openDatabase } from './db';
import { CapturesRepo } from './captures.repo';
import { CardAuthsRepo } from './card-auths.repo';
import { ClockRepo, SiteClocksRepo } from './clock.repo';
import { CountersRepo } from './counters.repo';
import { DisputesRepo } from './disputes.repo';
import { FaultsRepo } from './faults.repo';
import { GroupUndone, RolledBack, WritesHeld } from './failures';
import { HistoryRepo } from './history.repo';
import { JobsRepo } from './jobs.repo';
import { NotificationsRepo } from './notifications.repo';
import { MethodsRepo } from './methods.repo';
import { PaymentsRepo } from './payments.repo';
import { PreapprovalsRepo } from './preapprovals.repo';
import { PayoutsRepo } from './payouts.repo';
import { RefundsRepo } from './refunds.repo';
import { RequestsRepo } from './requests.repo';
import { PRUNED_TABLES, RetentionRepo, SITE_TABLES } from './retention.repo';
import { SitesRepo } from './sites.repo';
import { rememberSequences, startSequencesAt } from './sequences';
import { SplitsRepo } from './splits.repo';
import { StoriesRepo } from './stories.repo';
import { deleteOwned } from './owned';
import { JOURNAL_TABLE, attachJournal } from './journal-file';
import { deferPrepares } from './deferred';

/** Why the data was replaced as a whole: emptied by a reset, or a snapshot restored. */
export type DataReplaced = 'reset' | 'restore';
/** Why one marketplace's data was replaced: its reset, its snapshot restored, its removal. */
export type SiteReplaced = DataReplaced | 'remove';

/**
 * BEGIN IMMEDIATE, for the main database only. BEGIN IMMEDIATE takes the write lock of every attached
 * database, the request journal's file too, and that file's locks (and the check of its rollback
 * journal that comes with taking them) cost each of the many transactions that never write an entry
 * some ten system calls. A write to main (of no row) as the first statement takes main's lock, as
 * BEGIN IMMEDIATE would, waiting as it would; the journal's file is locked only by what writes there.
 * A database without the sites table yet (an old schema being opened) begins IMMEDIATE.
 */
function beginWritingMain(db: Db): { run(): unknown } {
  let lockMain: { run(): unknown };
  try {
    lockMain = db.prepare('UPDATE main.sites SET site_id = site_id WHERE 0');
  } catch {
    return db.prepare('BEGIN IMMEDIATE');
  }
  const begin = db.prepare('BEGIN');
  const rollback = db.prepare('ROLLBACK');
  return {
    run() {
      begin.run();
      try {
        lockMain.run();
      } catch (e) {
        if (db.inTransaction) rollback.run();
        throw e;
      }
    },
  };
}

/** The stores of this process whose commit group is open. */
const OPEN_GROUPS = new Set<Store>();

export class Store {
  readonly sites: SitesRepo;
  readonly methods: MethodsRepo;
  readonly payments: PaymentsRepo;
  readonly splits: SplitsRepo;
  readonly refunds: RefundsRepo;
  readonly preapprovals: PreapprovalsRepo;
  readonly captures: CapturesRepo;
  readonly disputes: DisputesRepo;
  readonly payouts: PayoutsRepo;
  readonly cardAuths: CardAuthsRepo;
  readonly history: HistoryRepo;
  readonly counters: CountersRepo;
  readonly jobs: JobsRepo;
  readonly notifications: NotificationsRepo;
  readonly faults: FaultsRepo;
  readonly clockState: ClockRepo;
  readonly siteClocks: SiteClocksRepo;
  readonly stories: StoriesRepo;
  readonly requests: RequestsRepo;
  private readonly replacedListeners = new Set<(why: DataReplaced) => void>();
  private readonly siteListeners = new Set<(siteId: number, why: SiteReplaced) => void>();
  readonly retention: RetentionRepo;

  /** @param options.journalInMemory the request journal is off: its database is kept in memory, with no file beside `db` */
  constructor(
    readonly db: Db,
    options: { journalInMemory?: boolean } = {},
  ) {
    attachJournal(db, options.journalInMemory);
    const preparesDone = deferPrepares(db);
    this.sites = new SitesRepo(db);
    this.methods = new MethodsRepo(db);
    this.payments = new PaymentsRepo(db);
    this.splits = new SplitsRepo(db);
    this.refunds = new RefundsRepo(db);
    this.preapprovals = new PreapprovalsRepo(db);
    this.captures = new CapturesRepo(db);
    this.disputes = new DisputesRepo(db);
    this.payouts = new PayoutsRepo(db);
    this.cardAuths = new CardAuthsRepo(db);
    this.history = new HistoryRepo(db);
    this.counters = new CountersRepo(db);
    this.jobs = new JobsRepo(db);
    this.notifications = new NotificationsRepo(db);
    this.faults = new FaultsRepo(db);
    this.clockState = new ClockRepo(db);
    this.siteClocks = new SiteClocksRepo(db);
    this.stories = new StoriesRepo(db);
    this.requests = new RequestsRepo(db);
    this.retention = new RetentionRepo(db);
    preparesDone();
    this.stmt = {
      begin: beginWritingMain(db),
      beginApart: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT tx'),
      release: db.prepare('RELEASE tx'),
      rollbackTo: db.prepare('ROLLBACK TO tx'),
    };
    // Rows changed through this connection (rolled back or not), and commits by other connections.
    this.stamp = db.prepare(`SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version())`).pluck();
    this.totalChanges = db.prepare('SELECT total_changes()').pluck();
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  static open(file: string, options: { journalInMemory?: boolean } = {}): Store {
    return new Store(openDatabase(file), options);
  }

  private readonly stmt: Record<'begin' | 'beginApart' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', { run(): unknown }>;
  private grouping = false;
  private readonly stamp: { get(): unknown };
  private readonly totalChanges: { get(): unknown };
  private readonly dataVersion: { get(): unknown };
  /** Rows the request journal's own writes changed (txJournal), which dataStamp() leaves out. */
  private journalChanges = 0;
  /** Other connections' commits as this turn of the event loop first saw them (dataStamp). */
  private turnVersion: unknown;
  private readonly forgetVersion = () => {
    this.turnVersion = undefined;
  };
  private groupOpen = false;
  private readonly waiting: ((err: Error | null) => void)[] = [];
  /** Why the database rolled the open transaction back by itself (a full disk), for what waits for it. */
  private rolledBackBy: Error | null = null;

  /**
   * Runs `fn` as one IMMEDIATE transaction: it all happens or, if `fn` throws, none of it.
   * Immediate, so that two processes on one file serialise their writes instead of failing late.
   * Inside another transaction (or a commit group) it is a savepoint: undone alone if it throws.
   */
  tx<T>(fn: () => T): T {
    if (this.held) throw new WritesHeld();
    const db = this.db;
    // The database rolled the group back by itself (a full disk, say): what waits for it has failed.
    if (this.groupOpen && !db.inTransaction) this.flush();
    if (!db.inTransaction) {
      if (!this.grouping) return this.alone(fn);
      this.openGroup();
    }
    this.stmt.savepoint.run();
    this.depth++;
    try {
      const result = fn();
      this.throwIfRolledBack();
      this.stmt.release.run();
      return result;
    } catch (e) {
      if (db.inTransaction) {
        this.stmt.rollbackTo.run();
        this.stmt.release.run();
      } else this.rolledBackBy ??= e as Error;
      // Undone: counts kept in memory may have counted what was undone, and sites read (credentials) may be of it.
      this.payments.forget();
      this.sites.forget();
      throw e;
    } finally {
      this.depth--;
    }
  }

  /**
   * tx(() => write(check())), for a change whose refusals all come from `check`, which only reads.
   * In a commit group, at the top of its transaction, `write` runs without a savepoint of its own: a
   * savepoint makes SQLite copy every page the change touches into its undo log first (measured: 7 to
   * 30 µs of a create's 130 to 230 in the services). Nothing can then undo `write` alone: if it throws,
   * the whole group is rolled back, as when its commit fails, and every answer that waited for it is
   * a 503 (GroupUndone). A scenario step in a run of steps (txSteps) writes so too: the run has no
   * savepoint of its own. Elsewhere (no group, inside a tx()) it is tx().
   */
  txChecked<C, T>(check: () => C, write: (checked: C) => T): T {
    if (this.held) throw new WritesHeld();
    const db = this.db;
    if (this.groupOpen && !db.inTransaction) this.flush();
    // At the top of the group's transaction: alone in it, or a step of a run of steps (txSteps).
    const atTop = this.depth === 0 || (this.depth === 1 && this.stepsAtTop);
    if (!this.grouping || !atTop || (db.inTransaction && !this.groupOpen)) return this.tx(() => write(check()));
    if (!this.groupOpen) this.openGroup();
    this.depth++;
    try {
      const checked = check();
      try {
        const result = write(checked);
        this.throwIfRolledBack();
        return result;
      } catch (e) {
        if (db.inTransaction) {
          this.rolledBackBy ??= new GroupUndone();
          this.stmt.rollback.run();
        } else this.rolledBackBy ??= e as Error;
        // Nothing of the group happened: what memory holds about it is dropped, as a failed commit does.
        this.payments.forget();
        this.sites.forget();
        this.methods.forget();
        throw e;
      }
    } finally {
      this.depth--;
    }
  }

  private openGroup(): void {
    // Two sandboxes of one process on one file: the other's open group holds the write lock,
    // and only this thread could release it, so it commits first.
    for (const other of OPEN_GROUPS) if (other !== this) other.flush();
    this.stmt.begin.run();
    this.rolledBackBy = null;
    this.groupOpen = true;
    OPEN_GROUPS.add(this);
    setImmediate(() => this.flush());
  }

  /**
   * Runs `fn`, a run of many small writes each in its own tx() (a slice of scenario steps), in one
   * transaction with no savepoint of its own around them: it commits once, with the commit group when
   * there is one, and each tx() inside is a savepoint at the top of the transaction. Under one
   * savepoint around them all, SQLite's in-memory undo log (its sub-journal, a list of 1 KB pieces)
   * grew with every step, and releasing each step's savepoint walked it from its start: a slice's cost
   * grew with the square of its steps. A tx() that throws is undone alone; the steps before it stay.
   * A txChecked() inside writes with no savepoint at all, and its failing write undoes the whole group.
   * Without a commit group, `fn` throwing undoes it all. Inside a running tx() it is a savepoint of it.
   */
  txSteps<T>(fn: () => T): T {
    if (this.held) throw new WritesHeld();
    if (this.groupOpen && !this.db.inTransaction) this.flush();
    if (this.depth > 0 || (this.db.inTransaction && !this.groupOpen)) return this.tx(fn);
    if (!this.grouping) return this.alone(fn);
    if (!this.groupOpen) this.openGroup();
    this.depth++;
    this.stepsAtTop = true;
    try {
      const result = fn();
      this.throwIfRolledBack();
      return result;
    } finally {
      this.depth--;
      this.stepsAtTop = false;
    }
  }

  /** How many tx() calls are running (a tx() inside another is a savepoint of it). */
  private depth = 0;
  /** A run of steps (txSteps) in the commit group is running, with no savepoint around its steps. */
  private stepsAtTop = false;

  /**
   * Whether the open commit group was rolled back whole by a change that wrote without a savepoint
   * (txChecked) and failed: what it held is gone, and what waits for it fails with GroupUndone.
   */
  get groupUndone(): boolean {
    return this.groupOpen && this.rolledBackBy instanceof GroupUndone;
  }

  /** Whether a tx() (or txSteps(), txChecked()) is running: what fails now is undone by it. */
  get inTx(): boolean {
    return this.depth > 0;
  }

  /**
   * Like tx(), but committed at once in a transaction of its own, not joined by the commit group: for
   * writes to the request journal, which no answer waits for, so that the requests of a turn do not
   * carry the journal's pages in their transaction (measured: about 1% of a create's CPU, within the
   * noise). Inside a running tx() it is a savepoint of it, like tx(); an open group with no tx()
   * running is committed first. It begins DEFERRED: its writes lock the databases they write (the
   * journal's file), and main stays free for another process's writes.
   */
  txApart<T>(fn: () => T): T {
    if (this.held) throw new WritesHeld();
    if (this.groupOpen && this.depth === 0) this.flush();
    return this.db.inTransaction ? this.tx(fn) : this.alone(fn, this.stmt.beginApart);
  }

  /**
   * Runs `fn`, reads only, in one read transaction: on a WAL file each statement outside a transaction
   * begins and ends one of its own (the WAL index looked at, its read lock taken and let go), some 9 µs
   * a statement on a large file, more than the statement's own work on a payment read by its ID.
   * Inside a transaction (a commit group), `fn` runs in it.
   */
  reading<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    this.stmt.beginApart.run();
    try {
      return fn();
    } finally {
      if (this.db.inTransaction) this.stmt.commit.run();
    }
  }

  /**
   * txApart for the request journal's entries: the rows they change are counted apart, so that
   * dataStamp() does not move with them (a kept list page outlives the journal's writes).
   */
  txJournal<T>(fn: () => T): T {
    const before = this.totalChanges.get() as number;
    try {
      return this.txApart(fn);
    } finally {
      if (this.db.open) this.journalChanges += (this.totalChanges.get() as number) - before;
    }
  }

  private alone<T>(fn: () => T, begin = this.stmt.begin): T {
    this.rolledBackBy = null;
    begin.run();
    this.depth++;
    try {
      const result = fn();
      this.throwIfRolledBack();
      this.stmt.commit.run();
      return result;
    } catch (e) {
      if (this.db.inTransaction) this.stmt.rollback.run();
      this.payments.forget();
      this.sites.forget();
      throw e;
    } finally {
      this.depth--;
    }
  }

  /**
   * SQLite rolls the whole transaction back on some failures (a full disk), whatever savepoint a
   * statement ran in: what `fn` did before is gone too, and whatever it writes after would commit on
   * its own. So the transaction fails as a whole, with the failure that undid it.
   */
  private throwIfRolledBack(): void {
    if (!this.db.inTransaction) throw this.rolledBackBy ?? new RolledBack();
  }

  private held = false;

  /**
   * Holds every write of this connection (tx() fails at once as busy, which callers treat as a
   * storage failure to try again later) while another connection replaces the data: waiting for its
   * lock would block the main thread for as long as busy_timeout.
   */
  holdWrites(): void {
    this.flush();
    this.held = true;
    this.turnVersion = undefined;
  }

  releaseWrites(): void {
    this.held = false;
    // The other connection's writes are seen by the next look, whatever turn it comes in.
    this.turnVersion = undefined;
  }

  get writesHeld(): boolean {
    return this.held;
  }

  /**
   * Group commit, for a server: the transactions of one turn of the event loop (every request that
   * arrived together, a slice of scenario steps) commit together at its end, one disk write instead
   * of one each. Answers wait for it through afterCommit(), so a 2xx still means "on disk".
   */
  groupCommits(): void {
    this.grouping = true;
  }

  /** Runs `fn` once what was written so far is committed (at once when nothing waits), with the commit's error if it failed. */
  afterCommit(fn: (err: Error | null) => void): void {
    if (this.groupOpen) this.waiting.push(fn);
    else fn(null);
  }

  /** Commits the open group, then lets the answers that waited for it go. */
  flush(): void {
    if (!this.groupOpen) return;
    this.groupOpen = false;
    OPEN_GROUPS.delete(this);
    let err: Error | null = null;
    try {
      this.throwIfRolledBack();
      this.stmt.commit.run();
    } catch (e) {
      err = e as Error;
      if (this.db.open && this.db.inTransaction) this.stmt.rollback.run();
      // Nothing of the group happened: what memory holds about it is dropped.
      this.payments.forget();
      this.sites.forget();
      this.methods.forget();
    }
    for (const fn of this.waiting.splice(0)) fn(err);
  }

  /**
   * Runs `fn` with the database file `file` attached as `schema`, detached after. ATTACH and DETACH
   * happen outside a transaction: the open commit group is committed first.
   */
  withAttached<T>(file: string, schema: string, fn: () => T): T {
    this.flush();
    this.db.prepare(`ATTACH DATABASE ? AS ${schema}`).run(file);
    try {
      return fn();
    } finally {
      this.db.prepare(`DETACH DATABASE ${schema}`).run();
    }
  }

  /** Changes whenever anything may have been written, here or by another process on the same file. */
  changeStamp(): string {
    return this.stamp.get() as string;
  }

  /**
   * Changes whenever anything but the request journal may have been written, here or by another
   * process on the same file. Other connections' commits are looked up once a turn of the event loop
   * (requests that arrived together share the look): the lookup is a read transaction's start, some
   * 5 to 10 µs on a large file, and a kept list page costs little more than its stamp.
   */
  dataStamp(): string {
    if (this.turnVersion === undefined) {
      this.turnVersion = this.dataVersion.get();
      setImmediate(this.forgetVersion);
    }
    return `${(this.totalChanges.get() as number) - this.journalChanges}:${String(this.turnVersion)}`;
  }

  isEmpty(): boolean {
    return (this.db.prepare('SELECT count(*) AS n FROM sites').get() as { n: number }).n === 0;
  }

  /**
   * Empties every table but the sequences: IDs go on from where they stood, so that an application
   * database kept across resets meets no ID twice. Run it inside tx().
   */
  clear(): void {
    // Entries of answers already gone are written first, so that they go with the rest.
    this.writePending();
    // The payment tree in the order retention deletes it (each table before the rows it points at).
    const tables = ['story_scenarios', JOURNAL_TABLE, ...PRUNED_TABLES, 'preapprovals', ...SITE_TABLES, 'site_clocks', 'merchant_sites', 'sites', 'methods', 'faults'];
    for (const t of tables) this.db.prepare(`DELETE FROM ${t}`).run();
    // Payment, split and refund IDs go on (an application's database may hold them); fault rules
    // are the sandbox's own settings, numbered afresh like the merchants made at run time.
    this.db.prepare(`DELETE FROM sqlite_sequence WHERE name = 'faults'`).run();
    this.sites.forget();
    this.payments.forget();
    this.methods.forget();
  }

  /**
   * Subscribes to "the data was replaced" (a reset, or a snapshot restored): whatever is held in
   * memory about the data (caches, indexes, timers, the clock) must be read from the store again.
   * Listeners run in the order they subscribed, after the store's own caches were dropped. Returns
   * the way to unsubscribe.
   */
  onDataReplaced(listener: (why: DataReplaced) => void): () => void {
    this.replacedListeners.add(listener);
    return () => this.replacedListeners.delete(listener);
  }

  /**
   * Deletes one marketplace's data (owned.ts lists it), `alsoItself` its clock and sites too. IDs go
   * on from where they stood. Run it inside tx(), then tell siteReplaced().
   */
  clearSite(siteId: number, alsoItself = false): void {
    this.writePending();
    deleteOwned(this.db, siteId, alsoItself);
    this.sites.forget();
    this.payments.forget();
  }

  /** Subscribes to "one marketplace's data was replaced"; returns the way to unsubscribe. */
  onSiteReplaced(listener: (siteId: number, why: SiteReplaced) => void): () => void {
    this.siteListeners.add(listener);
    return () => this.siteListeners.delete(listener);
  }

  /** Tells the holders of data in memory that marketplace `siteId`'s data was replaced; run right after the change. */
  siteReplaced(siteId: number, why: SiteReplaced): void {
    this.sites.forget();
    this.payments.forget();
    for (const listener of this.siteListeners) listener(siteId, why);
  }

  /** The next SiteID: past every one handed out before, removed ones too (a removed SiteID never comes back). */
  nextSiteId(): number {
    return this.db
      .prepare(`UPDATE counters SET value = max(value, (SELECT coalesce(max(site_id), 0) FROM sites)) + 1 WHERE name = 'site' RETURNING value`)
      .pluck()
      .get() as number;
  }

  /** Tells every holder of data in memory that the data was replaced; run right after the change. */
  dataReplaced(why: DataReplaced): void {
    this.sites.forget();
    this.payments.forget();
    this.methods.forget();
    for (const listener of this.replacedListeners) listener(why);
  }

  /** A new, unseeded database: its IDs start `offset` past the fixed starts (sequences.ts says why). */
  startIds(offset: number): void {
    this.tx(() => startSequencesAt(this.db, offset));
  }

  /** Before closing a sandbox's database: the next new one of this process starts past its IDs. */
  rememberIds(): void {
    if (this.db.open) rememberSequences(this.db);
  }

  /**
   * Subscribes a keeper of writes not yet made (the request journal's entries of the last few
   * milliseconds), which writePending() makes: before a copy is taken, so that it has all that was
   * answered, and before data is deleted (a reset, retention), so that they go with it.
   */
  addPendingWriter(write: (closing: boolean) => void): void {
    this.pendingWriters.add(write);
  }

  /** @param closing the database is being closed: what it would only tidy may be left (an in-memory one goes with it) */
  writePending(closing = false): void {
    for (const write of this.pendingWriters) write(closing);
  }

  private readonly pendingWriters = new Set<(closing: boolean) => void>();

  close(): void {
    if (this.db.open) this.writePending(true);
    this.flush();
    if (this.db.open) this.db.close();
    this.mark?.release();
    this.mark = undefined;
  }

  private mark: { release(): void } | undefined;

  /** A server's store says, while it is open, that a sandbox runs on its file (see running-mark.ts). */
  markRunning(file: string): void {
    if (file !== ':memory:' && this.mark === undefined) this.mark = holdRunningMark(file);
  }
}
