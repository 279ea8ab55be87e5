// A restore checks what it brings in: files that are no snapshot of this sandbox, and snapshots whose
// rows hold what the sandbox cannot serve, are refused with 400 naming the table and row, and nothing
// live changes; no temporary file stays behind.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import * as copies from '../../src/store/copies';
import { migrate } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';
import { AUTH, type Rig, boot, createPayment, shutdown } from '../lifecycle/harness';
import { tablesOf, withFile } from './helpers';

describe('restoring checks the snapshot first', () => {
  let rig: Rig | undefined;
  let tmp: string;
  let folder: string;
  let paymentId: number;
  beforeEach(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-snapshot-checks-'));
    const db = join(tmp, 'live.db');
    folder = `${db}.snapshots`;
    rig = await boot({ db });
    paymentId = (await createPayment(rig.sb, { scenario: 'two-step' })).ID;
    await rig.sb.snapshots.save('good');
  });
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A copy of the good snapshot under `name`, changed by `change` (foreign keys not enforced). */
  function crafted(name: string, change: (db: Database.Database) => void): void {
    const file = join(folder, `${name}.db`);
    copyFileSync(join(folder, 'good.db'), file);
    const db = new Database(file);
    try {
      db.pragma('foreign_keys = OFF');
      change(db);
    } finally {
      db.close();
    }
  }

  /** Restores `name`, expects 400 with `message`, and checks that nothing live changed and no scratch file stayed. */
  async function refused(name: string, message: string | RegExp): Promise<void> {
    const sb = rig!.sb;
    const before = tablesOf(sb.services.store);
    const res = await request(sb.baseUrl).post(`/_sandbox/snapshots/${name}/restore`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['Message']);
    if (typeof message === 'string') expect(res.body.Message).toBe(`Snapshot ${name} cannot be restored: ${message}`);
    else expect(res.body.Message).toMatch(message);
    expect(tablesOf(sb.services.store)).toEqual(before);
    const got = await request(sb.baseUrl).get(`/v1/payments/${paymentId}`).set('Authorization', AUTH);
    expect(got.status).toBe(200);
    expect(readdirSync(folder).filter((f) => f.startsWith('.'))).toEqual([]);
  }

  it('refuses a SQLite file of another application, and an empty file, keeping every merchant', async () => {
    const other = new Database(join(folder, 'otherapp.db'));
    other.exec('CREATE TABLE users(id INTEGER PRIMARY KEY)');
    other.close();
    await refused('otherapp', 'it is not a split-sandbox database (it has no schema version)');
    writeFileSync(join(folder, 'empty.db'), '');
    await refused('empty', 'it is not a split-sandbox database (it has no schema version)');
    // With a schema version but not the tables of that version.
    const lying = new Database(join(folder, 'lying.db'));
    lying.exec('CREATE TABLE users(id INTEGER PRIMARY KEY)');
    lying.pragma('user_version = 10');
    lying.close();
    await refused('lying', 'table counters is missing (schema 10)');
  });

  it('refuses a table that is not the one the migrations make', async () => {
    crafted('altered', (db) => db.exec('ALTER TABLE methods ADD COLUMN extra TEXT'));
    await refused('altered', /^Snapshot altered cannot be restored: table methods is not the one split-sandbox makes at schema \d+: CREATE TABLE methods/);
  });

  it('refuses rows the sandbox could not serve, naming the table, the row and the column', async () => {
    crafted('json', (db) => db.prepare('UPDATE payments SET customer = ? WHERE id = ?').run('{not json', paymentId));
    await refused('json', `table payments, row id ${paymentId}: customer is not a JSON object`);
    crafted('null-json', (db) => db.prepare('UPDATE payments SET details = ? WHERE id = ?').run('null', paymentId));
    await refused('null-json', `table payments, row id ${paymentId}: details is not a JSON object`);
    crafted('articles', (db) => db.prepare(`UPDATE payments SET articles = '{"MerchantArticleID":"1"}', preapproval_details = '[]' WHERE id = ?`).run(paymentId));
    await refused('articles', `table payments, row id ${paymentId}: articles is not a JSON array; preapproval_details is not a JSON object`);
    crafted('refund-articles', (db) =>
      db
        .prepare(`INSERT INTO refunds (payment_id, split_id, site_id, merchant_transaction_id, amount, currency, description, type_id, status_id, created_at, articles) VALUES (?, NULL, 30201, 'r', 1, 'EUR', '', 1, 1, 1764000000000, 'x')`)
        .run(paymentId),
    );
    await refused('refund-articles', /^Snapshot refund-articles cannot be restored: table refunds, row id \d+: articles is not a JSON array$/);
    crafted('clock', (db) => db.exec('UPDATE sandbox_clock SET sandbox_ms = -99999999999999'));
    await refused('clock', 'table sandbox_clock, row id 1: sandbox_ms -99999999999999 is not a time of years 1000 to 9999');
    expect(rig!.sb.snapshots.list().find((x) => x.Name === 'clock')).toEqual({ Name: 'clock', Created: null, Payments: 1 });
    crafted('created', (db) => db.prepare('UPDATE payments SET created_at = 253402300800000 WHERE id = ?').run(paymentId));
    await refused('created', `table payments, row id ${paymentId}: created_at is not a time of years 1000 to 9999 (epoch ms)`);
    crafted('amount', (db) => db.prepare('UPDATE payments SET amount = -5, status_id = 99 WHERE id = ?').run(paymentId));
    await refused('amount', `table payments, row id ${paymentId}: amount is not an amount from 0 to 9007199254740991; status_id is not a status (1, 2, 3, 4, 5, 9, 11, 13, 30, 33, 34, 35, 23, 24)`);
    crafted('site-methods', (db) => db.exec(`UPDATE sites SET methods = '{"a":1}' WHERE site_id = 30201`));
    await refused('site-methods', 'table sites, row site_id 30201: methods is not a JSON array');
    crafted('body', (db) =>
      db
        .prepare(`INSERT INTO notifications (id, payment_id, site_id, status_id, body, state, next_attempt_at, created_at) VALUES (77, ?, 30201, 1, 'x', 'delivered', 1764000000000, 1764000000000)`)
        .run(paymentId),
    );
    await refused('body', 'table notifications, row id 77: body is not a JSON object');
    crafted('orphan', (db) => db.prepare('UPDATE status_history SET payment_id = 999999999 WHERE payment_id = ?').run(paymentId));
    await refused('orphan', /^Snapshot orphan cannot be restored: table status_history, row rowid \d+: refers to a row of payments that is not there$/);
    crafted('no-merchant', (db) => db.exec('DELETE FROM notifications; DELETE FROM status_history; DELETE FROM scenario_jobs; DELETE FROM splits; DELETE FROM payments; DELETE FROM sites'));
    await refused('no-merchant', 'table sites has no merchant: every API call would be refused');
  });

  it('refuses an older snapshot whose rows a migration refuses, and leaves no scratch copy behind', async () => {
    const file = join(folder, 'old.db');
    const db = new Database(file);
    migrate(db, 4);
    db.pragma('foreign_keys = OFF');
    db.exec(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Old');
      INSERT INTO payments (id, surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, status_id, created_at)
        VALUES (1, 'api', 30201, 30201, 'm1', 100, 'EUR', 1, 1764000000000);
      INSERT INTO refunds (id, payment_id, split_id, site_id, merchant_transaction_id, amount, currency, description, type_id, status_id, created_at)
        VALUES (1, 1, 777, 30201, 'r1', 100, 'EUR', 'r', 1, 1, 1764000000000);`);
    db.close();
    const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    await refused('old', `it could not be brought up to schema ${latest}: migration 5 would leave 1 broken references; nothing was changed`);
    // An older one whose rows migrate but hold a bad value: refused after the migration, scratch removed too.
    const bad = new Database(join(folder, 'old-bad.db'));
    migrate(bad, 8);
    bad.exec(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Old');
      INSERT INTO payments (id, surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, status_id, created_at, card)
        VALUES (1, 'api', 30201, 30201, 'm1', 100, 'EUR', 1, 1764000000000, '[1]');`);
    bad.close();
    await refused('old-bad', 'table payments, row id 1: card is not a JSON object');
  });

  it('still restores a good snapshot, and an older one brought up to date', async () => {
    const sb = rig!.sb;
    const res = await request(sb.baseUrl).post('/_sandbox/snapshots/good/restore');
    expect(res.status).toBe(200);
    expect(res.body.Snapshot).toMatchObject({ Name: 'good', Payments: 1 });
    const old = new Database(join(folder, 'old-good.db'));
    migrate(old, 8);
    old.exec(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Old');`);
    old.close();
    const older = await request(sb.baseUrl).post('/_sandbox/snapshots/old-good/restore');
    expect([older.status, older.body]).toEqual([200, { Snapshot: { Name: 'old-good', Created: null, Payments: 0 } }]);
    expect(withFile(join(folder, 'old-good.db'), (db) => db.pragma('user_version', { simple: true }))).toBe(8);
    expect(readdirSync(folder).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('removes at start the scratch files of saves and restores that a killed process left, not those of a live one', async () => {
    await shutdown(rig);
    rig = undefined;
    // A process that is gone (a PID past the kernel's limit), this process (a restart that got its PID
    // back), and one that lives (PID 1).
    const gone = ['.good.4194305.1.tmp', '.good.4194305.1.tmp-journal', '.good.4194305.2.restore', '.good.4194305.2.restore-wal', '.good.4194305.2.restore-shm'];
    const own = [`.good.${process.pid}.7.tmp`, `.good.${process.pid}.8.restore-journal`];
    const kept = ['.good.1.1.tmp', 'notes.txt', 'good.db'];
    for (const f of [...gone, ...own, ...kept]) if (f !== 'good.db') writeFileSync(join(folder, f), 'x');
    rig = await boot({ db: join(tmp, 'live.db') });
    expect(readdirSync(folder).sort()).toEqual([...kept].sort());
  });

  it('removes the scratch copy of a save that failed', async () => {
    const sb = rig!.sb;
    const spy = jest.spyOn(copies, 'copyDatabase').mockImplementation(async (_store, target) => {
      writeFileSync(target, 'half');
      writeFileSync(`${target}-journal`, 'half');
      throw new Error('no space left on device');
    });
    try {
      const res = await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'half' });
      expect([res.status, res.body]).toEqual([503, { Message: 'Snapshot half could not be written: no space left on device' }]);
    } finally {
      spy.mockRestore();
    }
    expect(readdirSync(folder)).toEqual(['good.db']);
  });
});
