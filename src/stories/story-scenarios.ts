// The scenarios of replayed stories, read from the store (where a replay keeps them) by name.
import { parseScenario } from '../scenarios/loader';
import type { Scenario } from '../scenarios/scenario';
import type { Store } from '../store/store';

const MAX_KEPT = 1000;

/**
 * A lookup of stored story scenarios for the catalogue. The store is the truth (a reset, a restore or
 * a rolled-back replay change it): each lookup reads the kept text, and only its parsing is saved.
 */
export function storedScenarios(store: Store): (name: string) => Scenario | undefined {
  const parsed = new Map<string, { body: string; scenario: Scenario }>();
  return (name) => {
    const body = store.stories.scenario(name);
    if (body === undefined) return undefined;
    const known = parsed.get(name);
    if (known?.body === body) return known.scenario;
    const scenario = parseScenario(JSON.parse(body), `the story scenario ${name}`);
    if (parsed.size >= MAX_KEPT) parsed.clear();
    parsed.set(name, { body, scenario });
    return scenario;
  };
}
