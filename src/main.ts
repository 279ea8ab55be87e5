// The composition root: config → store → services → lifecycle → the two apps → listeners.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Config, DEFAULT_CONFIG } from './config';
import { createApp } from './http/app';
import { serverFor, serverOfAppMadeLater } from './http/server';
import { AnswerUrls } from './http/answer-urls';
import type { HttpContext } from './http/pipeline';
import { createOutbox } from './notifications/outbox';
import { NotificationWorker } from './notifications/worker';
import { OwnListeners } from './notifications/own-listeners';
import { SiteSnapshots } from './marketplaces/site-snapshots';
import { marketplaces } from './marketplaces/handle';
import { Scheduler } from './scheduler/scheduler';
import type { ServiceContext } from './services/context';
import { Store } from './store/store';
import { Checkpointer } from './store/checkpointer';
import { type Logger, createLogger, silentLogger } from './log';
import type { NotificationFilter, NotificationState } from './store/notifications.repo';
import { waitForNotification, whatWasFound } from './notifications/wait';
import { type JournalPaging, notificationPage, notificationView } from './services/journal.service';
import { listMerchants } from './services/merchants.service';
import { resetSandbox } from './services/reset.service';
import type { FaultHit, FaultView } from './faults/faults';
import type { FaultInput } from './faults/rules';
import { type SnapshotInfo, Snapshots } from './snapshots/snapshots';
import type { StoryFile } from './stories/story';
import { replayStory, storyOf } from './stories/story.service';
import { retentionJob } from './retention/retention';
import { type RequestEntry, type RequestQuery, filterOf as requestFilter, requestView } from './requests/journal';
import { createServices } from './main/services';

/** Builds the services over a store (loading fixtures into an empty one): main/services.ts. */
export { createServices };

export interface SandboxMerchant {
  SiteID: number;
  APIKey: string;
  LinkedSiteIDs: number[];
}

/** A running sandbox, as `startSandbox` hands it to a test file. */
export interface Sandbox {
  /** The split-payments API address, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** The card API address. */
  cardBaseUrl: string;
  /** Where the listeners are bound: baseUrl and cardBaseUrl, unless publicUrl or publicCardUrl name others. */
  listening: { baseUrl: string; cardBaseUrl: string };
  /** The first marketplace of the fixtures, with its credentials and linked split sites. */
  merchant: SandboxMerchant;
  clock: {
    /** Sandbox time, epoch ms. */
    now(): number;
    /** Manual clock only: moves time, running every step due on the way and delivering its notifications. */
    advance(seconds: number): Promise<void>;
  };
  notifications: {
    /**
     * Resolves with the first notification matching `filter` that reached its final state: delivered,
     * or journaled without being sent (its merchant has no notification URL, its retries ran out).
     * `{ delivered: true }` insists on a delivery. Rejects after `timeoutMs` (10 s; a number as the
     * second argument is the timeout) with what it found instead.
     */
    waitFor(filter: NotificationQuery, options?: number | WaitForOptions): Promise<NotificationView>;
    /**
     * The journal, a page at a time as `GET /_sandbox/notifications` answers it: the notifications
     * matching `filter` with their bodies and attempts, newest first (`SortDirection: 'asc'` for
     * oldest first), `PageSize` (100) at a time from `PageIndex` (1), and `TotalCount`.
     */
    list(filter?: NotificationQuery & { State?: NotificationState } & JournalPaging): NotificationPage;
  };
  /** Fault rules on the API and the notifications (`POST /_sandbox/faults`), for this sandbox. */
  faults: {
    /** Adds a rule; throws (with the field named) when it is wrong. */
    add(rule: FaultInput): FaultView;
    /** Every rule, with its Hits. */
    list(): FaultView[];
    /** Deletes one rule; false when there was none with that ID. */
    remove(id: number): boolean;
    /** Deletes every rule. */
    clear(): void;
    /** Resolves at the next time a fault acts (a rule, or a request's X-Sandbox-Fault header). */
    nextHit(): Promise<FaultHit>;
  };
  /**
   * Marketplaces of their own: `await sandbox.merchants.create({ clock: 'manual' })` gives one with
   * fresh credentials, its own clock, reset, snapshots, journal and fault rules, for tests running in
   * parallel in one sandbox.
   */
  merchants: ReturnType<typeof marketplaces>;
  /** Empties all data (fault rules too) and loads the fixtures again; the configuration stays. */
  reset(): Promise<void>;
  /**
   * Named copies of the whole sandbox (kept beside a file database, or in a temporary folder for
   * `:memory:`): `save` copies it, `restore` brings every payment, step, notification, setting and
   * the clock back as they were, and pending work resumes from there.
   */
  snapshots: {
    save(name: string): Promise<SnapshotInfo>;
    restore(name: string): Promise<SnapshotInfo>;
    list(): SnapshotInfo[];
    remove(name: string): void;
  };
  /**
   * The request journal (`GET /_sandbox/requests`): what the integration sent and how it was answered.
   * Throws when it is off (`requestJournal: 0`).
   */
  requests: {
    /** The entries matching `filter`, oldest first (`Limit`: at most that many, the newest of them when `Newest` is true). */
    find(filter?: RequestQuery & { Limit?: number; Newest?: boolean }): RequestEntry[];
    /** How many entries match `filter`: `expect(sandbox.requests.count({ Route: '/v1/payments/{id}/capture', PaymentID: id })).toBe(1)`. */
    count(filter?: RequestQuery): number;
    /** One entry by its ID, or undefined. */
    get(id: number): RequestEntry | undefined;
    /** Empties the journal. */
    clear(): void;
    /**
     * Resolves with the first entry matching `filter`, already kept or the next one to be; rejects
     * after `timeoutMs` (10 s) saying how many entries the journal holds.
     */
    waitFor(filter: RequestQuery, timeoutMs?: number): Promise<RequestEntry>;
  };
  stories: {
    /** What happened to a payment, as a scenario file with its create request (`GET /_sandbox/payments/{id}/story`). */
    of(paymentId: number): StoryFile;
    /** Creates a new payment that goes through the story again (`POST /_sandbox/replay`); its ID. */
    replay(story: unknown): number;
  };
  stop(): Promise<void>;
  /** The internals, for advanced use. */
  services: ServiceContext;
  scheduler: Scheduler;
}

export interface NotificationQuery {
  PaymentID?: number;
  RefundID?: number;
  PreapprovalID?: number;
  StatusID?: number;
}

export interface WaitForOptions {
  /** How long to wait, ms (10 s). */
  timeoutMs?: number;
  /** Resolve only on a delivery (the merchant answered 204), not on any final state. */
  delivered?: boolean;
}

export type NotificationView = ReturnType<typeof notificationView>;
export type NotificationPage = ReturnType<typeof notificationPage>;

function filterOf(q: NotificationQuery & { State?: NotificationState } = {}): NotificationFilter {
  const f: NotificationFilter = {};
  if (q.PaymentID !== undefined) f.paymentId = q.PaymentID;
  if (q.RefundID !== undefined) f.refundId = q.RefundID;
  if (q.PreapprovalID !== undefined) f.preapprovalId = q.PreapprovalID;
  if (q.StatusID !== undefined) f.statusId = q.StatusID;
  if (q.State !== undefined) f.state = q.State;
  return f;
}

/** Adds the notification outbox, the delivery worker and the scheduler to the services. */
export function createLifecycle(
  config: Config,
  services: ServiceContext,
  baseUrl: () => string,
  log: Logger,
  cardBaseUrl: () => string = baseUrl,
): Scheduler {
  const worker = new NotificationWorker(services, services.clock, {
    timeoutMs: config.notifyTimeoutMs,
    retry: config.retry,
    defaultUrl: config.notifyUrl,
    log,
  });
  services.changes = createOutbox({ baseUrl, cardBaseUrl, defaultUrl: config.notifyUrl, journaled: () => worker.events.emit('journaled') });
  const scheduler = new Scheduler(services, worker, log);
  services.wake = () => scheduler.wake();
  services.wakeSite = (site) => scheduler.wakeSite(site);
  return scheduler;
}

/** How often the WAL is checkpointed (in a worker thread): a few hundred kB of pages each time under load. */
const CHECKPOINT_EVERY_MS = 100;
/**
 * The checkpointer thread starts this long after the server, off the start-up path: a thread's start
 * and SQLite loaded into it delayed a cold start's first answer by 10-25 ms on a one-core machine.
 * Meanwhile SQLite's own checkpoint bounds the WAL, as it does should the thread fail.
 */
const CHECKPOINTER_AFTER_MS = 1000;

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

function urlOf(server: Server, host: string): string {
  const port = portOf(server);
  const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${h}:${port}`;
}

/**
 * The served OpenAPI document, its module loaded when first asked for: it describes every route and
 * schema, and no start needs it before its first answer.
 */
function servedDocument(surface: 'api' | 'card', serverUrl: string): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./openapi/document') as typeof import('./openapi/document')).openApiDocument(surface, serverUrl);
}

export async function startSandbox(options: Partial<Config> = {}): Promise<Sandbox> {
  const config: Config = { ...DEFAULT_CONFIG, ...options };
  const log = config.quiet ? silentLogger : createLogger(config.logLevel, config.logFormat);
  // With the journal off, no `<db>-requests` file is made for it.
  const store = Store.open(config.db, { journalInMemory: config.requestJournal === 0 });
  store.markRunning(config.db);
  let services: ServiceContext;
  try {
    services = createServices(config, store, log);
  } catch (e) {
    store.close();
    throw e;
  }
  // A server commits each turn's writes together (fixtures above were committed on their own).
  store.groupCommits();
  const ctx: HttpContext = { services, urls: { baseUrl: '', cardBaseUrl: '' }, log, controlToken: config.controlToken, controlFrom: config.controlFrom, openApi: servedDocument };
  const scheduler = createLifecycle(config, services, () => ctx.urls.baseUrl, log, () => ctx.urls.cardBaseUrl);
  ctx.scheduler = scheduler;
  const snapshots = new Snapshots(store, config.db, services.clock);
  ctx.snapshots = snapshots;
  const siteSnapshots = new SiteSnapshots(services, config.db, { count: config.merchantSnapshots, bytes: config.merchantSnapshotBytes });
  ctx.siteSnapshots = siteSnapshots;
  if (config.retainMs !== undefined) scheduler.addJob(retentionJob(services, { retainMs: config.retainMs, log }));
  const servers: Server[] = [];
  try {
    servers.push(await listen(serverFor(createApp(ctx, 'api')), config.port, config.host));
    // The card API's app is made when its first connection comes: the API's first answer does not wait for it.
    servers.push(await listen(serverOfAppMadeLater(() => createApp(ctx, 'card')), config.cardPort, config.host));
  } catch (e) {
    for (const s of servers) s.close();
    store.close();
    throw e;
  }
  const listening = { baseUrl: urlOf(servers[0]!, config.host), cardBaseUrl: urlOf(servers[1]!, config.host) };
  const own = new OwnListeners();
  own.addBound('API address', config.host, (servers[0]!.address() as AddressInfo).port);
  own.addBound('card API address', config.host, (servers[1]!.address() as AddressInfo).port);
  if (config.publicUrl !== undefined) own.addPublic('API address', config.publicUrl);
  if (config.publicCardUrl !== undefined) own.addPublic('card API address', config.publicCardUrl);
  const refused = config.notifyUrl === undefined ? null : own.reasonFor(config.notifyUrl);
  if (refused !== null) {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    store.close();
    throw new Error(`--notify-url refused: ${refused}`);
  }
  services.ownListener = (url) => own.reasonFor(url);
  services.ownAddress = (url, address, port) => own.reasonForAddress(url, address, port);
  ctx.urls.baseUrl = config.publicUrl ?? listening.baseUrl;
  ctx.urls.cardBaseUrl = config.publicCardUrl ?? listening.cardBaseUrl;
  ctx.answerUrls = new AnswerUrls(
    { port: portOf(servers[0]!), publicUrl: config.publicUrl, ownUrl: ctx.urls.baseUrl },
    { port: portOf(servers[1]!), publicUrl: config.publicCardUrl, ownUrl: ctx.urls.cardBaseUrl },
  );
  scheduler.start();
  // The WAL is copied into the database file off the main thread (the main connection's own
  // checkpoints, at SQLite's limit, are the fallback should the thread fail).
  let checkpointer: Checkpointer | null = null;
  const checkpointerLater =
    config.db === ':memory:' ? null : setTimeout(() => (checkpointer = Checkpointer.start(config.db, CHECKPOINT_EVERY_MS, log)), CHECKPOINTER_AFTER_MS).unref();

  const journal = () => {
    if (!services.requests) throw new Error('the request journal is off (requestJournal: 0)');
    return services.requests;
  };
  const first = listMerchants(services).find((m) => m.LinkedSiteIDs.length > 0) ?? listMerchants(services)[0];
  let stopped: Promise<void> | null = null;
  return {
    baseUrl: ctx.urls.baseUrl,
    cardBaseUrl: ctx.urls.cardBaseUrl,
    listening,
    merchant: first ? { SiteID: first.SiteID, APIKey: first.APIKey, LinkedSiteIDs: first.LinkedSiteIDs } : { SiteID: 0, APIKey: '', LinkedSiteIDs: [] },
    clock: {
      now: () => services.clock.now(),
      advance: (seconds) => scheduler.advance(Math.round(seconds * 1000)),
    },
    notifications: {
      async waitFor(filter, options = {}) {
        const { timeoutMs = 10_000, delivered = false } = typeof options === 'number' ? { timeoutMs: options } : options;
        const f = filterOf(filter);
        const n = await waitForNotification(store, scheduler.worker, f, timeoutMs, { delivered });
        if (!n) {
          const what = delivered ? 'was delivered' : 'reached a final state';
          throw new Error(`no notification matching ${JSON.stringify(filter)} ${what} within ${timeoutMs} ms: ${whatWasFound(store, f)}`);
        }
        return notificationView(services, n);
      },
      list: (query = {}) => {
        const { PageSize, PageIndex, SortDirection, ...filter } = query;
        return notificationPage(services, filterOf(filter), { PageSize, PageIndex, SortDirection });
      },
    },
    faults: {
      add: (rule) => services.faults!.add(rule),
      list: () => services.faults!.list(),
      remove: (id) => services.faults!.remove(id),
      clear: () => services.faults!.clear(),
      nextHit: () => new Promise((resolve) => services.faults!.events.once('hit', resolve)),
    },
    merchants: marketplaces(services, scheduler, siteSnapshots),
    async reset() {
      resetSandbox(services, services.fixtures!);
    },
    snapshots: {
      save: (name) => snapshots.save(name),
      restore: async (name) => snapshots.restore(name),
      list: () => snapshots.list(),
      remove: (name) => snapshots.remove(name),
    },
    requests: {
      find: ({ Limit, Newest, ...filter } = {}) => {
        const entries = journal().find(requestFilter(filter), { limit: Limit ?? -1, offset: 0, descending: Newest === true }).map(requestView);
        return Newest === true ? entries.reverse() : entries;
      },
      count: (filter = {}) => journal().count(requestFilter(filter)),
      get: (id) => {
        journal().flush();
        const r = store.requests.get(id);
        return r && requestView(r);
      },
      clear: () => void journal().clear(),
      waitFor: async (filter, timeoutMs = 10_000) => requestView((await journal().waitFor(filter, timeoutMs))!),
    },
    stories: {
      of: (paymentId) => storyOf(services, paymentId),
      replay: (story) => replayStory(services, story).paymentId,
    },
    services,
    scheduler,
    stop() {
      if (checkpointerLater) clearTimeout(checkpointerLater);
      stopped ??= scheduler
        .stop()
        .then(() =>
          Promise.all(
            servers.map(
              (s) =>
                new Promise<void>((resolve) => {
                  s.close(() => resolve());
                  s.closeAllConnections();
                }),
            ),
          ),
        )
        .then(() => (checkpointer as Checkpointer | null)?.stop())
        // A restore under way writes through a connection of its own: it ends before the store closes.
        .then(() => snapshots.restoring)
        .then(() => siteSnapshots.idle())
        .then(() => {
          // The last turn's entries of reads, before the file closes.
          services.requests?.flush();
          store.rememberIds();
          store.close();
        })
        .then(() => {
          snapshots.close();
          siteSnapshots.close();
        });
      return stopped;
    },
  };
}
