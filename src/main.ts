// The composition root: config → store → services → lifecycle → the two apps → listeners.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Config, DEFAULT_CONFIG } from './config';
import { loadFixtures, readFixtures } from './fixtures';
import { createApp } from './http/app';
import type { HttpContext } from './http/pipeline';
import { createIds } from './ids';
import { createOutbox } from './notifications/outbox';
import { NotificationWorker } from './notifications/worker';
import { SHIPPED_SCENARIOS_DIR, ScenarioCatalogue } from './scenarios/loader';
import { ManualClock, RealClock } from './scheduler/clock';
import { Scheduler } from './scheduler/scheduler';
import type { ServiceContext } from './services/context';
import { Store } from './store/store';
import { type Logger, createLogger, silentLogger } from './log';
import type { NotificationFilter, NotificationState } from './store/notifications.repo';
import { waitForDelivered } from './notifications/wait';
import { listNotifications, notificationView } from './services/journal.service';
import { listMerchants } from './services/merchants.service';
import { resetSandbox } from './services/reset.service';
import { retentionJob } from './retention/retention';

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
  /** The first marketplace of the fixtures, with its credentials and linked split sites. */
  merchant: SandboxMerchant;
  clock: {
    /** Sandbox time, epoch ms. */
    now(): number;
    /** Manual clock only: moves time, running every step due on the way and delivering its notifications. */
    advance(seconds: number): Promise<void>;
  };
  notifications: {
    /** Resolves with the first delivered notification matching `filter`; rejects after `timeoutMs` (10 s). */
    waitFor(filter: NotificationQuery, timeoutMs?: number): Promise<NotificationView>;
    /** The journal: every notification matching `filter`, with its body and attempts. */
    list(filter?: NotificationQuery & { State?: NotificationState }): NotificationView[];
  };
  /** Empties all data and loads the fixtures again; the configuration stays. */
  reset(): Promise<void>;
  stop(): Promise<void>;
  /** The internals, for advanced use. */
  services: ServiceContext;
  scheduler: Scheduler;
}

export interface NotificationQuery {
  PaymentID?: number;
  RefundID?: number;
  StatusID?: number;
}

export type NotificationView = ReturnType<typeof notificationView>;

function filterOf(q: NotificationQuery & { State?: NotificationState } = {}): NotificationFilter {
  const f: NotificationFilter = {};
  if (q.PaymentID !== undefined) f.paymentId = q.PaymentID;
  if (q.RefundID !== undefined) f.refundId = q.RefundID;
  if (q.StatusID !== undefined) f.statusId = q.StatusID;
  if (q.State !== undefined) f.state = q.State;
  return f;
}

/** Builds the services over a store (loading fixtures into an empty one). Used by main and tests. */
export function createServices(config: Config, store: Store): ServiceContext {
  const scenarios = ScenarioCatalogue.load([SHIPPED_SCENARIOS_DIR, ...config.scenarioDirs]);
  if (config.scenario !== undefined && !scenarios.has(config.scenario)) {
    throw new Error(`unknown scenario "${config.scenario}"; known: ${scenarios.list().map((s) => s.name).join(', ')}`);
  }
  const fixtures = readFixtures(config.fixtures);
  if (store.isEmpty()) loadFixtures(store, fixtures);
  const clock = config.clock === 'manual' ? new ManualClock(config.startTime ?? Date.now()) : new RealClock();
  return {
    store,
    clock,
    ids: createIds(config.seed),
    settings: { cancelOpen: config.cancelOpen, pageSize: config.pageSize, defaultScenario: config.scenario },
    scenarios,
    fixtures,
  };
}

/** Adds the notification outbox, the delivery worker and the scheduler to the services. */
export function createLifecycle(config: Config, services: ServiceContext, baseUrl: () => string, log: Logger): Scheduler {
  services.changes = createOutbox({ baseUrl, defaultUrl: config.notifyUrl });
  const worker = new NotificationWorker(services, services.clock, {
    timeoutMs: config.notifyTimeoutMs,
    retry: config.retry,
    defaultUrl: config.notifyUrl,
    log,
  });
  const scheduler = new Scheduler(services, worker, log);
  services.wake = () => scheduler.wake();
  return scheduler;
}

function listen(app: ReturnType<typeof createApp>, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${h}:${port}`;
}

export async function startSandbox(options: Partial<Config> = {}): Promise<Sandbox> {
  const config: Config = { ...DEFAULT_CONFIG, ...options };
  const log = config.quiet ? silentLogger : createLogger(config.logLevel, config.logFormat);
  const store = Store.open(config.db);
  let services: ServiceContext;
  try {
    services = createServices(config, store);
  } catch (e) {
    store.close();
    throw e;
  }
  // A server commits each turn's writes together (fixtures above were committed on their own).
  store.groupCommits();
  const ctx: HttpContext = { services, urls: { baseUrl: '', cardBaseUrl: '' }, log, controlToken: config.controlToken, controlFrom: config.controlFrom };
  const scheduler = createLifecycle(config, services, () => ctx.urls.baseUrl, log);
  ctx.scheduler = scheduler;
  if (config.retainMs !== undefined) scheduler.addJob(retentionJob(services, { retainMs: config.retainMs, log }));
  const servers: Server[] = [];
  try {
    servers.push(await listen(createApp(ctx, 'api'), config.port, config.host));
    servers.push(await listen(createApp(ctx, 'card'), config.cardPort, config.host));
  } catch (e) {
    for (const s of servers) s.close();
    store.close();
    throw e;
  }
  ctx.urls.baseUrl = config.publicUrl ?? urlOf(servers[0]!, config.host);
  ctx.urls.cardBaseUrl = config.publicCardUrl ?? urlOf(servers[1]!, config.host);
  scheduler.start();
  if (config.db !== ':memory:') store.checkpointAfterCommits(250);

  const first = listMerchants(services).find((m) => m.LinkedSiteIDs.length > 0) ?? listMerchants(services)[0];
  let stopped: Promise<void> | null = null;
  return {
    baseUrl: ctx.urls.baseUrl,
    cardBaseUrl: ctx.urls.cardBaseUrl,
    merchant: first ? { SiteID: first.SiteID, APIKey: first.APIKey, LinkedSiteIDs: first.LinkedSiteIDs } : { SiteID: 0, APIKey: '', LinkedSiteIDs: [] },
    clock: {
      now: () => services.clock.now(),
      advance: (seconds) => scheduler.advance(Math.round(seconds * 1000)),
    },
    notifications: {
      async waitFor(filter, timeoutMs = 10_000) {
        const n = await waitForDelivered(store, scheduler.worker, filterOf(filter), timeoutMs);
        if (!n) throw new Error(`no notification matching ${JSON.stringify(filter)} was delivered within ${timeoutMs} ms`);
        return notificationView(services, n);
      },
      list: (filter) => listNotifications(services, filterOf(filter)),
    },
    async reset() {
      scheduler.worker.forget();
      resetSandbox(services, services.fixtures!);
    },
    services,
    scheduler,
    stop() {
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
        .then(() => store.close());
      return stopped;
    },
  };
}
