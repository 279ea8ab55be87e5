// One instance shared by many: each marketplace's reset and removal touch no other, its own routes
// answer its own credentials (and never another's), with or without a control token.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import type { Config } from '../../src/config';
import { MARKETPLACE_TABLES, OWNED_TABLES, liveTable, ownedRows } from '../../src/store/owned';
import { KEPT_TABLE } from '../../src/store/journal-file';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, basic } from '../helpers/world';
import { payAs } from './pay';

const base = { port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 11, quiet: true, scenario: 'two-step' } as const;

interface Made {
  SiteID: number;
  APIKey: string;
  LinkedSiteIDs: number[];
  auth: string;
}

describe('a marketplace on its own', () => {
  let sb: Sandbox;
  let rx: Receiver;
  const token = 'ci-token-1';
  let control: Record<string, string> = {};
  const start = async (extra: Partial<Config> = {}) => {
    rx = await startReceiver();
    sb = await startSandbox({ ...base, ...extra });
    control = extra.controlToken ? { Authorization: `Bearer ${extra.controlToken}` } : {};
  };
  afterEach(async () => {
    await sb?.stop();
    await rx?.close();
  });

  const make = async (extra: Record<string, unknown> = {}): Promise<Made> => {
    const res = await request(sb.baseUrl).post('/_sandbox/merchants').set(control).send({ LinkedSites: 1, NotificationURL: rx.url, ...extra });
    expect(res.status).toBe(201);
    const m = res.body.Merchant;
    return { SiteID: m.SiteID, APIKey: m.APIKey, LinkedSiteIDs: m.LinkedSiteIDs, auth: basic(m.SiteID, m.APIKey) };
  };
  const pay = async (m: Made, n: number) => (await payAs(sb.baseUrl, m.auth, m.LinkedSiteIDs[0], n)).ID;
  /** Every row the marketplace owns, table by table, as the database holds it. */
  const allRowsOf = (m: Made) => {
    sb.services.requests?.flush();
    return Object.fromEntries(
      [...OWNED_TABLES, ...MARKETPLACE_TABLES].map((t) => [t.table, sb.services.store.db.prepare(`SELECT * FROM ${liveTable(t)} WHERE ${ownedRows(t)} ORDER BY rowid`).all({ site: m.SiteID })]),
    );
  };
  /** The same but the request journal, which grows with every request of the marketplace (the test's reads of it too). */
  const rowsOf = (m: Made) => {
    const { [KEPT_TABLE]: requests, ...rows } = allRowsOf(m);
    return rows;
  };
  const apiViewOf = async (m: Made) => ({
    payments: (await request(sb.baseUrl).get('/v1/payments').set('Authorization', m.auth)).text,
    journal: (await request(sb.baseUrl).get(`/_sandbox/merchants/${m.SiteID}/notifications`).set('Authorization', m.auth)).text,
    faults: (await request(sb.baseUrl).get(`/_sandbox/merchants/${m.SiteID}/faults`).set('Authorization', m.auth)).text,
  });
  /** Two marketplaces with two payments each, authorized and notified, and a fault rule each. */
  const twoBusy = async () => {
    const a = await make();
    const b = await make();
    for (const m of [a, b]) {
      await pay(m, 1);
      await pay(m, 2);
      const f = await request(sb.baseUrl)
        .post(`/_sandbox/merchants/${m.SiteID}/faults`)
        .set('Authorization', m.auth)
        .send({ Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments/{id}/capture' }, Action: { Status: 503 }, Times: 1 });
      expect(f.status).toBe(201);
      expect(f.body.Fault.Match).toEqual({ Method: 'POST', Path: '/v1/payments/{id}/capture', SiteID: m.SiteID });
      const pre = await request(sb.baseUrl)
        .post('/v1/preapprovals')
        .set('Authorization', m.auth)
        .send({
          Preapproval: {
            MerchantPreapprovalID: `sub-${m.SiteID}`,
            Description: '1 year subscription',
            ReturnURL: 'https://shop.example/return',
            MethodID: 2,
            Customer: { FirstName: 'John', LastName: 'Doe', Email: 'john@example.com' },
          },
        });
      expect(pre.status).toBe(201);
    }
    await sb.clock.advance(2);
    await sb.notifications.waitFor({ StatusID: 9 }, 5000);
    return { a, b };
  };

  it("A's reset empties A alone: B's rows and answers are byte-identical; A keeps its credentials, settings and IDs go on", async () => {
    await start();
    const { a, b } = await twoBusy();
    const bRows = rowsOf(b);
    // B's preapproval, opened, with its own statuses and steps: a marketplace owns them too.
    expect(bRows.preapprovals).toHaveLength(1);
    expect((bRows.status_history as { preapproval_id: number | null }[]).filter((h) => h.preapproval_id !== null)).toHaveLength(2);
    expect(allRowsOf(a).preapprovals).toHaveLength(1);
    const bEntries = allRowsOf(b)[KEPT_TABLE]!;
    expect(bEntries.length).toBeGreaterThan(0);
    const bView = await apiViewOf(b);
    expect(JSON.parse(bView.payments).Payments).toHaveLength(2);
    expect(JSON.parse(bView.journal).TotalCount).toBeGreaterThanOrEqual(2);
    const lastId = Math.max(...(JSON.parse((await request(sb.baseUrl).get('/v1/payments').set('Authorization', a.auth)).text).Payments as { ID: number }[]).map((p) => p.ID));

    const reset = await request(sb.baseUrl).post(`/_sandbox/merchants/${a.SiteID}/reset`).set('Authorization', a.auth);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ Status: 'reset', SiteID: a.SiteID });

    expect(rowsOf(b)).toEqual(bRows);
    // B's journal kept every entry it had, and grew by the reads above only.
    expect(allRowsOf(b)[KEPT_TABLE]!.slice(0, bEntries.length)).toEqual(bEntries);
    expect(await apiViewOf(b)).toEqual(bView);
    const aRows = allRowsOf(a);
    for (const t of OWNED_TABLES) expect([t.table, aRows[t.table]]).toEqual([t.table, []]);
    expect(aRows.sites).toHaveLength(2);
    const list = await request(sb.baseUrl).get('/v1/payments').set('Authorization', a.auth);
    expect(list.status).toBe(200);
    expect(list.body.Payments).toEqual([]);
    expect((await request(sb.baseUrl).get(`/_sandbox/merchants/${a.SiteID}`).set('Authorization', a.auth)).body.Merchant.NotificationURL).toBe(rx.url);
    expect(await pay(a, 1)).toBeGreaterThan(lastId);
  });

  it("A's removal deletes A whole (its credentials stop working, its SiteIDs never return); B is byte-identical", async () => {
    await start();
    const { a, b } = await twoBusy();
    const bRows = rowsOf(b);
    const bView = await apiViewOf(b);
    const del = await request(sb.baseUrl).delete(`/_sandbox/merchants/${a.SiteID}`).set('Authorization', a.auth);
    expect(del.status).toBe(204);
    expect(rowsOf(b)).toEqual(bRows);
    expect(await apiViewOf(b)).toEqual(bView);
    expect((await request(sb.baseUrl).get('/v1/payments').set('Authorization', a.auth)).status).toBe(401);
    expect((await request(sb.baseUrl).get(`/_sandbox/merchants/${a.SiteID}`)).status).toBe(404);
    // B was made after A: removing B too, the next marketplace still gets new SiteIDs.
    await request(sb.baseUrl).delete(`/_sandbox/merchants/${b.SiteID}`).expect(204);
    const c = await make();
    expect(c.SiteID).toBeGreaterThan(b.LinkedSiteIDs[0]!);
  });

  it('a whole-sandbox reset clears both, and a marketplace with its own clock', async () => {
    await start();
    const { a, b } = await twoBusy();
    const c = await make({ Clock: 'manual' });
    await pay(c, 1);
    await request(sb.baseUrl).post('/_sandbox/reset').expect(200);
    for (const m of [a, b, c]) {
      const rows = allRowsOf(m);
      for (const t of [...OWNED_TABLES, ...MARKETPLACE_TABLES]) expect([t.table, rows[t.table]]).toEqual([t.table, []]);
    }
  });

  it("A's credentials on B's routes are a 404, never B's data; wrong keys too; B's data is untouched", async () => {
    await start();
    const { a, b } = await twoBusy();
    const bRows = rowsOf(b);
    const wrongKey = basic(b.SiteID, 'not-the-key');
    for (const auth of [a.auth, wrongKey]) {
      for (const [method, path] of [
        ['get', `/_sandbox/merchants/${b.SiteID}`],
        ['patch', `/_sandbox/merchants/${b.SiteID}`],
        ['delete', `/_sandbox/merchants/${b.SiteID}`],
        ['post', `/_sandbox/merchants/${b.SiteID}/reset`],
        ['get', `/_sandbox/merchants/${b.SiteID}/notifications`],
        ['get', `/_sandbox/merchants/${b.SiteID}/faults`],
        ['delete', `/_sandbox/merchants/${b.SiteID}/faults`],
        ['get', `/_sandbox/merchants/${b.SiteID}/clock`],
        ['post', `/_sandbox/merchants/${b.SiteID}/clock/advance`],
        ['get', `/_sandbox/merchants/${b.SiteID}/snapshots`],
      ] as const) {
        const res = await request(sb.baseUrl)[method](path).set('Authorization', auth).send({ Seconds: 1, NotificationURL: null });
        expect([method, path, res.status, res.body]).toEqual([method, path, 404, { Message: 'Merchant not found.' }]);
      }
    }
    // A linked site has no credentials of its own, and A's are not its own routes'.
    expect((await request(sb.baseUrl).post(`/_sandbox/merchants/${a.LinkedSiteIDs[0]}/reset`).set('Authorization', a.auth)).status).toBe(404);
    expect(rowsOf(b)).toEqual(bRows);
  });

  it('with --control-token: A works on its own routes with its credentials; the whole-sandbox routes still need the token', async () => {
    await start({ controlToken: token });
    const { a, b } = await twoBusy();
    const bRows = rowsOf(b);
    for (const [method, path, status] of [
      ['get', `/_sandbox/merchants/${a.SiteID}`, 200],
      ['get', `/_sandbox/merchants/${a.SiteID}/notifications`, 200],
      ['get', `/_sandbox/merchants/${a.SiteID}/faults`, 200],
      ['post', `/_sandbox/merchants/${a.SiteID}/reset`, 200],
    ] as const) {
      expect([path, (await request(sb.baseUrl)[method](path).set('Authorization', a.auth)).status]).toEqual([path, status]);
      // Without credentials, the control API's rule: the token.
      expect([path, (await request(sb.baseUrl)[method](path)).status]).toEqual([path, 401]);
    }
    for (const [method, path] of [
      ['post', '/_sandbox/reset'],
      ['get', '/_sandbox/merchants'],
      ['post', '/_sandbox/merchants'],
      ['get', '/_sandbox/notifications'],
      ['get', '/_sandbox/faults'],
      ['post', '/_sandbox/clock/advance'],
      ['get', '/_sandbox/snapshots'],
    ] as const) {
      const res = await request(sb.baseUrl)[method](path).set('Authorization', a.auth).send({});
      expect([path, res.status]).toEqual([path, 401]);
    }
    expect(rowsOf(b)).toEqual(bRows);
    expect((await request(sb.baseUrl).get('/_sandbox/merchants').set(control)).status).toBe(200);
  });
});
