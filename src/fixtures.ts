// Loads the fixture files (merchants and methods) into an empty database.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Flow } from './domain/flows';
import { merchantsFixture, methodsFixture } from './schemas/fixtures';
import type { Schema } from './schemas/common';
import { validate } from './schemas/validator';
import type { Store } from './store/store';
import { PACKAGE_ROOT } from './package-root';

export const DEFAULT_FIXTURES_DIR = resolve(PACKAGE_ROOT, 'fixtures');

export class FixtureError extends Error {}

export interface MerchantFixture {
  SiteID: number;
  APIKey: string;
  Name: string;
  NotificationURL?: string | null;
  DefaultScenario?: string | null;
  LinkedSites?: { SiteID: number; Name: string; APIKey?: string }[];
}

export interface Fixtures {
  merchants: MerchantFixture[];
  methods: { ID: number; Name: string; Flow: Flow; Details?: Record<string, unknown> }[];
}

function readJson(dir: string, file: string, schema: Schema): unknown {
  const path = join(dir, file);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new FixtureError(`cannot read fixture ${path}: ${(e as Error).message}`);
  }
  const problems = validate(schema, data);
  if (problems.length > 0) throw new FixtureError(`fixture ${path} is invalid: ${problems.map((p) => p.Info).join('; ')}`);
  return data;
}

export function readFixtures(dir: string): Fixtures {
  const merchants = readJson(dir, 'merchants.json', merchantsFixture) as { Merchants: MerchantFixture[] };
  const methods = readJson(dir, 'methods.json', methodsFixture) as { Methods: Fixtures['methods'] };
  return { merchants: merchants.Merchants, methods: methods.Methods };
}

/** Writes the fixtures in one transaction. */
export function loadFixtures(store: Store, fx: Fixtures): void {
  store.tx(() => {
    for (const m of fx.methods) {
      store.methods.insert({ methodId: m.ID, name: m.Name, flow: m.Flow, detailsTemplate: m.Details ?? null });
    }
    for (const m of fx.merchants) {
      store.sites.insert({
        siteId: m.SiteID,
        apiKey: m.APIKey,
        name: m.Name,
        marketplaceSiteId: null,
        notificationUrl: m.NotificationURL ?? null,
        defaultScenario: m.DefaultScenario ?? null,
      });
      for (const l of m.LinkedSites ?? []) {
        store.sites.insert({
          siteId: l.SiteID,
          apiKey: l.APIKey ?? null,
          name: l.Name,
          marketplaceSiteId: m.SiteID,
          notificationUrl: null,
          defaultScenario: null,
        });
      }
    }
  });
}
