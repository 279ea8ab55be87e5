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
import { type Clock, ManualClock, RealClock } from './scheduler/clock';
import { Scheduler } from './scheduler/scheduler';
import type { ServiceContext } from './services/context';
import { Store } from './store/store';

export interface Sandbox {
  baseUrl: string;
  cardBaseUrl: string;
  services: ServiceContext;
  scheduler: Scheduler;
  clock: Clock;
  stop(): Promise<void>;
}

/** Builds the services over a store (loading fixtures into an empty one). Used by main and tests. */
export function createServices(config: Config, store: Store): ServiceContext {
  const scenarios = ScenarioCatalogue.load([SHIPPED_SCENARIOS_DIR, ...config.scenarioDirs]);
  if (config.scenario !== undefined && !scenarios.has(config.scenario)) {
    throw new Error(`unknown scenario "${config.scenario}"; known: ${scenarios.list().map((s) => s.name).join(', ')}`);
  }
  if (store.isEmpty()) loadFixtures(store, readFixtures(config.fixtures));
  const clock = config.clock === 'manual' ? new ManualClock(config.startTime ?? Date.now()) : new RealClock();
  return {
    store,
    clock,
    ids: createIds(config.seed),
    settings: { cancelOpen: config.cancelOpen, pageSize: config.pageSize, defaultScenario: config.scenario },
    scenarios,
  };
}

/** Adds the notification outbox, the delivery worker and the scheduler to the services. */
export function createLifecycle(config: Config, services: ServiceContext, baseUrl: () => string, log: (l: string) => void): Scheduler {
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
  const log = config.quiet ? () => {} : (line: string) => process.stderr.write(line + '\n');
  const store = Store.open(config.db);
  let services: ServiceContext;
  try {
    services = createServices(config, store);
  } catch (e) {
    store.close();
    throw e;
  }
  const ctx: HttpContext = { services, urls: { baseUrl: '', cardBaseUrl: '' }, log, logRequests: !config.quiet };
  const scheduler = createLifecycle(config, services, () => ctx.urls.baseUrl, log);
  ctx.scheduler = scheduler;
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

  let stopped: Promise<void> | null = null;
  return {
    baseUrl: ctx.urls.baseUrl,
    cardBaseUrl: ctx.urls.cardBaseUrl,
    services,
    scheduler,
    clock: services.clock,
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
