// One Config type with its documented defaults.
import { DEFAULT_FIXTURES_DIR } from './fixtures';
import type { LogFormat, LogLevel } from './log';
import { DEFAULT_RETRY, type RetryPolicy } from './notifications/backoff';
import { DEFAULT_JOURNAL_QUOTAS, DEFAULT_REQUEST_JOURNAL, type JournalQuotas } from './requests/journal';
import { DEFAULT_FAULT_RULES_PER_MARKETPLACE } from './faults/faults';
import { DEFAULT_SITE_SNAPSHOT_QUOTA } from './marketplaces/site-snapshot-quota';

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
  /** Refuse request members the API does not read (400, Reason 2) instead of ignoring them (`--strict-fields`). */
  strictFields: boolean;
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
  /** The most entries the request journal keeps of each marketplace, its oldest dropped first; 0 turns it off (`--request-journal`). */
  requestJournal: number;
  /** The most bytes (StoredBytes) it keeps of each marketplace (`--request-journal-bytes`). */
  requestJournalBytes: number;
  /** The most entries it keeps that failed authentication, which belong to no marketplace (`--request-journal-unauthenticated`). */
  requestJournalUnauthenticated: number;
  /** The most bytes it keeps of those (`--request-journal-unauthenticated-bytes`). */
  requestJournalUnauthenticatedBytes: number;
  /** The most bytes of entries in all, its file's bound (`--request-journal-file-bytes`). */
  requestJournalFileBytes: number;
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
  strictFields: false,
  clock: 'real',
  speed: 1,
  scenarioDirs: [],
  notifyTimeoutMs: 30_000,
  retry: DEFAULT_RETRY,
  requestJournal: DEFAULT_REQUEST_JOURNAL,
  requestJournalBytes: DEFAULT_JOURNAL_QUOTAS.marketplace.bytes,
  requestJournalUnauthenticated: DEFAULT_JOURNAL_QUOTAS.unauthenticated.entries,
  requestJournalUnauthenticatedBytes: DEFAULT_JOURNAL_QUOTAS.unauthenticated.bytes,
  requestJournalFileBytes: DEFAULT_JOURNAL_QUOTAS.fileBytes,
  merchantSnapshots: DEFAULT_SITE_SNAPSHOT_QUOTA.count,
  merchantSnapshotBytes: DEFAULT_SITE_SNAPSHOT_QUOTA.bytes,
  merchantFaultRules: DEFAULT_FAULT_RULES_PER_MARKETPLACE,
  quiet: false,
  logLevel: 'info',
  logFormat: 'pretty',
};

/** The request journal's quotas a config names; a value that is not a whole number in range is an error naming its option. */
export function journalQuotas(c: Config): JournalQuotas {
  const whole = (name: string, v: number, min: number) => {
    if (!Number.isSafeInteger(v) || v < min) throw new Error(`${name} must be a whole number of at least ${min}`);
    return v;
  };
  return {
    marketplace: { entries: whole('requestJournal', c.requestJournal, 0), bytes: whole('requestJournalBytes', c.requestJournalBytes, 1) },
    unauthenticated: {
      entries: whole('requestJournalUnauthenticated', c.requestJournalUnauthenticated, 0),
      bytes: whole('requestJournalUnauthenticatedBytes', c.requestJournalUnauthenticatedBytes, 0),
    },
    fileBytes: whole('requestJournalFileBytes', c.requestJournalFileBytes, 1),
  };
}
