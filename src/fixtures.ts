// Loads the fixture files (merchants and methods) into an empty database.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Flow } from './domain/flows';
import { exchangeRatesFixture, merchantsFixture, methodsFixture } from './schemas/fixtures';
import type { Schema } from './schemas/common';
import { validate } from './schemas/validator';
import type { MethodCatalogue } from './store/records';
import type { Store } from './store/store';
import { PACKAGE_ROOT } from './package-root';
import { fileStamp } from './file-stamp';

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

export type MethodFixture = { ID: number; Name: string; Flow: Flow; Details?: Record<string, unknown> } & MethodCatalogue;

export interface Fixtures {
  merchants: MerchantFixture[];
  methods: MethodFixture[];
  /** Units of each currency for one unit of `Base` (fixtures/exchange-rates.json), the sandbox's own table. */
  exchangeRates?: { Base: string; Rates: Record<string, string> };
}

/** The catalogue entry of a fixture method: what it holds besides ID, Name, Flow and Details (null when nothing). */
function catalogueOf(m: MethodFixture): MethodCatalogue | null {
  const { ID: _id, Name: _name, Flow: _flow, Details: _details, ...rest } = m;
  return Object.keys(rest).length === 0 ? null : rest;
}

/**
 * The texts of fixture files this process found valid, by schema: every sandbox of a process (each
 * test's) reads the same files, and checking the methods' catalogue again was most of reading it.
 */
const VALID = new WeakMap<Schema, Set<string>>();

/**
 * In the CLI's bundle: the texts of the package's own fixture files, which the build read and found
 * valid (scripts/bundle.cjs). A start that reads the same texts does not check them again; a text
 * that differs by a byte (an edited file, a folder of its own) is checked as any other.
 */
declare const BUNDLED_CHECKED_MERCHANTS: string | undefined;
declare const BUNDLED_CHECKED_METHODS: string | undefined;
declare const BUNDLED_CHECKED_EXCHANGE_RATES: string | undefined;
if (typeof BUNDLED_CHECKED_MERCHANTS === 'string') VALID.set(merchantsFixture, new Set([BUNDLED_CHECKED_MERCHANTS]));
if (typeof BUNDLED_CHECKED_METHODS === 'string') VALID.set(methodsFixture, new Set([BUNDLED_CHECKED_METHODS]));
if (typeof BUNDLED_CHECKED_EXCHANGE_RATES === 'string') VALID.set(exchangeRatesFixture, new Set([BUNDLED_CHECKED_EXCHANGE_RATES]));

/**
 * The text last read of each file, with the stamp of the file it came from (a write to it or its
 * replacement moves the stamp, and the file is read again).
 */
const READ = new Map<string, { stamp: string; text: string }>();

/** A fixture file read: its text, and what it holds where this read parsed it (to check it). */
interface Read {
  text: string;
  data?: unknown;
}

/** A fixture file's text, checked against its schema (once a process for each text). */
function readJson(dir: string, file: string, schema: Schema): Read {
  const path = join(dir, file);
  const stamp = fileStamp(path);
  const kept = READ.get(path);
  if (stamp !== undefined && kept !== undefined && kept.stamp === stamp && VALID.get(schema)?.has(kept.text)) return { text: kept.text };
  let text: string;
  let data: unknown;
  try {
    text = readFileSync(path, 'utf8');
    // A text found valid before is not parsed here: its reader parses it (parsedOnUse).
    if (!VALID.get(schema)?.has(text)) data = JSON.parse(text);
  } catch (e) {
    throw new FixtureError(`cannot read fixture ${path}: ${(e as Error).message}`);
  }
  if (data !== undefined) {
    const problems = validate(schema, data);
    if (problems.length > 0) throw new FixtureError(`fixture ${path} is invalid: ${problems.map((p) => p.Info).join('; ')}`);
    VALID.set(schema, (VALID.get(schema) ?? new Set<string>()).add(text));
  }
  if (stamp !== undefined) READ.set(path, { stamp, text });
  return { text, data };
}

/**
 * `fx[key]`: what this read parsed, or parsed from the checked text when first looked at. Each read
 * still hands out a copy of its own, and the many sandboxes of a process that never look at their
 * fixtures (a test's, whose database holds them already) do not parse them.
 */
function parsedOnUse<K extends keyof Fixtures>(fx: Fixtures, key: K, read: Read, pick: (data: never) => Fixtures[K]): void {
  const settle = (value: Fixtures[K]) => Object.defineProperty(fx, key, { value, writable: true, enumerable: true, configurable: true });
  if (read.data !== undefined) {
    settle(pick(read.data as never));
    return;
  }
  Object.defineProperty(fx, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = pick(JSON.parse(read.text) as never);
      settle(value);
      return value;
    },
    set: settle,
  });
}

export function readFixtures(dir: string): Fixtures {
  const merchants = readJson(dir, 'merchants.json', merchantsFixture);
  const methods = readJson(dir, 'methods.json', methodsFixture);
  // A fixtures folder of its own without a rate table uses the package's.
  const ratesDir = existsSync(join(dir, 'exchange-rates.json')) ? dir : DEFAULT_FIXTURES_DIR;
  const exchangeRates = readJson(ratesDir, 'exchange-rates.json', exchangeRatesFixture);
  const fx = {} as Fixtures;
  parsedOnUse(fx, 'merchants', merchants, (d: { Merchants: MerchantFixture[] }) => d.Merchants);
  parsedOnUse(fx, 'methods', methods, (d: { Methods: MethodFixture[] }) => d.Methods);
  parsedOnUse(fx, 'exchangeRates', exchangeRates, (d: Fixtures['exchangeRates']) => d);
  return fx;
}

/** Writes the fixtures in one transaction. */
export function loadFixtures(store: Store, fx: Fixtures): void {
  store.tx(() => {
    for (const m of fx.methods) {
      store.methods.insert({ methodId: m.ID, name: m.Name, flow: m.Flow, detailsTemplate: m.Details ?? null, catalogue: catalogueOf(m) });
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

/**
 * A database made before methods had catalogue entries: its methods get theirs from the fixtures
 * (same ID), so the methods API shows their countries, currencies and validators. Methods that have
 * one already are left as they are.
 */
export function completeMethodCatalogue(store: Store, fx: Fixtures): void {
  // Asked of the database first: every start of a database that has them all (most) reads no method.
  const missing = store.methods.withoutCatalogue();
  if (missing.length === 0) return;
  const byId = new Map(fx.methods.map((m) => [m.ID, m]));
  const fills: [number, MethodCatalogue][] = [];
  for (const id of missing) {
    const entry = byId.get(id);
    const catalogue = entry && catalogueOf(entry);
    if (catalogue) fills.push([id, catalogue]);
  }
  if (fills.length > 0) store.tx(() => fills.forEach(([id, catalogue]) => store.methods.fillCatalogue(id, catalogue)));
}
