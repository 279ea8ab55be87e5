// Entries written before card data was masked by what it is: migration 16 scrubs a copy's
// requests_kept, and the journal's own file is scrubbed once when the sandbox opens it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Sandbox, startSandbox } from '../../src/main';
import { migrate } from '../../src/store/db';
import { sql as requestsTable } from '../../src/store/migrations/0012-requests';
import request from 'supertest';
import { AUTH } from '../lifecycle/harness';

const NUMBER = '4111111111111111';
const COLUMNS = `at, wall_at, address, method, path, query, route, site_id, authenticated, payment_id, refund_id, split_id, status,
  reasons, duration_ms, fault, near_miss, request_body, request_bytes, response_body, response_bytes`;

/** An entry as a sandbox before the change wrote it: a card sent to the API address, its answer a 404 echoing the query. */
const leaky = (body: string, query: string | null, answer: string, status = 404) => [
  1_795_000_000_000, 1_795_000_000_000, 'api', 'POST', '/v1/payouts', query, null, 30201, 1, null, null, null, status, null, 3.5, null, null,
  body, body.length, answer, answer.length,
];
const CARD_BODY = `{"Payout":{"Card":{"Number":"${NUMBER}","SecurityCode":"7319"},"Created":"20261127014102"}}`;
const SCRUBBED_BODY = '{"Payout":{"Card":{"Number":"VISA-1111","SecurityCode":"***"},"Created":"20261127014102"}}';
const ROWS = [
  leaky(CARD_BODY, `pan=${NUMBER}`, `{"Message":"No HTTP resource was found that matches the request URI '/v1/payouts?pan=${NUMBER}'."}`),
  // An accepted answer is the sandbox's own, already masked: left as it was.
  leaky('{"Payment":{}}', null, '{"Payment":{"ID":5000001,"Created":"20261127014102"}}', 201),
];

function insert(db: Database.Database, table: string): void {
  const put = db.prepare(`INSERT INTO ${table} (${COLUMNS}) VALUES (${ROWS[0]!.map(() => '?').join(', ')})`);
  for (const r of ROWS) put.run(...r);
}

const read = (db: Database.Database, table: string) => db.prepare(`SELECT query, request_body, response_body FROM ${table} ORDER BY id`).all();

const EXPECTED = [
  { query: 'pan=VISA-1111', request_body: SCRUBBED_BODY, response_body: `{"Message":"No HTTP resource was found that matches the request URI '/v1/payouts?pan=VISA-1111'."}` },
  { query: null, request_body: '{"Payment":{}}', response_body: '{"Payment":{"ID":5000001,"Created":"20261127014102"}}' },
];

describe('migration 16 (card data)', () => {
  it('masks the card data of the entries a copy kept before it (requests_kept), and nothing else', () => {
    const db = new Database(':memory:');
    migrate(db, 15);
    insert(db, 'requests_kept');
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(16);
    expect(read(db, 'requests_kept')).toEqual(EXPECTED);
    db.close();
  });
});

describe('the journal file written before the change', () => {
  let dir: string;
  let sb: Sandbox | undefined;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'split-sandbox-scrub-'))));
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('is scrubbed once when the sandbox opens it, and marked so', async () => {
    const db = join(dir, 'sandbox.db');
    const main = new Database(db);
    migrate(main, 15);
    main.close();
    const journal = new Database(`${db}-requests`);
    journal.exec(requestsTable);
    insert(journal, 'requests');
    journal.close();

    sb = await startSandbox({ port: 0, cardPort: 0, db, clock: 'manual', quiet: true });
    expect(sb.requests.find().map((e) => [e.Query, e.Request.Body])).toEqual(EXPECTED.map((e) => [e.query, e.request_body]));
    await sb.stop();
    sb = undefined;

    const after = new Database(`${db}-requests`, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(16);
    expect(read(after, 'requests')).toEqual(EXPECTED);
    expect(JSON.stringify(after.prepare('SELECT * FROM requests').all())).not.toContain(NUMBER);
    after.close();
  });
});

describe('snapshot files saved before the change', () => {
  let dir: string;
  let sb: Sandbox | undefined;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'split-sandbox-scrub-'))));
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('are scrubbed in place when the sandbox starts (a whole snapshot and a marketplace\'s own), and then of schema 16', async () => {
    const db = join(dir, 'sandbox.db');
    const start = async () => (sb = await startSandbox({ port: 0, cardPort: 0, db, clock: 'manual', quiet: true }));
    await start();
    await request(sb!.baseUrl).post('/_sandbox/snapshots').send({ Name: 'whole' }).expect(201);
    await request(sb!.baseUrl).post('/_sandbox/merchants/30201/snapshots').set('Authorization', AUTH).send({ Name: 'own' }).expect(201);
    await sb!.stop();
    sb = undefined;
    // Made to look as a sandbox before the change wrote them: schema 15, an entry with a card in full.
    const whole = `${db}.snapshots/whole.db`;
    const own = `${db}.merchant-snapshots/30201/own.db`;
    for (const [file, mark] of [
      [whole, (f: Database.Database) => f.pragma('user_version = 15')],
      [own, (f: Database.Database) => f.prepare('UPDATE copy_of SET schema = 15').run()],
    ] as const) {
      const f = new Database(file);
      mark(f);
      insert(f, 'requests_kept');
      f.close();
    }

    await start();
    for (const file of [whole, own]) {
      const f = new Database(file, { readonly: true });
      expect([file, read(f, 'requests_kept')]).toEqual([file, EXPECTED]);
      f.close();
    }
    const w = new Database(whole, { readonly: true });
    expect(w.pragma('user_version', { simple: true })).toBe(16);
    w.close();
    // A marketplace's own copy restores only into the schema it was written with, and says so (the
    // whole one above is this version's file marked 15, which only a sandbox of schema 16 would restore).
    const own16 = await request(sb!.baseUrl).post('/_sandbox/merchants/30201/snapshots/own/restore').set('Authorization', AUTH);
    expect(own16.status).toBe(400);
    expect(own16.body.Message).toContain('it was written with schema 16');
  });
});
