// Authentication (CONTRACT.md "Authentication"): Basic base64("<SiteID>:<APIKey>") on both addresses.
import request from 'supertest';
import type { Express } from 'express';
import { DEFAULT_FIXTURES_DIR, loadFixtures, readFixtures } from '../../src/fixtures';
import { Store } from '../../src/store/store';
import { messageResponse, paymentResponse } from '../../src/schemas/responses';
import {
  MARKETPLACE,
  PLAIN,
  type WirePayment,
  type World,
  authorizedPayment,
  basic,
  expectSchema,
  makeWorld,
  paymentBody,
  snapshot,
} from '../helpers/world';
import { keptWorld } from '../helpers/kept-world';

const DENIED = { Message: 'Authorization has been denied for this request.' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Every kind of bad Authorization header, with undefined meaning "no header at all". */
const BAD_HEADERS: [string, string | undefined][] = [
  ['no Authorization header', undefined],
  ['an empty header', ''],
  ['the Bearer scheme', `Bearer ${b64(`${MARKETPLACE.SiteID}:${MARKETPLACE.APIKey}`)}`],
  ['the scheme without credentials', 'Basic'],
  ['the scheme followed by spaces only', 'Basic    '],
  ['credentials without the scheme', b64(`${MARKETPLACE.SiteID}:${MARKETPLACE.APIKey}`)],
  ['credentials that are not base64', 'Basic !!!not-base64!!!'],
  ['base64 with trailing garbage', `Basic ${b64(`${MARKETPLACE.SiteID}:${MARKETPLACE.APIKey}`)} extra`],
  ['credentials in clear text', `Basic ${MARKETPLACE.SiteID}:${MARKETPLACE.APIKey}`],
  ['a pair without a colon', `Basic ${b64(`${MARKETPLACE.SiteID}${MARKETPLACE.APIKey}`)}`],
  ['a pair without a SiteID', `Basic ${b64(`:${MARKETPLACE.APIKey}`)}`],
  ['a non-numeric SiteID', `Basic ${b64(`site30201:${MARKETPLACE.APIKey}`)}`],
  ['the right SiteID with an empty key', basic(MARKETPLACE.SiteID, '')],
  ['the right SiteID with a wrong key', basic(MARKETPLACE.SiteID, 'wrong-key')],
  ['the right SiteID with the key in another case', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey.toLowerCase())],
  ['the right SiteID with a prefix of the key', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey.slice(0, -1))],
  ['the right SiteID with the key and more', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey + 'x')],
  ['another site\'s key', basic(MARKETPLACE.SiteID, PLAIN.APIKey)],
  ['an unknown site', basic(99999, MARKETPLACE.APIKey)],
  ['a SiteID too large to exist', basic(99999999999 as number, MARKETPLACE.APIKey)],
  ['a linked site, which has no key', basic(30202, MARKETPLACE.APIKey)],
  ['a linked site with an empty key', basic(30203, '')],
];

function withAuth(req: request.Test, header: string | undefined): request.Test {
  return header === undefined ? req : req.set('Authorization', header);
}

function expectDenied(res: request.Response): void {
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toBe('Basic');
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.body).toEqual(DENIED);
  expect(res.text).toBe(JSON.stringify(DENIED));
  expectSchema(messageResponse, res.body);
}

describe('authentication on the API address', () => {
  let w: World;
  let paymentId: number;
  let splitId: number;
  // A denied request changes nothing: the world and its payment serve test after test while so.
  const world = keptWorld((w) => authorizedPayment(w));
  beforeEach(async () => {
    let p: WirePayment;
    ({ w, made: p } = await world());
    paymentId = p.ID;
    splitId = p.Splits[0]!.ID;
  });

  /** Every route of the API address, each with a body it would accept. */
  const routes = (): [string, (app: Express) => request.Test][] => [
    ['POST /v1/payments', (app) => request(app).post('/v1/payments').send(paymentBody())],
    ['GET /v1/payments', (app) => request(app).get('/v1/payments')],
    ['GET /v1/payments/{id}', (app) => request(app).get(`/v1/payments/${paymentId}`)],
    ['POST /v1/payments/{id}/capture', (app) => request(app).post(`/v1/payments/${paymentId}/capture`)],
    ['POST /v1/payments/{id}/cancel', (app) => request(app).post(`/v1/payments/${paymentId}/cancel`)],
    [
      'POST /v1/payments/{id}/splits',
      (app) =>
        request(app)
          .post(`/v1/payments/${paymentId}/splits`)
          .send({ Splits: [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 'late' }] }),
    ],
    ['POST /v1/payments/{id}/splits/{sid}/capture', (app) => request(app).post(`/v1/payments/${paymentId}/splits/${splitId}/capture?amount=100`)],
    [
      'POST /v1/payments/{id}/splits/{sid}/refunds',
      (app) => request(app).post(`/v1/payments/${paymentId}/splits/${splitId}/refunds`).send({ Refund: { Amount: 1 } }),
    ],
  ];

  describe.each(BAD_HEADERS)('with %s', (_name, header) => {
    it('answers 401 on every route, with WWW-Authenticate: Basic and the denial message, and changes nothing', async () => {
      const before = snapshot(w.store);
      for (const [, make] of routes()) {
        expectDenied(await withAuth(make(w.api), header));
      }
      expect(snapshot(w.store)).toBe(before);
    });
  });

  it('answers 401 before reading the body: malformed JSON without credentials is not a 400', async () => {
    const before = snapshot(w.store);
    for (const path of ['/v1/payments', `/v1/payments/${paymentId}/capture`, `/v1/payments/${paymentId}/splits`, `/v1/payments/${paymentId}/splits/${splitId}/refunds`]) {
      expectDenied(await request(w.api).post(path).set('Content-Type', 'application/json').send('{"Payment":'));
    }
    expect(snapshot(w.store)).toBe(before);
  });

  it('answers 401 for a foreign or unknown payment ID before telling whether it exists', async () => {
    expectDenied(await request(w.api).get('/v1/payments/999999999'));
    expectDenied(await request(w.api).get(`/v1/payments/${paymentId}`).set('Authorization', basic(PLAIN.SiteID, 'nope')));
  });

  it('accepts the marketplace credentials, whose key holds + / and =', async () => {
    expect(MARKETPLACE.APIKey).toMatch(/[+/=]/);
    const res = await request(w.api).get(`/v1/payments/${paymentId}`).set('Authorization', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey));
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
  });

  it('accepts the scheme name in any case', async () => {
    const token = b64(`${MARKETPLACE.SiteID}:${MARKETPLACE.APIKey}`);
    for (const scheme of ['basic', 'BASIC', 'Basic']) {
      const res = await request(w.api).get(`/v1/payments/${paymentId}`).set('Authorization', `${scheme} ${token}`);
      expect(res.status).toBe(200);
    }
  });

  it('splits the pair at the first colon only, so a key may contain colons', async () => {
    const key = 'k:ey+with/colons==:and:more';
    w.store.sites.insert({ siteId: 30777, apiKey: key, name: 'Colon Shop', marketplaceSiteId: null, notificationUrl: null, defaultScenario: null });
    const ok = await request(w.api).post('/v1/payments').set('Authorization', basic(30777, key)).send(paymentBody({ Splits: undefined }));
    expect(ok.status).toBe(201);
    expect(ok.body.Payment.SiteID).toBe(30777);
    const listed = await request(w.api).get('/v1/payments').set('Authorization', basic(30777, key));
    expect(listed.status).toBe(200);
    expect(listed.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([ok.body.Payment.ID]);
    // Only the part before the first colon is the SiteID; the rest, colons included, is the key.
    for (const wrong of ['k', 'k:ey+with/colons==', 'k:ey+with/colons==:and', ':ey+with/colons==:and:more']) {
      expectDenied(await request(w.api).get('/v1/payments').set('Authorization', basic(30777, wrong)));
    }
  });

  it('decodes the pair as UTF-8, so a key with non-ASCII characters works', async () => {
    const key = 'clé-ß-密钥+/=';
    w.store.sites.insert({ siteId: 30778, apiKey: key, name: 'Unicode Shop', marketplaceSiteId: null, notificationUrl: null, defaultScenario: null });
    expect((await request(w.api).get('/v1/payments').set('Authorization', basic(30778, key))).status).toBe(200);
    expectDenied(await request(w.api).get('/v1/payments').set('Authorization', basic(30778, 'cle-ss-密钥+/=')));
  });

  it('accepts the exact header of the real docs example (30201 with a key full of + and /)', async () => {
    // The docs' pair is SiteID 30201 with this key; load the fixtures with that key for 30201.
    const store = Store.open(':memory:');
    const fx = readFixtures(DEFAULT_FIXTURES_DIR);
    fx.merchants.find((m) => m.SiteID === 30201)!.APIKey = '+9KeGzKF7W8S/79a5R33YJUg7E7WFNcZbjGfzLV3bXSnFCOyFt';
    loadFixtures(store, fx);
    const docs = makeWorld({}, store);
    try {
      const header = 'Basic MzAyMDE6KzlLZUd6S0Y3VzhTLzc5YTVSMzNZSlVnN0U3V0ZOY1piakdmekxWM2JYU25GQ095RnQ=';
      const res = await request(docs.api).get('/v1/payments').set('Authorization', header);
      expect(res.status).toBe(200);
      expectDenied(await request(docs.api).get('/v1/payments').set('Authorization', docs.auth));
    } finally {
      docs.close();
    }
  });

  it('gives a 401 to a site whose key the store does not have, whatever key is sent', async () => {
    w.store.sites.insert({ siteId: 30779, apiKey: null, name: 'Keyless', marketplaceSiteId: null, notificationUrl: null, defaultScenario: null });
    for (const key of ['', 'null', 'x']) {
      expectDenied(await request(w.api).get('/v1/payments').set('Authorization', basic(30779, key)));
    }
  });

  it('does not hold a 401 against the next request with good credentials', async () => {
    expectDenied(await request(w.api).get('/v1/payments').set('Authorization', basic(MARKETPLACE.SiteID, 'bad')));
    expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status).toBe(200);
  });
});

describe('authentication on the card address', () => {
  let w: World;
  const world = keptWorld();
  beforeEach(async () => ({ w } = await world()));

  const cardBody = () => ({
    Payment: {
      MerchantTransactionID: 'card-auth-1',
      Amount: 2000,
      Currency: 'EUR',
      Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '312' },
    },
  });

  describe.each(BAD_HEADERS)('with %s', (_name, header) => {
    it('answers 401 on create, get and list, and changes nothing', async () => {
      const before = snapshot(w.store);
      expectDenied(await withAuth(request(w.card).post('/v1/payments').send(cardBody()), header));
      expectDenied(await withAuth(request(w.card).get('/v1/payments'), header));
      expectDenied(await withAuth(request(w.card).get('/v1/payments?limit=5&offset=0'), header));
      expectDenied(await withAuth(request(w.card).get('/v1/payments/1'), header));
      expect(snapshot(w.store)).toBe(before);
    });
  });

  it('answers 401 to malformed JSON without credentials', async () => {
    expectDenied(await request(w.card).post('/v1/payments').set('Content-Type', 'application/json').send('{oops'));
  });

  it('accepts the same credentials as the API address', async () => {
    const res = await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(cardBody());
    expect(res.status).toBe(201);
    expect(res.body.Payment.SiteID).toBe(MARKETPLACE.SiteID);
  });
});
