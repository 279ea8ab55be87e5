// The store: the repositories over one database, and the one way to run a transaction.
import { type Db, openDatabase } from './db';
import { CountersRepo } from './counters.repo';
import { HistoryRepo } from './history.repo';
import { JobsRepo } from './jobs.repo';
import { NotificationsRepo } from './notifications.repo';
import { MethodsRepo } from './methods.repo';
import { PaymentsRepo } from './payments.repo';
import { RefundsRepo } from './refunds.repo';
import { SitesRepo } from './sites.repo';
import { SEQUENCE_STARTS } from './sequences';
import { SplitsRepo } from './splits.repo';

export class Store {
  readonly sites: SitesRepo;
  readonly methods: MethodsRepo;
  readonly payments: PaymentsRepo;
  readonly splits: SplitsRepo;
  readonly refunds: RefundsRepo;
  readonly history: HistoryRepo;
  readonly counters: CountersRepo;
  readonly jobs: JobsRepo;
  readonly notifications: NotificationsRepo;

  constructor(readonly db: Db) {
    this.sites = new SitesRepo(db);
    this.methods = new MethodsRepo(db);
    this.payments = new PaymentsRepo(db);
    this.splits = new SplitsRepo(db);
    this.refunds = new RefundsRepo(db);
    this.history = new HistoryRepo(db);
    this.counters = new CountersRepo(db);
    this.jobs = new JobsRepo(db);
    this.notifications = new NotificationsRepo(db);
  }

  static open(file: string): Store {
    return new Store(openDatabase(file));
  }

  /**
   * Runs `fn` as one IMMEDIATE transaction: it all happens or, if `fn` throws, none of it.
   * Immediate, so that two processes on one file serialise their writes instead of failing late.
   */
  tx<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (e) {
      // Rolled back: counts kept in memory may have counted what was undone.
      this.payments.forget();
      throw e;
    }
  }

  isEmpty(): boolean {
    return (this.db.prepare('SELECT count(*) AS n FROM sites').get() as { n: number }).n === 0;
  }

  /** Empties every table and restarts the IDs, as in a new database. Run it inside tx(). */
  clear(): void {
    const tables = [
      'notification_attempts',
      'notifications',
      'scenario_jobs',
      'status_history',
      'refunds',
      'splits',
      'payments',
      'sites',
      'methods',
      'counters',
      'sqlite_sequence',
    ];
    for (const t of tables) this.db.prepare(`DELETE FROM ${t}`).run();
    this.db.exec(SEQUENCE_STARTS);
    this.sites.forget();
    this.payments.forget();
    this.methods.forget();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
