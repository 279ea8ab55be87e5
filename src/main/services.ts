// The services over a store, as a start builds them: what main.ts composes a sandbox from, and all a
// test's world needs of it (the listeners, the scheduler and the rest of a start stay in main.ts).
import { type Config, journalQuotas } from '../config';
import { completeMethodCatalogue, loadFixtures, readFixtures } from '../fixtures';
import { createIds } from '../ids';
import type { Logger } from '../log';
import { SiteClocks } from '../marketplaces/site-clocks';
import { RequestJournal } from '../requests/journal';
import { SHIPPED_SCENARIOS_DIR, ScenarioCatalogue } from '../scenarios/loader';
import { createClock } from '../scheduler/clock-keeper';
import type { ServiceContext } from '../services/context';
import { idOffsetAt, paymentIdsHandedOut } from '../store/sequences';
import type { Store } from '../store/store';
import { Faults } from '../faults/faults';
import { storedScenarios } from '../stories/story-scenarios';

/** Builds the services over a store (loading fixtures into an empty one). Used by main and tests. */
export function createServices(config: Config, store: Store, log?: Logger): ServiceContext {
  const scenarios = ScenarioCatalogue.load(config.scenarioDirs, SHIPPED_SCENARIOS_DIR);
  scenarios.alsoFrom(storedScenarios(store));
  if (config.scenario !== undefined && !scenarios.has(config.scenario)) {
    throw new Error(`unknown scenario "${config.scenario}"; known: ${scenarios.list().map((s) => s.name).join(', ')}`);
  }
  const fixtures = readFixtures(config.fixtures);
  if (store.isEmpty()) {
    loadFixtures(store, fixtures);
    // Seeded runs keep the fixed starts, so that they repeat themselves byte for byte.
    if (config.seed === undefined) store.startIds(idOffsetAt(Date.now()));
  } else completeMethodCatalogue(store, fixtures);
  const clock = createClock(config, store, Date.now, log);
  // Rules kept from a previous run (or in the database's file) are in force again, and after a reset
  // or a restore, those of the data now in place.
  // An unseeded run's seed needs no cryptographic quality: Math.random keeps node:crypto off a start's path.
  const faults = new Faults(store, config.seed ?? Math.floor(Math.random() * 2 ** 31), config.merchantFaultRules);
  faults.reload();
  store.onDataReplaced(() => faults.reload());
  store.onSiteReplaced(() => faults.reload());
  const siteClocks = new SiteClocks(store, log);
  // A restored snapshot brings its own marketplaces' clocks; a removed marketplace's goes.
  store.onDataReplaced(() => siteClocks.reload());
  store.onSiteReplaced((site, why) => why === 'remove' && siteClocks.drop(site));
  const journal = config.requestJournal > 0 ? new RequestJournal(store, clock, journalQuotas(config)) : undefined;
  // Entries of the turn not yet written tell of requests made on the data that is gone.
  if (journal) store.onDataReplaced(() => journal.discard());
  const services: ServiceContext = {
    store,
    clock,
    siteClocks,
    ...(journal ? { requests: journal } : {}),
    ids: createIds(config.seed, config.seed === undefined ? 0 : paymentIdsHandedOut(store.db)),
    settings: { cancelOpen: config.cancelOpen, strictFields: config.strictFields, pageSize: config.pageSize, defaultScenario: config.scenario, defaultNotificationUrl: config.notifyUrl },
    scenarios,
    fixtures,
    faults,
  };
  services.forSite = (siteId) => siteClocks.view(services, siteId, (site) => services.wakeSite?.(site));
  return services;
}
