// What every service gets: the store, the clock, randomness and the settings that shape behaviour.
import type { Faults } from '../faults/faults';
import type { Fixtures } from '../fixtures';
import type { Ids } from '../ids';
import type { ScenarioCatalogue } from '../scenarios/loader';
import type { Clock } from '../scheduler/clock';
import type { Store } from '../store/store';
import type { ChangeSink } from './changes';

export interface ServiceSettings {
  /** Whether a merchant may cancel an Open payment (the spec's table) or only an Authorized one (its prose). */
  cancelOpen: boolean;
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
  /** Fault rules on the API and the notifications, when the sandbox runs with them. */
  faults?: Faults;
}
