// What every service gets: the store, the clock, randomness and the settings that shape behaviour.
import type { Faults } from '../faults/faults';
import type { RequestJournal } from '../requests/journal';
import type { Fixtures } from '../fixtures';
import type { Ids } from '../ids';
import type { SiteClocks } from '../marketplaces/site-clocks';
import type { ScenarioCatalogue } from '../scenarios/loader';
import type { Clock } from '../scheduler/clock';
import type { Store } from '../store/store';
import type { ChangeSink } from './changes';

export interface ServiceSettings {
  /** Whether a merchant may cancel an Open payment (the spec's table) or only an Authorized one (its prose). */
  cancelOpen: boolean;
  /** Refuse request members the API does not read (`--strict-fields`); by default they are ignored and journaled. */
  strictFields?: boolean;
  /** Page size of the lists when the request names none. */
  pageSize: number;
  /** The scenario of payments that no header, magic amount or merchant default chooses one for. */
  defaultScenario?: string | undefined;
  /** Where notifications of merchants without a URL of their own go (`--notify-url`). */
  defaultNotificationUrl?: string | undefined;
}

export interface ServiceContext {
  store: Store;
  clock: Clock;
  ids: Ids;
  settings: ServiceSettings;
  /** Where status changes go besides the history (the notification outbox), when there is one. */
  changes?: ChangeSink;
  /** The scenarios payments can follow; without it payments move only by events. */
  scenarios?: ScenarioCatalogue;
  /** The fixtures the database was seeded with, for a reset. */
  fixtures?: Fixtures;
  /** Told when something was scheduled, so a real-time scheduler can re-arm its timer. */
  wake?: () => void;
  /**
   * Why a notification URL would reach this sandbox's own listeners (refused), or null; absent
   * until the listeners are up (see notifications/own-listeners.ts).
   */
  ownListener?: (url: string) => string | null;
  /**
   * Why a connection to `address:port`, what a notification URL's host is or resolves to, would
   * reach this sandbox's own listeners, or null; absent until the listeners are up.
   */
  ownAddress?: (url: string, address: string, port: number) => string | null;
  /**
   * The services as marketplace `siteId`'s work sees them: its own clock as `clock` when it has one
   * (see marketplaces/site-clocks.ts), else these same services.
   */
  forSite?: (siteId: number) => ServiceContext;
  /** Set in a marketplace's view: the marketplace whose own clock `clock` is. */
  clockSiteId?: number;
  /** Told when something was scheduled on a marketplace's own clock (its notifications go out at its time). */
  wakeSite?: (siteId: number) => void;
  /** The marketplaces' own clocks. */
  siteClocks?: SiteClocks;
  /** Fault rules on the API and the notifications, when the sandbox runs with them. */
  faults?: Faults;
  /** The request journal, unless it is off (`--request-journal 0`). */
  requests?: RequestJournal;
  /**
   * Awaited between two steps of a marketplace's long copy (a snapshot saved or restored), where the
   * other marketplaces' requests are answered; default: one turn of the event loop.
   */
  betweenSteps?: (siteId: number) => Promise<void>;
}
