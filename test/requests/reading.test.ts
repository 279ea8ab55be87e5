// Reading the request journal: filters, count, one entry, clearing, the scoped reader, the lost
// answer, near misses and the cap.
import request from 'supertest';
import type { RequestEntry } from '../../src/requests/journal';
import { MARKETPLACE, PLAIN, START, type World, authorizedPayment, basic, createPayment, makeWorld, paymentBody } from '../helpers/world';

const noAnswer = (p: PromiseLike<unknown>) => Promise.resolve(p).then(() => 'answered', (e: NodeJS.ErrnoException) => `${e.code}: ${e.message}`);

async function page(w: World, query: string) {
  const res = await request(w.api).get(`/_sandbox/requests?${query}`);
  expect(res.status).toBe(200);
  return res.body as { Requests: RequestEntry[]; Count: number; TotalCount: number; TotalPages: number; PageIndex: number; PageSize: number; SortDirection: string };
}
const count = async (w: World, query: string) => {
  const res = await request(w.api).get(`/_sandbox/requests/count?${query}`);
  expect(res.status).toBe(200);
  return res.body.Count as number;
};

describe('GET /_sandbox/requests and /count', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('pages newest first like the notification journal, and filters by each field', async () => {
    const p = await authorizedPayment(w);
    const other = await createPayment(w);
    w.clock.advance(60_000);
    expect((await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth)).status).toBe(200);
    expect((await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth)).status).toBe(400);
    await request(w.api).get(`/v1/payments/${other.ID}`).set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey));
    await request(w.card).get('/v1/payments').set('Authorization', w.auth);
    // Refused: a captured payment is refunded once it succeeded.
    const refund = await request(w.api).post(`/v1/payments/${p.ID}/refunds`).set('Authorization', w.auth).send({ Refund: { MerchantTransactionID: 'r', Amount: 10 } });

    expect(refund.status).toBe(400);
    const all = await page(w, 'PageSize=3');
    expect([all.Count, all.TotalCount, all.TotalPages, all.PageIndex, all.PageSize, all.SortDirection]).toEqual([3, 7, 3, 1, 3, 'desc']);
    expect(all.Requests.map((r) => r.ID)).toEqual([...all.Requests.map((r) => r.ID)].sort((a, b) => b - a));
    const asc = await page(w, 'SortDirection=asc&PageSize=1&PageIndex=2');
    expect(asc.Requests[0]).toMatchObject({ Method: 'POST', Path: '/v1/payments', PaymentID: other.ID });

    const captures = `Route=${encodeURIComponent('/v1/payments/{id}/capture')}`;
    expect(await count(w, `${captures}&PaymentID=${p.ID}`)).toBe(2);
    expect(await count(w, `${captures}&PaymentID=${p.ID}&Status=200`)).toBe(1);
    expect(await count(w, `ReasonCode=17`)).toBe(1);
    expect(await count(w, `Path=/v1/payments/${p.ID}/capture`)).toBe(2);
    expect(await count(w, `Method=post`)).toBe(5);
    expect(await count(w, `SiteID=${PLAIN.SiteID}`)).toBe(1);
    expect(await count(w, `SiteID=${MARKETPLACE.SiteID}`)).toBe(6);
    expect(await count(w, `Address=card`)).toBe(1);
    expect(await count(w, `Since=20260115100100`)).toBe(5);
    expect(await count(w, `Until=20260115100059`)).toBe(2);
    expect(await count(w, `Status=404`)).toBe(1);
    // Another marketplace's payment, read by PLAIN: the one near miss ("no payment … of yours").
    expect(await count(w, `NearMiss=false`)).toBe(6);
    // Names in any case, as the other control routes take them.
    expect(await count(w, `paymentid=${p.ID}&status=400&${captures.toLowerCase()}`)).toBe(1);
  });

  it('answers one entry by ID, 404 for none, and refuses a filter of the wrong kind', async () => {
    await createPayment(w);
    const [entry] = (await page(w, '')).Requests;
    expect((await request(w.api).get(`/_sandbox/requests/${entry!.ID}`)).body).toEqual({ Request: entry });
    expect((await request(w.api).get(`/_sandbox/requests/${entry!.ID + 1}`)).body).toEqual({ Message: 'Request not found.' });
    for (const [q, message] of [
      ['PaymentID=abc', 'PaymentID must be a whole number'],
      ['Status=-1', 'Status must be a whole number'],
      ['Since=yesterday', 'Since must be a sandbox time as yyyyMMddHHmmss'],
      ['Address=moon', 'Address must be api or card'],
      ['NearMiss=maybe', 'NearMiss must be true or false'],
      ['Method=P%20ST', 'Method must be an HTTP method such as POST'],
      ['PageSize=0', 'PageSize must be a whole number from 1 to 1000'],
    ]) {
      const res = await request(w.api).get(`/_sandbox/requests?${q}`);
      expect([q, res.status, res.body]).toEqual([q, 400, { Message: message }]);
    }
  });

  it('DELETE empties it', async () => {
    await createPayment(w);
    expect((await request(w.api).delete('/_sandbox/requests')).status).toBe(204);
    expect(await count(w, '')).toBe(0);
  });

  it('scoped to one marketplace: its own entries and its linked sites’, with the same filters; another’s entry is a 404', async () => {
    await createPayment(w);
    await request(w.api).get('/v1/payments').set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey));
    const mine = await request(w.api).get(`/_sandbox/merchants/${MARKETPLACE.SiteID}/requests?Method=POST`);
    expect(mine.body.Requests.map((r: RequestEntry) => [r.SiteID, r.Method, r.Path])).toEqual([[MARKETPLACE.SiteID, 'POST', '/v1/payments']]);
    expect((await request(w.api).get(`/_sandbox/merchants/${PLAIN.SiteID}/requests/count`)).body).toEqual({ Count: 1 });
    const plainEntry = (await request(w.api).get(`/_sandbox/merchants/${PLAIN.SiteID}/requests`)).body.Requests[0] as RequestEntry;
    expect((await request(w.api).get(`/_sandbox/merchants/${MARKETPLACE.SiteID}/requests/${plainEntry.ID}`)).status).toBe(404);
    expect((await request(w.api).get(`/_sandbox/merchants/${PLAIN.SiteID}/requests/${plainEntry.ID}`)).body).toEqual({ Request: plainEntry });
    expect((await request(w.api).get(`/_sandbox/merchants/30202/requests`)).body).toEqual({ Message: 'Merchant not found.' });
    expect((await request(w.api).delete(`/_sandbox/merchants/${PLAIN.SiteID}/requests`)).status).toBe(204);
    expect(await count(w, '')).toBe(1);
  });

  it('scoped: a marketplace reads its own journal with its own Basic credentials; another’s credentials get a 404', async () => {
    await createPayment(w);
    const own = await request(w.api).get(`/_sandbox/merchants/${MARKETPLACE.SiteID}/requests/count`).set('Authorization', w.auth);
    expect([own.status, own.body]).toEqual([200, { Count: 1 }]);
    const other = await request(w.api).get(`/_sandbox/merchants/${MARKETPLACE.SiteID}/requests`).set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey));
    expect([other.status, other.body]).toEqual([404, { Message: 'Merchant not found.' }]);
  });
});

describe('what the journal tells', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('a lost answer: the committed create, then the client’s retry refused with reason 20', async () => {
    const body = paymentBody({ MerchantTransactionID: 'order-lost' });
    expect(await noAnswer(request(w.api).post('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', 'lose-answer').send(body))).toBe('ECONNRESET: socket hang up');
    const retry = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);
    expect(retry.status).toBe(400);
    const [first, second] = (await page(w, 'SortDirection=asc')).Requests;
    const created = w.store.db.prepare(`SELECT id FROM payments WHERE merchant_transaction_id = 'order-lost'`).pluck().get();
    expect([first!.Status, first!.PaymentID, first!.Fault, first!.ReasonCodes]).toEqual([201, created, 'answer lost after the commit by X-Sandbox-Fault', []]);
    expect(JSON.parse(first!.Response.Body!).Payment.ID).toBe(created);
    expect([second!.Status, second!.ReasonCodes, second!.Fault]).toEqual([400, [20], null]);
    expect(second!.Request.Body).toBe(first!.Request.Body);
  });

  it('a fault’s own answer and a reset connection are kept with the fault', async () => {
    await request(w.api).get('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', '503');
    await noAnswer(request(w.api).get('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', 'reset'));
    const [a, b] = (await page(w, 'SortDirection=asc')).Requests;
    expect([a!.Status, a!.Fault, a!.Response.Body]).toEqual([503, 'answered 503 by X-Sandbox-Fault', '{"Message":"An error has occurred."}']);
    expect([b!.Status, b!.Fault, b!.Response.Body]).toEqual([null, 'connection reset by X-Sandbox-Fault', null]);
  });

  it('near misses: a wrong path, the other address, a wrong key; the wire answers stay as they were', async () => {
    const typo = await request(w.api).post('/v1/payment').set('Authorization', w.auth).send(paymentBody());
    expect([typo.status, typo.body]).toEqual([404, { Message: "No HTTP resource was found that matches the request URI '/v1/payment'." }]);
    const p = await createPayment(w);
    const wrongAddress = await request(w.card).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth);
    expect([wrongAddress.status, wrongAddress.body]).toEqual([404, { Message: 'Payment not found.' }]);
    const splitsOnCard = await request(w.card).post(`/v1/payments/${p.ID}/splits`).set('Authorization', w.auth).send({ Splits: [] });
    expect(splitsOnCard.status).toBe(404);
    const wrongKey = await request(w.api).get('/v1/payments').set('Authorization', basic(MARKETPLACE.SiteID, 'guess'));
    expect([wrongKey.status, wrongKey.body]).toEqual([401, { Message: 'Authorization has been denied for this request.' }]);
    await request(w.api).get('/v1/payments').set('Authorization', basic(99999, 'guess'));
    await request(w.api).get('/v1/payments');
    await request(w.api).get('/v1/nothing/here/at/all').set('Authorization', w.auth);

    const misses = (await page(w, 'NearMiss=true&SortDirection=asc')).Requests.map((r) => r.NearMiss);
    expect(misses).toEqual([
      'POST /v1/payment: no such route; nearest POST /v1/payments',
      `GET /v1/payments/${p.ID} on the card address: that payment is on the API address`,
      `POST /v1/payments/${p.ID}/splits on the card address: no such route; POST /v1/payments/{id}/splits is on the API address`,
      `SiteID ${MARKETPLACE.SiteID}: wrong APIKey`,
      'SiteID 99999: no such site',
      'no Authorization header',
      'GET /v1/nothing/here/at/all: no such route',
    ]);
    expect(JSON.stringify((await page(w, '')).Requests)).not.toContain('guess');
  });

  it('the log line of a near miss says what was nearest', async () => {
    const lines: string[] = [];
    const { createApp } = await import('../../src/http/app');
    const { createLogger } = await import('../../src/log');
    const log = createLogger('info', 'json', (line: string) => lines.push(line));
    const app = createApp({ ...w.ctx, log }, 'api');
    await request(app).post('/v1/payment').set('Authorization', w.auth).send({});
    expect(lines.some((l) => l.includes('no such route; nearest POST /v1/payments'))).toBe(true);
  });
});

describe('entries written together', () => {
  it('take consecutive IDs in the order given, 16 to a statement and the rest one by one', () => {
    const w = makeWorld();
    try {
      const entry = (i: number) => ({
        at: START, wallAt: START, address: 'api' as const, method: 'GET', path: `/v1/payments/${i}`, query: null, route: '/v1/payments/{id}', siteId: 30201,
        authenticated: true, paymentId: i, refundId: null, splitId: null, status: 200, reasons: [], durationMs: 1, fault: null, nearMiss: null,
        requestBody: null, requestBytes: 0, responseBody: i % 2 === 0 ? `{"n":${i}}` : Buffer.from(`{"n":${i}}`), responseBytes: 8, ownerSiteId: 30201,
      });
      const ids = w.store.tx(() => w.store.requests.addAll(Array.from({ length: 37 }, (_, i) => entry(i))));
      expect(ids).toHaveLength(37);
      const rows = ids.map((id) => w.store.requests.get(id)!);
      expect(rows.map((r) => [r.path, r.responseBody])).toEqual(Array.from({ length: 37 }, (_, i) => [`/v1/payments/${i}`, `{"n":${i}}`]));
      expect(ids).toEqual(Array.from({ length: 37 }, (_, i) => ids[0]! + i));
    } finally {
      w.close();
    }
  });
});

describe('--request-journal <n>', () => {
  it('keeps the newest n: 150 requests with 100 leave the newest 100', async () => {
    const w = makeWorld({ requestJournal: 100 });
    try {
      for (let i = 0; i < 150; i++) await request(w.api).get(`/v1/payments?page=${i}`).set('Authorization', w.auth);
      const kept = (await page(w, 'PageSize=1000&SortDirection=asc')).Requests;
      expect(kept.length).toBe(100);
      expect(kept.map((r) => r.Query)).toEqual(Array.from({ length: 100 }, (_, i) => `page=${i + 50}`));
    } finally {
      w.close();
    }
  });

  it('is emptied by a reset, and keeps the time it was made at', async () => {
    const w = makeWorld();
    try {
      await createPayment(w);
      expect((await page(w, '')).Requests[0]!.AtMs).toBe(START);
      await request(w.api).post('/_sandbox/reset');
      expect(await count(w, '')).toBe(0);
    } finally {
      w.close();
    }
  });
});
