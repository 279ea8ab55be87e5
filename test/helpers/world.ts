// A fresh sandbox world for each test: in-memory database, manual clock, seeded ids, both apps.
import request from 'supertest';
import type { Express } from 'express';
import { DEFAULT_CONFIG, type Config } from '../../src/config';
import { createApp } from '../../src/http/app';
import { silentLogger } from '../../src/log';
import type { HttpContext } from '../../src/http/pipeline';
import { createServices } from '../../src/main/services';
import { ManualClock } from '../../src/scheduler/clock';
import type { ServiceContext } from '../../src/services/context';
import type { Statement } from 'better-sqlite3';
import { type Db, openDatabase } from '../../src/store/db';
import { Store } from '../../src/store/store';
import type { Schema } from '../../src/schemas/common';
import { schemaCheck } from './compiled-checks';
import { runImage } from './world-image';
import { MARKETPLACE, START, basic, paymentBody } from './constants';

// Kept here too: most tests take them with their world.
export { LINKED, MARKETPLACE, PLAIN, START, START_STAMP, basic, paymentBody } from './constants';

export interface World {
  store: Store;
  services: ServiceContext;
  clock: ManualClock;
  ctx: HttpContext;
  api: Express;
  card: Express;
  auth: string;
  close(): void;
}

/**
 * The database of a new world: a copy of the run's image (test/helpers/world-image.ts) or, in a file
 * run without one, of the first world this file made, once its fixtures were loaded. A world's start
 * writes nothing else (the clock is saved when the scheduler first runs), so the copy holds what
 * loading them again would write, byte for byte (test/unit/world-image.test.ts).
 */
let seeded: Buffer | undefined;
/** Only worlds whose start would load the fixtures the copy holds, and keep the seeded runs' fixed starts. */
const fromImage = (config: Config) => config.seed !== undefined && config.fixtures === DEFAULT_CONFIG.fixtures;

export function makeWorld(overrides: Partial<Config> = {}, given?: Store): World {
  const config: Config = { ...DEFAULT_CONFIG, clock: 'manual', startTime: START, seed: 42, quiet: true, ...overrides };
  const image = given === undefined && fromImage(config) ? (seeded ??= runImage()) : undefined;
  const store = given ?? new Store(openDatabase(':memory:', image === undefined ? {} : { image }));
  if (given === undefined && image === undefined && fromImage(config)) {
    const services = createServices(config, store);
    seeded = store.db.serialize();
    return worldOf(store, services);
  }
  return worldOf(store, createServices(config, store));
}

function worldOf(store: Store, services: ServiceContext): World {
  // As a started sandbox does: each turn's writes commit together, and answers wait for it.
  store.groupCommits();
  const ctx: HttpContext = {
    services,
    urls: { baseUrl: 'http://sandbox.test', cardBaseUrl: 'http://card.sandbox.test' },
    log: silentLogger,
    // Built when the served document is asked for: most tests never do, and its module is large.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    openApi: (surface, serverUrl) => (require('../../src/openapi/document') as typeof import('../../src/openapi/document')).openApiDocument(surface, serverUrl),
  };
  // The card address's app is made when a test first uses it: most never do, and making an app is
  // most of what a world costs.
  let card: Express | undefined;
  return {
    store,
    services,
    clock: services.clock as ManualClock,
    ctx,
    api: createApp(ctx, 'api'),
    get card() {
      return (card ??= createApp(ctx, 'card'));
    },
    auth: basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey),
    close: () => store.close(),
  };
}

export async function createPayment(w: World, overrides: Record<string, unknown> = {}) {
  const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody(overrides));
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment as WirePayment;
}

export async function event(w: World, id: number, name: string) {
  const res = await request(w.api).post(`/_sandbox/payments/${id}/events`).send({ Event: name });
  if (res.status !== 200) throw new Error(`event ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment as WirePayment;
}

/** An Authorized two-step payment with three splits. */
export async function authorizedPayment(w: World, overrides: Record<string, unknown> = {}) {
  const p = await createPayment(w, overrides);
  return event(w, p.ID, 'authorize');
}

export interface WireSplit {
  ID: number;
  PaymentID: number;
  SiteID: number;
  Amount: string;
  CapturedAmount: string;
  StateDetails: { ID: number; Info: string; Reasons: unknown };
  [k: string]: unknown;
}

export interface WirePayment {
  ID: number;
  Amount: string;
  CapturedAmount: string | null;
  Status: { ID: number; Info: string; Reasons: unknown };
  Splits: WireSplit[];
  RedirectURL: string | null;
  TokenLifetime: number | null;
  [k: string]: unknown;
}

/** Asserts that `body` matches a response schema exactly (every key, no other, right types). */
export function expectSchema(schema: Schema, body: unknown): void {
  // Compiled once per run (test/helpers/compiled-checks.ts), with the sandbox's own options.
  const fn = schemaCheck(schema);
  const ok = fn(body);
  if (!ok) throw new Error(`response does not match its schema: ${JSON.stringify(fn.errors, null, 1)}\n${JSON.stringify(body)}`);
}

/**
 * A byte-exact picture of every table, to prove that a request changed nothing. The request journal
 * (every request is kept in it, refused or not) is in a database of its own, not listed here.
 *
 * The picture last taken of a database is given again, without reading a table, while SQLite says
 * nothing can have changed since: no row inserted, updated or deleted through this connection
 * (total_changes(), which counts the journal's too, rolled back or not), no other connection's
 * commit (data_version), no change to the schema (schema_version, which a VACUUM moves as well) nor
 * to the temporary tables.
 * ANALYZE rewrites its sqlite_stat tables without moving any of them: a database that has one is
 * read whole every time.
 */
export function snapshot(store: Store): string {
  const db = store.db;
  let h = held.get(db);
  if (!h) held.set(db, (h = { stamp: db.prepare(STAMP).raw(), schema: -1, statements: new Map(), at: '', picture: '' }));
  const [changes, schema, data, temporary] = h.stamp.get() as [number, number, number, string | null];
  const at = `${changes}:${schema}:${data}:${temporary ?? ''}`;
  if (h.at === at) return h.picture;
  // The statements, prepared once per database and schema (a test that takes thousands of snapshots
  // spent half its time preparing them); any change to the schema prepares them again.
  if (h.schema !== schema) {
    h.schema = schema;
    h.statements = new Map();
  }
  const statements = h.statements;
  const prepare = (sql: string) => {
    let found = statements.get(sql);
    if (!found) statements.set(sql, (found = db.prepare(sql)));
    return found;
  };
  const tables = prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
  const rows = (t: string) => prepare(t === 'sqlite_sequence' ? `SELECT * FROM sqlite_sequence` : `SELECT * FROM "${t}"`).all();
  const picture = JSON.stringify(tables.map((t) => [t.name, rows(t.name)]));
  const analyzed = tables.some((t) => t.name.startsWith('sqlite_stat'));
  h.at = analyzed ? '' : at;
  h.picture = analyzed ? '' : picture;
  return picture;
}

/** total_changes:schema_version:data_version, and the temporary tables (one named as a table would be read instead of it). */
const STAMP = `SELECT total_changes(), (SELECT schema_version FROM pragma_schema_version()), (SELECT data_version FROM pragma_data_version()),
  (SELECT group_concat(name, ',') FROM sqlite_temp_master WHERE type = 'table')`;

/** Per database: its snapshot statements, and its last picture with the STAMP it was taken at. */
const held = new WeakMap<Db, { stamp: Statement; schema: number; statements: Map<string, Statement>; at: string; picture: string }>();

/** An authenticated POST to the API address, with a JSON body when one is given. */
export function post(w: World, path: string, body?: object) {
  const r = request(w.api).post(path).set('Authorization', w.auth);
  return body === undefined ? r : r.send(body);
}

/** A Status / StateDetails object as a successful response carries it. */
export const status = (ID: number, Info: string) => ({ ID, Info, Reasons: null });
