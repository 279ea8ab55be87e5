// One Config type with its documented defaults.
import { DEFAULT_FIXTURES_DIR } from './fixtures';
import type { LogFormat, LogLevel } from './log';
import { DEFAULT_RETRY, type RetryPolicy } from './notifications/backoff';
import { DEFAULT_REQUEST_JOURNAL } from './requests/journal';
import { DEFAULT_FAULT_RULES_PER_MARKETPLACE } from './faults/faults';
import { DEFAULT_SITE_SNAPSHOT_QUOTA } from './marketplaces/site-snapshots';

export interface Config {
  /** API listener port (0 picks a free one). */
  port: number;
  /** Card API listener port (0 picks a free one). */
  cardPort: number;
  host: string;
  /** SQLite file, or ':memory:'. */
  db: string;
  fixtures: string;
  pageSize: number;
  /** Whether merchants may cancel Open payments (true) or only Authorized ones (false). */
  cancelOpen: boolean;
  /** Public base URLs, when the sandbox is reached through another address than it listens on. */
  publicUrl?: string;
  publicCardUrl?: string;
  /** 'real': steps fire at their real time; 'manual': time moves only by clock advance. */
  clock: 'real' | 'manual';
  /** Epoch ms the manual clock starts at (default: the real time at start), when the database kept no sandbox time. */
  startTime?: number;
  /** Real clock: sandbox time runs this many times as fast as real time (1 or more). */
  speed: number;
  seed?: number;
  /** Scenario of payments that nothing else chooses one for (`start --scenario`). */
  scenario?: string;
  /** Folders of the user's own scenarios, loaded after the shipped ones. */
  scenarioDirs: string[];
  /** Notification URL of merchants without one of their own. */
  notifyUrl?: string;
  notifyTimeoutMs: number;
  retry: RetryPolicy;
  /** Bearer token of the control API; without one it answers only on loopback. */
  controlToken?: string;
  /**
   * Clients the control API answers without a token (`--control-from`): `loopback`, `private`, `any`,
   * `none`, addresses and CIDR ranges. Default: loopback without a token, nobody with one.
   */
  controlFrom?: string[];
  /** Payments unchanged for this long (sandbox ms) are deleted with all that hangs off them (`--retain`). */
  retainMs?: number;
  /** The most entries the request journal keeps, oldest dropped first; 0 turns it off (`--request-journal`). */
  requestJournal: number;
  /** Each marketplace's snapshots: how many it may keep (`--merchant-snapshots`). */
  merchantSnapshots: number;
  /** And how many bytes its snapshot files may hold together (`--merchant-snapshot-bytes`). */
  merchantSnapshotBytes: number;
  /** Each marketplace's fault rules: how many it may have at once (`--merchant-fault-rules`). */
  merchantFaultRules: number;
  /** No log lines at all (tests). */
  quiet: boolean;
  logLevel: LogLevel;
  logFormat: LogFormat;
}

export const DEFAULT_CONFIG: Config = {
  port: 8080,
  cardPort: 8081,
  host: '127.0.0.1',
  db: './split-sandbox.db',
  fixtures: DEFAULT_FIXTURES_DIR,
  pageSize: 10,
  cancelOpen: true,
  clock: 'real',
  speed: 1,
  scenarioDirs: [],
  notifyTimeoutMs: 30_000,
  retry: DEFAULT_RETRY,
  requestJournal: DEFAULT_REQUEST_JOURNAL,
  merchantSnapshots: DEFAULT_SITE_SNAPSHOT_QUOTA.count,
  merchantSnapshotBytes: DEFAULT_SITE_SNAPSHOT_QUOTA.bytes,
  merchantFaultRules: DEFAULT_FAULT_RULES_PER_MARKETPLACE,
  quiet: false,
  logLevel: 'info',
  logFormat: 'pretty',
};
