// The embedded handle of one marketplace: `await sandbox.merchants.create({ clock: 'manual' })` gives a
// test its own marketplace, with its credentials, its own clock, reset, snapshots, journal and fault
// rules, so that tests running in parallel in one process never see each other's payments.
import type { FaultView } from '../faults/faults';
import type { FaultInput } from '../faults/rules';
import { waitForNotification, whatWasFound } from '../notifications/wait';
import type { Scheduler } from '../scheduler/scheduler';
import type { ServiceContext } from '../services/context';
import { type JournalPaging, notificationPage, notificationView } from '../services/journal.service';
import { createMerchant, getMerchant } from '../services/merchants.service';
import type { NotificationFilter, NotificationState } from '../store/notifications.repo';
import { removeMarketplace, resetMarketplace } from './marketplace.service';
import type { SiteSnapshotInfo, SiteSnapshots } from './site-snapshots';

export interface MarketplaceOptions {
  /** `manual`: a clock of its own, starting at the sandbox's time, moved by `clock.advance` alone. */
  clock?: 'manual' | 'sandbox';
  name?: string;
  /** How many split sites to link to it (3). */
  linkedSites?: number;
  notificationUrl?: string | null;
  defaultScenario?: string | null;
}

export interface MarketplaceQuery {
  PaymentID?: number;
  RefundID?: number;
  StatusID?: number;
}

export interface Marketplace {
  SiteID: number;
  APIKey: string;
  LinkedSiteIDs: number[];
  /** `Basic base64(SiteID:APIKey)`, for the Authorization header. */
  authorization: string;
  clock: {
    /** The marketplace's time (its own clock's, or the sandbox's), epoch ms. */
    now(): number;
    /** Its own clock only: moves it, running its steps due on the way and delivering their notifications. */
    advance(seconds: number): Promise<void>;
  };
  notifications: {
    /** As `sandbox.notifications.waitFor`, among this marketplace's notifications only. */
    waitFor(filter: MarketplaceQuery, options?: number | { timeoutMs?: number; delivered?: boolean }): Promise<ReturnType<typeof notificationView>>;
    /** Its journal, a page at a time, newest first. */
    list(filter?: MarketplaceQuery & { State?: NotificationState } & JournalPaging): ReturnType<typeof notificationPage>;
  };
  /** Fault rules that act on this marketplace's requests and notifications only. */
  faults: {
    add(rule: FaultInput): FaultView;
    list(): FaultView[];
    remove(id: number): boolean;
    clear(): void;
  };
  /** Deletes its payments with everything of them, and its fault rules; its credentials and clock stay. */
  reset(): Promise<void>;
  /** Removes it whole; its SiteIDs are never given again. */
  remove(): Promise<void>;
  snapshots: {
    save(name: string): Promise<SiteSnapshotInfo>;
    restore(name: string): Promise<SiteSnapshotInfo>;
    list(): SiteSnapshotInfo[];
    remove(name: string): void;
  };
}

function filterOf(siteId: number, q: MarketplaceQuery & { State?: NotificationState } = {}): NotificationFilter {
  const f: NotificationFilter = { siteId };
  if (q.PaymentID !== undefined) f.paymentId = q.PaymentID;
  if (q.RefundID !== undefined) f.refundId = q.RefundID;
  if (q.StatusID !== undefined) f.statusId = q.StatusID;
  if (q.State !== undefined) f.state = q.State;
  return f;
}

/** `sandbox.merchants`: makes marketplaces with handles of their own. */
export function marketplaces(services: ServiceContext, scheduler: Scheduler, snapshots: SiteSnapshots) {
  const handle = (siteId: number): Marketplace => {
    const m = getMerchant(services, siteId);
    return {
      SiteID: m.SiteID,
      APIKey: m.APIKey,
      LinkedSiteIDs: m.LinkedSiteIDs,
      authorization: 'Basic ' + Buffer.from(`${m.SiteID}:${m.APIKey}`, 'utf8').toString('base64'),
      clock: {
        now: () => (services.siteClocks?.get(siteId) ?? services.clock).now(),
        advance: (seconds) => scheduler.advanceSite(siteId, Math.round(seconds * 1000)),
      },
      notifications: {
        async waitFor(filter, options = {}) {
          const { timeoutMs = 10_000, delivered = false } = typeof options === 'number' ? { timeoutMs: options } : options;
          const f = filterOf(siteId, filter);
          const n = await waitForNotification(services.store, scheduler.worker, f, timeoutMs, { delivered });
          if (!n) {
            const what = delivered ? 'was delivered' : 'reached a final state';
            throw new Error(`no notification of SiteID ${siteId} matching ${JSON.stringify(filter)} ${what} within ${timeoutMs} ms: ${whatWasFound(services.store, f)}`);
          }
          return notificationView(services, n);
        },
        list: (query = {}) => {
          const { PageSize, PageIndex, SortDirection, ...filter } = query;
          return notificationPage(services, filterOf(siteId, filter), { PageSize, PageIndex, SortDirection });
        },
      },
      faults: {
        add: (rule) => services.faults!.add(rule, siteId),
        list: () => services.faults!.list(siteId),
        remove: (id) => services.faults!.remove(id, siteId),
        clear: () => services.faults!.clear(siteId),
      },
      reset: async () => resetMarketplace(services, siteId),
      remove: async () => removeMarketplace(services, siteId),
      snapshots: {
        save: (name) => snapshots.save(siteId, name),
        restore: (name) => snapshots.restore(siteId, name),
        list: () => snapshots.list(siteId),
        remove: (name) => snapshots.remove(siteId, name),
      },
    };
  };
  return {
    /** A new marketplace (with `linkedSites` split sites) and its handle. */
    async create(options: MarketplaceOptions = {}): Promise<Marketplace> {
      const m = createMerchant(services, {
        ...(options.name !== undefined && { Name: options.name }),
        ...(options.linkedSites !== undefined && { LinkedSites: options.linkedSites }),
        ...(options.notificationUrl !== undefined && { NotificationURL: options.notificationUrl }),
        ...(options.defaultScenario !== undefined && { DefaultScenario: options.defaultScenario }),
        ...(options.clock !== undefined && { Clock: options.clock }),
      });
      // Written once committed, as an answer of the API would be.
      await new Promise<void>((resolve, reject) => services.store.afterCommit((err) => (err ? reject(err) : resolve())));
      return handle(m.SiteID);
    },
    /** The handle of an existing marketplace. */
    get: (siteId: number): Marketplace => handle(siteId),
  };
}
