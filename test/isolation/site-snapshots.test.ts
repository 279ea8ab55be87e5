// A marketplace's own snapshots: its data and its clock as they were, nobody else's touched; names in
// its own space, a bounded number, and a file that is not its copy refused with nothing changed.
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { DEFAULT_SITE_SNAPSHOT_QUOTA } from '../../src/marketplaces/site-snapshots';
import { MARKETPLACE_TABLES, OWNED_TABLES, ownedRows } from '../../src/store/owned';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, basic } from '../helpers/world';
import { payAs } from './pay';

interface Made {
  SiteID: number;
  LinkedSiteIDs: number[];
  auth: string;
}

describe("a marketplace's own snapshots", () => {
  let sb: Sandbox;
  let rx: Receiver;
  let dir: string;
  let db: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'site-snapshots-'));
    db = join(dir, 'sandbox.db');
    rx = await startReceiver();
    sb = await startSandbox({ port: 0, cardPort: 0, db, clock: 'manual', startTime: START, seed: 17, quiet: true, scenario: 'two-step' });
  });
  afterEach(async () => {
    await sb.stop();
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const make = async (body: Record<string, unknown> = {}): Promise<Made> => {
    const res = await request(sb.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 1, NotificationURL: rx.url, ...body });
    expect(res.status).toBe(201);
    const m = res.body.Merchant;
    return { SiteID: m.SiteID, LinkedSiteIDs: m.LinkedSiteIDs, auth: basic(m.SiteID, m.APIKey) };
  };
  const pay = async (m: Made, n: number) => (await payAs(sb.baseUrl, m.auth, m.LinkedSiteIDs[0], n)).ID;
  const rowsOf = (m: Made) =>
    Object.fromEntries(
      [...OWNED_TABLES, ...MARKETPLACE_TABLES].map((t) => [t.table, sb.services.store.db.prepare(`SELECT * FROM ${t.table} WHERE ${ownedRows(t)} ORDER BY rowid`).all({ site: m.SiteID })]),
    );
  const call = (m: Made, method: 'get' | 'post' | 'delete', path: string) => request(sb.baseUrl)[method](`/_sandbox/merchants/${m.SiteID}${path}`).set('Authorization', m.auth);

  it("restores A's data and clock as they were; B's rows are byte-identical; IDs go on", async () => {
    const a = await make({ Clock: 'manual' });
    const b = await make({ Clock: 'manual' });
    const a1 = await pay(a, 1);
    await pay(b, 1);
    await call(a, 'post', '/faults').send({ Channel: 'notifications', Action: { Drop: true }, Times: 1 }).expect(201);
    const saved = await call(a, 'post', '/snapshots').send({ Name: 'baseline' });
    expect(saved.status).toBe(201);
    expect(saved.body).toEqual({ Snapshot: { Name: 'baseline', Created: '20260115100000', OwnClock: true, Payments: 1 } });
    const aThen = rowsOf(a);

    // A moves on: its payment authorized, another made, its clock ahead; B moves too.
    await call(a, 'post', '/clock/advance').send({ Seconds: 30 }).expect(200);
    const a2 = await pay(a, 2);
    await call(b, 'post', '/clock/advance').send({ Seconds: 2 }).expect(200);
    await pay(b, 2);
    const bNow = rowsOf(b);

    const restored = await call(a, 'post', '/snapshots/baseline/restore');
    expect(restored.status).toBe(200);
    expect(restored.body.Clock).toMatchObject({ Own: true, NowMs: START });
    expect(rowsOf(a)).toEqual(aThen);
    expect(rowsOf(b)).toEqual(bNow);
    expect((await request(sb.baseUrl).get(`/v1/payments/${a1}`).set('Authorization', a.auth)).body.Payment.Status.ID).toBe(1);
    expect((await request(sb.baseUrl).get(`/v1/payments/${a2}`).set('Authorization', a.auth)).status).toBe(404);
    // Its pending step resumes from the snapshot's time, on its clock.
    await call(a, 'post', '/clock/advance').send({ Seconds: 2 }).expect(200);
    expect((await request(sb.baseUrl).get(`/v1/payments/${a1}`).set('Authorization', a.auth)).body.Payment.Status.ID).toBe(9);
    expect(await pay(a, 3)).toBeGreaterThan(a2);
  });

  it('keeps names in each marketplace’s own space, a bounded number, listed and deleted', async () => {
    const a = await make();
    const b = await make();
    await pay(a, 1);
    await call(a, 'post', '/snapshots').send({ Name: 'baseline' }).expect(201);
    await call(b, 'post', '/snapshots').send({ Name: 'baseline' }).expect(201);
    expect((await call(a, 'get', '/snapshots')).body).toEqual({ Snapshots: [{ Name: 'baseline', Created: '20260115100000', OwnClock: false, Payments: 1 }] });
    expect((await call(b, 'get', '/snapshots')).body.Snapshots[0].Payments).toBe(0);
    // The whole sandbox's snapshots are another space, behind the control API's guard.
    expect((await request(sb.baseUrl).get('/_sandbox/snapshots')).body.Snapshots).toEqual([]);
    const max = DEFAULT_SITE_SNAPSHOT_QUOTA.count;
    for (let i = 1; i < max; i++) await call(a, 'post', '/snapshots').send({ Name: `s${i}` }).expect(201);
    const over = await call(a, 'post', '/snapshots').send({ Name: 'one-more' });
    expect(over.status).toBe(409);
    expect(over.body.Message).toBe(`SiteID ${a.SiteID} is at its snapshot quota of ${max} snapshots: delete one first`);
    // Replacing one of the same name is no new one.
    await call(a, 'post', '/snapshots').send({ Name: 's1' }).expect(201);
    await call(a, 'delete', '/snapshots/s1').expect(204);
    expect((await call(a, 'delete', '/snapshots/s1')).status).toBe(404);
    expect((await call(a, 'post', '/snapshots/nothing/restore')).status).toBe(404);
    expect((await call(a, 'post', '/snapshots').send({ Name: '../x' })).status).toBe(400);
    // Removing the marketplace removes its snapshots; a whole reset, those of every marketplace it removes.
    await request(sb.baseUrl).delete(`/_sandbox/merchants/${a.SiteID}`).expect(204);
    expect(existsSync(join(`${db}.merchant-snapshots`, String(a.SiteID)))).toBe(false);
    expect((await call(b, 'get', '/snapshots')).body.Snapshots).toHaveLength(1);
    await request(sb.baseUrl).post('/_sandbox/reset').expect(200);
    expect(existsSync(join(`${db}.merchant-snapshots`, String(b.SiteID)))).toBe(false);
  });

  it("refuses another marketplace's copy, a file that is no copy, and a copy with bad values: 400, nothing changed", async () => {
    const a = await make();
    const b = await make();
    const firstOfA = await pay(a, 1);
    await pay(b, 1);
    await call(b, 'post', '/snapshots').send({ Name: 'of-b' }).expect(201);
    await call(a, 'post', '/snapshots').send({ Name: 'good' }).expect(201);
    const folder = `${db}.merchant-snapshots`;
    copyFileSync(join(folder, String(b.SiteID), 'of-b.db'), join(folder, String(a.SiteID), 'stolen.db'));
    writeFileSync(join(folder, String(a.SiteID), 'empty.db'), '');
    const other = new Database(join(folder, String(a.SiteID), 'other.db'));
    other.exec('CREATE TABLE users (id INTEGER PRIMARY KEY)');
    other.close();
    copyFileSync(join(folder, String(a.SiteID), 'good.db'), join(folder, String(a.SiteID), 'bad-json.db'));
    const bad = new Database(join(folder, String(a.SiteID), 'bad-json.db'));
    bad.exec(`UPDATE payments SET customer = '{not json'`);
    bad.close();
    await pay(a, 2);
    const aRows = rowsOf(a);
    const bRows = rowsOf(b);
    for (const [name, why] of [
      ['stolen', `copy_of: it is a copy of SiteID ${b.SiteID}`],
      ['empty', "it is not a marketplace's copy: no such table: copy_of"],
      ['other', "it is not a marketplace's copy"],
      ['bad-json', `table payments, row id ${firstOfA}: customer is not a JSON object`],
    ]) {
      const res = await call(a, 'post', `/snapshots/${name}/restore`);
      expect([name, res.status]).toEqual([name, 400]);
      expect(res.body.Message).toContain(`Snapshot ${name} cannot be restored: ${why}`);
    }
    expect(rowsOf(a)).toEqual(aRows);
    expect(rowsOf(b)).toEqual(bRows);
  });
});
