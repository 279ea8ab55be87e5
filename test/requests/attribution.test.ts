// Whose a journal entry is: the marketplace whose credentials authenticated it. A request whose key
// failed belongs to no one and lands in the unauthenticated pool, which a marketplace reads only when
// it asks (marked as such); its dashboard shows its own entries and nothing else.
import request from 'supertest';
import { BODY_CAP, type RequestEntry } from '../../src/requests/journal';
import { MARKETPLACE, PLAIN, type World, authorizedPayment, basic, makeWorld } from '../helpers/world';
import { signedIn } from '../dashboard/helpers';

const A = MARKETPLACE;
const B = PLAIN;
const authA = basic(A.SiteID, A.APIKey);
const authB = basic(B.SiteID, B.APIKey);
const wrongB = basic(B.SiteID, 'wrong');

/** A create body of exactly 64 KiB. */
const BIG = (() => {
  const shell = '{"Payment":{"MerchantTransactionID":""}}';
  return `{"Payment":{"MerchantTransactionID":"${'x'.repeat(BODY_CAP - shell.length)}"}}`;
})();

async function entries(w: World, path: string, query = ''): Promise<RequestEntry[]> {
  const res = await request(w.api).get(`${path}?PageSize=1000&SortDirection=asc${query}`);
  expect(res.status).toBe(200);
  return res.body.Requests as RequestEntry[];
}
const whole = (w: World, query = '') => entries(w, '/_sandbox/requests', query);
const own = (w: World, site: number, query = '') => entries(w, `/_sandbox/merchants/${site}/requests`, query);
/** A marketplace's own journal, as its page answers it, byte for byte. */
const ownText = async (w: World, site: number) => (await request(w.api).get(`/_sandbox/merchants/${site}/requests?PageSize=1000`)).text;

const flood = async (w: World, auth: string, n: number, expected: number) => {
  for (let i = 0; i < n; i++) {
    const res = await request(w.api).post('/v1/payments').set('Authorization', auth).set('Content-Type', 'application/json').send(BIG);
    expect(res.status).toBe(expected);
  }
};

/** What B did of its own: a list and a payment. */
async function bWorks(w: World): Promise<void> {
  await request(w.api).get('/v1/payments').set('Authorization', authB).expect(200);
  await request(w.api).get('/v1/payments/1').set('Authorization', authB).expect(404);
}

describe('the journal’s entries belong to whose credentials authenticated them', () => {
  let w: World;
  afterEach(() => w.close());

  it('a flood of 64 KiB creates with B’s SiteID and a wrong key (401) lands in the bounded unauthenticated pool: B’s entries and share are untouched', async () => {
    w = makeWorld({ requestJournal: 50, requestJournalUnauthenticated: 4, requestJournalUnauthenticatedBytes: 300_000 });
    await bWorks(w);
    const before = await ownText(w, B.SiteID);
    const shareBefore = w.store.requests.shares().get(B.SiteID);
    await flood(w, wrongB, 12, 401);

    expect(await ownText(w, B.SiteID)).toBe(before);
    expect(w.store.requests.shares().get(B.SiteID)).toEqual(shareBefore);
    expect((await own(w, B.SiteID)).map((r) => `${r.Method} ${r.Path} ${r.Status}`)).toEqual(['GET /v1/payments 200', 'GET /v1/payments/1 404']);

    // The pool: the newest 4 (its entry quota), its bytes within its quota.
    const pool = await whole(w, '&Unauthenticated=true');
    expect(pool).toHaveLength(4);
    expect(pool.reduce((n, r) => n + r.StoredBytes, 0)).toBeLessThanOrEqual(300_000);
    for (const r of pool) {
      expect(r).toMatchObject({ SiteID: B.SiteID, Authenticated: false, Unauthenticated: true, Status: 401, NearMiss: `SiteID ${B.SiteID}: wrong APIKey` });
      expect(r.Request.Bytes).toBe(BODY_CAP);
    }
    const health = (await request(w.api).get('/_sandbox/health').expect(200)).body;
    expect(health.RequestJournal.Unauthenticated).toEqual({ Entries: 4, StoredBytes: pool.reduce((n, r) => n + r.StoredBytes, 0) });

    // B sees them only when it asks, marked, and never among its own; A never sees them.
    const claimed = await own(w, B.SiteID, '&Unauthenticated=true');
    expect(claimed.map((r) => r.ID)).toEqual(pool.map((r) => r.ID));
    expect(claimed.every((r) => r.Unauthenticated)).toBe(true);
    expect(await own(w, A.SiteID, '&Unauthenticated=true')).toEqual([]);
    const res = await request(w.api).get(`/_sandbox/merchants/${B.SiteID}/requests/count`).set('Authorization', authB);
    expect(res.body).toEqual({ Count: 2 });
    // By its ID: one of the pool's is not B's own entry.
    await request(w.api).get(`/_sandbox/merchants/${B.SiteID}/requests/${pool[0]!.ID}`).expect(404);
    expect((await request(w.api).get(`/_sandbox/merchants/${B.SiteID}/requests/${pool[0]!.ID}?Unauthenticated=true`).expect(200)).body.Request.Unauthenticated).toBe(true);
  });

  it('the same flood with A’s own credentials (400) drops only A’s oldest entries: B’s are byte-identical', async () => {
    w = makeWorld({ requestJournal: 10, requestJournalBytes: 600_000 });
    await request(w.api).get('/v1/payments?first=1').set('Authorization', authA).expect(200);
    await bWorks(w);
    const before = await ownText(w, B.SiteID);
    const rowsBefore = w.store.requests.page({ owner: B.SiteID }, { limit: 100, offset: 0, descending: false });
    await flood(w, authA, 12, 400);

    expect(await ownText(w, B.SiteID)).toBe(before);
    expect(w.store.requests.page({ owner: B.SiteID }, { limit: 100, offset: 0, descending: false })).toEqual(rowsBefore);
    const a = await own(w, A.SiteID);
    // A's first request went first; what is left is its newest, within its share in entries and bytes.
    expect(a.some((r) => r.Query === 'first=1')).toBe(false);
    expect(a.length).toBeGreaterThan(0);
    expect(a.length).toBeLessThanOrEqual(10);
    expect(a.reduce((n, r) => n + r.StoredBytes, 0)).toBeLessThanOrEqual(600_000);
    expect(a.every((r) => r.Status === 400 && !r.Unauthenticated && r.Authenticated)).toBe(true);
    expect(a.at(-1)!.ID).toBe(Math.max(...(await whole(w)).map((r) => r.ID)));
    expect(await whole(w, '&Unauthenticated=true')).toEqual([]);
  });

  it('keeps each body up to 64 KiB, the request’s and the answer’s, so that an entry is at most about 128 KiB', async () => {
    w = makeWorld();
    const huge = `{"Payment":{"MerchantTransactionID":"${'y'.repeat(200_000)}"}}`;
    await request(w.api).post('/v1/payments').set('Authorization', authA).set('Content-Type', 'application/json').send(huge).expect(400);
    // An answer that echoes a body longer than the cap (a near miss's page would): cut at the cap too.
    const [entry] = await whole(w);
    expect(entry!.Request).toMatchObject({ Bytes: huge.length, CappedAt: BODY_CAP });
    expect(Buffer.byteLength(entry!.Request.Body!)).toBe(BODY_CAP);
    expect(Buffer.byteLength(entry!.Response.Body!)).toBeLessThanOrEqual(BODY_CAP);
    expect(entry!.StoredBytes).toBeLessThanOrEqual(2 * BODY_CAP + 1024);
  });

  it('B’s refused capture of A’s payment is B’s own entry: not on A’s dashboard page, in its story or in A’s journal', async () => {
    w = makeWorld();
    const p = await authorizedPayment(w);
    const secret = 'B-only-8d1f';
    const res = await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', authB).send({ Capture: { Amount: '1', Note: secret } });
    expect(res.status).toBe(404);

    const agent = await signedIn(w, A);
    const page = await agent.get(`/dashboard/payments/${p.ID}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(secret);
    expect(page.text).not.toContain(`/v1/payments/${p.ID}/capture`);
    const requestsPage = await agent.get('/dashboard/requests');
    expect(requestsPage.text).not.toContain(secret);
    expect((await own(w, A.SiteID, `&PaymentID=${p.ID}`)).map((r) => r.Route)).toEqual(['/v1/payments']);

    // B's own, on B's dashboard and journal; the whole sandbox's journal shows every entry.
    expect((await own(w, B.SiteID)).map((r) => `${r.Path} ${r.Status}`)).toEqual([`/v1/payments/${p.ID}/capture 404`]);
    expect((await (await signedIn(w, B)).get('/dashboard/requests')).text).toContain(secret);
    expect((await whole(w)).map((r) => `${r.SiteID} ${r.Path} ${r.Status}`)).toEqual([`${A.SiteID} /v1/payments 201`, `${B.SiteID} /v1/payments/${p.ID}/capture 404`]);
    // Nor in the payment's story, downloaded from A's dashboard or the control API: its refused calls are A's own.
    const refused = async () => [
      JSON.parse((await agent.get(`/dashboard/payments/${p.ID}/story`).expect(200)).text).Story.Refused.map((r: { Status: number }) => r.Status),
      (await request(w.api).get(`/_sandbox/payments/${p.ID}/story`).expect(200)).body.Story.Refused.map((r: { Status: number }) => r.Status),
    ];
    expect(await refused()).toEqual([[], []]);
    await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', authA).send({}).expect(200);
    await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', authA).send({}).expect(400);
    expect(await refused()).toEqual([[400], [400]]);
  });

  it('the whole sandbox’s journal shows every entry, the pool’s marked; Unauthenticated=false leaves them out', async () => {
    w = makeWorld();
    await request(w.api).get('/v1/payments').set('Authorization', authA).expect(200);
    await request(w.api).get('/v1/payments').set('Authorization', authB).expect(200);
    await request(w.api).get('/v1/payments').set('Authorization', wrongB).expect(401);
    await request(w.api).get('/v1/payments').expect(401);
    const all = await whole(w);
    expect(all.map((r) => [r.SiteID, r.Unauthenticated])).toEqual([
      [A.SiteID, false],
      [B.SiteID, false],
      [B.SiteID, true],
      [null, true],
    ]);
    expect((await whole(w, '&Unauthenticated=false')).map((r) => r.SiteID)).toEqual([A.SiteID, B.SiteID]);
    expect((await whole(w, '&Unauthenticated=true')).map((r) => r.SiteID)).toEqual([B.SiteID, null]);
    await request(w.api).get('/_sandbox/requests?Unauthenticated=maybe').expect(400);
  });

  it('a path that matched no route, with valid credentials, is the marketplace’s own near miss', async () => {
    w = makeWorld();
    await request(w.api).post('/v1/payment').set('Authorization', authB).send({}).expect(404);
    const [entry] = await own(w, B.SiteID);
    expect(entry).toMatchObject({ SiteID: B.SiteID, Authenticated: true, Unauthenticated: false, Route: null });
    expect(entry!.NearMiss).toContain('nearest POST /v1/payments');
  });

  it('a marketplace’s DELETE empties its own entries only: not another’s, nor the pool', async () => {
    w = makeWorld();
    await request(w.api).get('/v1/payments').set('Authorization', authA).expect(200);
    await request(w.api).get('/v1/payments').set('Authorization', authB).expect(200);
    await request(w.api).get('/v1/payments').set('Authorization', wrongB).expect(401);
    await request(w.api).delete(`/_sandbox/merchants/${B.SiteID}/requests`).expect(204);
    expect((await whole(w)).map((r) => [r.SiteID, r.Unauthenticated])).toEqual([
      [A.SiteID, false],
      [B.SiteID, true],
    ]);
  });
});

describe('the journal file’s quota in bytes', () => {
  let w: World;
  afterEach(() => w.close());

  it('holds all entries together under it: the owner holding the most gives way, a smaller one keeps every entry', async () => {
    w = makeWorld({ requestJournal: 1000, requestJournalBytes: 10_000_000, requestJournalUnauthenticatedBytes: 10_000_000, requestJournalFileBytes: 700_000 });
    await bWorks(w);
    const before = await ownText(w, B.SiteID);
    await flood(w, authA, 15, 400);
    const total = (await whole(w)).reduce((n, r) => n + r.StoredBytes, 0);
    expect(total).toBeLessThanOrEqual(700_000);
    expect(await ownText(w, B.SiteID)).toBe(before);
    const a = await own(w, A.SiteID);
    expect(a.length).toBeGreaterThan(0);
    expect(a.length).toBeLessThan(15);
    // A flood into the pool: the larger of the two gives way in turn, and B keeps every entry still.
    await flood(w, wrongB, 15, 401);
    const all = await whole(w);
    expect(all.reduce((n, r) => n + r.StoredBytes, 0)).toBeLessThanOrEqual(700_000);
    expect(await ownText(w, B.SiteID)).toBe(before);
    const health = (await request(w.api).get('/_sandbox/health')).body.RequestJournal;
    expect(health.StoredBytes).toBe(all.reduce((n, r) => n + r.StoredBytes, 0));
    expect(health.Quotas.FileStoredBytes).toBe(700_000);
  });

  it('an option out of range is an error naming it, and the sandbox is not made', () => {
    expect(() => makeWorld({ requestJournalBytes: 0 })).toThrow('requestJournalBytes must be a whole number of at least 1');
    expect(() => makeWorld({ requestJournalUnauthenticated: -1 })).toThrow('requestJournalUnauthenticated must be a whole number of at least 0');
    w = makeWorld();
  });
});

describe('a marketplace’s reset takes its own entries', () => {
  it('and not the pool’s that claimed its SiteID, nor another marketplace’s', async () => {
    const w = makeWorld();
    try {
      await request(w.api).get('/v1/payments').set('Authorization', authA).expect(200);
      await request(w.api).get('/v1/payments').set('Authorization', authB).expect(200);
      await request(w.api).get('/v1/payments').set('Authorization', wrongB).expect(401);
      await request(w.api).post(`/_sandbox/merchants/${B.SiteID}/reset`).expect(200);
      expect((await whole(w)).map((r) => [r.SiteID, r.Unauthenticated])).toEqual([
        [A.SiteID, false],
        [B.SiteID, true],
      ]);
    } finally {
      w.close();
    }
  });
});
