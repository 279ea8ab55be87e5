// Near misses the journal names: a wrong base path on either address, a create body sent to the
// other address, a path ID that is no number, and a payment that is not the caller's (whose it is
// said to the whole sandbox's journal only).
import request from 'supertest';
import type { RequestEntry } from '../../src/requests/journal';
import { withApiBase } from '../../src/requests/near-miss';
import { MARKETPLACE, PLAIN, type World, basic, createPayment, makeWorld, paymentBody } from '../helpers/world';

const plainAuth = basic(PLAIN.SiteID, PLAIN.APIKey);

const cardBody = () => ({
  Payment: {
    MerchantTransactionID: 'card-1',
    Amount: 2000,
    Currency: 'EUR',
    ReturnURL: 'https://shop.example/card-return',
    Customer: { Email: 'payer@example.com' },
    BillingAddress: { Country: 'NL' },
    Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '7319' },
  },
});

async function whole(w: World, query = ''): Promise<RequestEntry[]> {
  const res = await request(w.api).get(`/_sandbox/requests?SortDirection=asc&${query}`);
  expect(res.status).toBe(200);
  return res.body.Requests as RequestEntry[];
}

/** A marketplace's own journal, read with its own credentials. */
async function own(w: World, siteId: number, auth: string): Promise<RequestEntry[]> {
  const res = await request(w.api).get(`/_sandbox/merchants/${siteId}/requests?SortDirection=asc`).set('Authorization', auth);
  expect(res.status).toBe(200);
  return res.body.Requests as RequestEntry[];
}

const notFoundUri = (uri: string) => ({ Message: `No HTTP resource was found that matches the request URI '${uri}'.` });

describe('a request no route takes in, off the API’s paths', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('is journaled with the route meant, attributed by its credentials; the wire answer stays the 404 it was', async () => {
    const p = await createPayment(w);
    const v2 = await request(w.api).get(`/v2/payments/${p.ID}`).set('Authorization', w.auth);
    expect([v2.status, v2.body]).toEqual([404, notFoundUri(`/v2/payments/${p.ID}`)]);
    const prefixed = await request(w.api).get(`/api/v1/payments/${p.ID}`).set('Authorization', w.auth);
    expect([prefixed.status, prefixed.body]).toEqual([404, notFoundUri(`/api/v1/payments/${p.ID}`)]);

    const [, a, b] = await own(w, MARKETPLACE.SiteID, w.auth);
    expect([a!.Method, a!.Path, a!.Route, a!.Status, a!.SiteID, a!.Address]).toEqual(['GET', `/v2/payments/${p.ID}`, null, 404, MARKETPLACE.SiteID, 'api']);
    expect(a!.NearMiss).toBe(`GET /v2/payments/${p.ID} matches no route; did you mean GET /v1/payments/{id}? Paths begin /v1, right after the host`);
    expect(b!.NearMiss).toBe(`GET /api/v1/payments/${p.ID} matches no route; did you mean GET /v1/payments/{id}? Paths begin /v1, right after the host`);
    expect(a!.Response.Body).toBe(JSON.stringify(notFoundUri(`/v2/payments/${p.ID}`)));
  });

  it('on the card address too, and a route of the other address is named with it', async () => {
    expect((await request(w.card).get('/api/v1/payments/5').set('Authorization', plainAuth)).status).toBe(404);
    expect((await request(w.card).post('/v2/payments/5/splits').set('Authorization', plainAuth).send({ Splits: [] })).status).toBe(404);
    const [get, splits] = await own(w, PLAIN.SiteID, plainAuth);
    expect([get!.Address, get!.SiteID, get!.NearMiss]).toEqual(['card', PLAIN.SiteID, 'GET /api/v1/payments/5 matches no route; did you mean GET /v1/payments/{id}? Paths begin /v1, right after the host']);
    expect(splits!.NearMiss).toBe('POST /v2/payments/5/splits on the card address matches no route; did you mean POST /v1/payments/{id}/splits on the API address?');
  });

  it('without credentials it goes to the unauthenticated pool', async () => {
    expect((await request(w.api).get('/payments')).status).toBe(404);
    const [e] = await whole(w);
    expect([e!.Path, e!.SiteID, e!.Unauthenticated, e!.NearMiss]).toEqual(['/payments', null, true, 'GET /payments matches no route; did you mean GET /v1/payments? Paths begin /v1, right after the host']);
  });

  it('the control API, the dashboard, the payment page and a matched route are not journaled', async () => {
    for (const path of ['/_sandbox/nothing', '/dashboard/nothing', '/Home/nothing', '/favicon.ico']) {
      expect((await request(w.api).get(path).set('Authorization', w.auth)).status).toBeGreaterThanOrEqual(300);
    }
    expect((await request(w.api).get('/v1/methods').set('Authorization', w.auth)).status).toBe(200);
    const logo = await request(w.api).get('/images/methods/1.png');
    expect(logo.status).toBeLessThan(500);
    expect((await whole(w)).map((e) => e.Path)).toEqual(['/v1/methods']);
  });

  it('puts the base right only where the path has another one', () => {
    expect(withApiBase('/v2/payments/5')).toBe('/v1/payments/5');
    expect(withApiBase('/api/v1/payments/5/capture')).toBe('/v1/payments/5/capture');
    expect(withApiBase('/payments')).toBe('/v1/payments');
    expect(withApiBase('/v1/payment')).toBeUndefined();
    expect(withApiBase('/V1/Payments/')).toBeUndefined();
    expect(withApiBase('/')).toBeUndefined();
  });
});

describe('near misses that say what went wrong', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('a split payment’s body on the card address: send it to the API address', async () => {
    const res = await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(paymentBody());
    expect(res.status).toBe(400);
    const [e] = await whole(w);
    expect(e!.NearMiss).toBe(
      'POST /v1/payments on the card address: Payment.MethodID 42 is not the card method (6): this looks like a body for the API address (split payments and every other method); send it there',
    );
  });

  it('a card payment’s body on the API address: send it to the card address (ignored, or refused with --strict-fields)', async () => {
    expect((await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(cardBody())).status).toBe(201);
    const strict = makeWorld({ strictFields: true });
    try {
      const refused = await request(strict.api).post('/v1/payments').set('Authorization', strict.auth).send(cardBody());
      expect([refused.status, refused.body.Payment.Status.Reasons[0].Info]).toEqual([400, 'Payment.Card is not a known field']);
      const note = "POST /v1/payments on the API address: Payment.Card makes it a card payment's body; send card payments to the card address";
      expect((await whole(strict))[0]!.NearMiss).toBe(note);
      expect((await whole(w))[0]!.NearMiss).toBe(note);
    } finally {
      strict.close();
    }
  });

  it('a payment ID that is no number, on either address', async () => {
    expect((await request(w.api).get('/v1/payments/abc').set('Authorization', w.auth)).status).toBe(404);
    expect((await request(w.card).post('/v1/payments/abc/capture').set('Authorization', w.auth)).status).toBe(404);
    const p = await createPayment(w);
    expect((await request(w.api).get(`/v1/payments/${p.ID}/refunds/x1`).set('Authorization', w.auth)).status).toBe(404);
    expect((await whole(w, 'Status=404')).map((e) => e.NearMiss)).toEqual([
      'GET /v1/payments/abc: "abc" is not a payment ID; payment IDs are whole numbers',
      'POST /v1/payments/abc/capture: "abc" is not a payment ID; payment IDs are whole numbers',
      `GET /v1/payments/${p.ID}/refunds/x1: "x1" is not a refund ID; refund IDs are whole numbers`,
    ]);
  });

  it('another marketplace’s payment: "no payment of yours", said as of one that does not exist; the whole journal names the owner', async () => {
    const theirs = await createPayment(w);
    const missing = theirs.ID + 1000;
    for (const path of [`/v1/payments/${theirs.ID}`, `/v1/payments/${missing}`, `/v1/payments/${theirs.ID}/refunds`]) {
      const res = await request(w.api).get(path).set('Authorization', plainAuth);
      expect([res.status, res.body]).toEqual([404, { Message: 'Payment not found.' }]);
    }
    const seen = (await own(w, PLAIN.SiteID, plainAuth)).map((e) => e.NearMiss);
    expect(seen).toEqual([
      `GET /v1/payments/${theirs.ID}: no payment ${theirs.ID} of yours`,
      `GET /v1/payments/${missing}: no payment ${missing} of yours`,
      `GET /v1/payments/${theirs.ID}/refunds: no payment ${theirs.ID} of yours`,
    ]);
    // One entry read alone says no more.
    const id = (await own(w, PLAIN.SiteID, plainAuth))[0]!.ID;
    const one = await request(w.api).get(`/_sandbox/merchants/${PLAIN.SiteID}/requests/${id}`).set('Authorization', plainAuth);
    expect(one.body.Request.NearMiss).toBe(`GET /v1/payments/${theirs.ID}: no payment ${theirs.ID} of yours`);
    expect(JSON.stringify(await own(w, PLAIN.SiteID, plainAuth))).not.toContain(String(MARKETPLACE.SiteID));

    const all = (await whole(w, `SiteID=${PLAIN.SiteID}`)).map((e) => e.NearMiss);
    expect(all).toEqual([
      `GET /v1/payments/${theirs.ID}: no payment ${theirs.ID} of yours; payment ${theirs.ID} is marketplace ${MARKETPLACE.SiteID}'s (SiteID ${theirs.SiteID})`,
      `GET /v1/payments/${missing}: no payment ${missing} of yours; there is no payment ${missing} at all`,
      `GET /v1/payments/${theirs.ID}/refunds: no payment ${theirs.ID} of yours; payment ${theirs.ID} is marketplace ${MARKETPLACE.SiteID}'s (SiteID ${theirs.SiteID})`,
    ]);
    const wholeOne = await request(w.api).get(`/_sandbox/requests/${id}`);
    expect(wholeOne.body.Request.NearMiss).toContain(`is marketplace ${MARKETPLACE.SiteID}'s`);
  });
});
