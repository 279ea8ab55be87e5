// The merchant sites API (/v1/merchantsites) as the official .NET SDK's website management flow calls
// it: its exact bodies, the status codes its integration tests expect, the new site's own key working
// at once (and the old one not after a regenerate or a delete), and isolation between marketplaces.
import request from 'supertest';
import { merchantSiteErrorResponse, merchantSiteResponse, merchantSitesResponse } from '../../src/schemas/merchant-sites';
import { MADE_SITES_MAX } from '../../src/services/merchant-sites.service';
import { LINKED, MARKETPLACE, PLAIN, START_STAMP, type World, basic, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

const UNAUTHORIZED = { Message: 'Authorization has been denied for this request.' };

/** What SDK-NET CreateWebsiteAsync sends for its integration test's site (Newtonsoft: ID 0, nulls, no Active while ID is 0). */
const SDK_CREATE =
  '{"MerchantSite":{"MerchantID":0,"ID":0,"Created":null,"URL":"http://www.test.com","NotificationURL":"http://www.test.com/notifications.node",' +
  '"ApiKey":null,"Alias":"Test website_sdk","IPList":null,"Details":{"Reasons":null,"Name":"Stichting Smart2Pay SDK","Country":"PL","City":"Warsaw",' +
  '"Email":"test@test.com","Address":"BRINK 27C","BankName":"ING","AccountIBAN":"PL641050008610000023537933350","AccountSWIFT":"1000002353794650",' +
  '"BankSWIFTID":"ABNDDEFFXXX","BankCode":"BTRLRO22","VATNumber":"34206701","RegistrationNumber":"NL 813236460B01","MCC":"7995","MainBusiness":"gaming"}}}';

/** What SDK-NET ChangeWebsiteAsync sends for its integration test's change. */
const SDK_CHANGE =
  '{"MerchantSite":{"MerchantID":0,"ID":0,"Created":null,"URL":"http://www.testupdate.com","NotificationURL":"http://www.test.com/notifications_update.node",' +
  '"ApiKey":null,"Alias":"Test website update","IPList":null,"Details":{"Reasons":null,"Name":"Stichting Smart2Pay update","Country":"PL","City":"Warsaw update",' +
  '"Email":"test@test.com","Address":"BRINK 27C update","BankName":"ING","AccountIBAN":"PL641050008610000023537933350","AccountSWIFT":"1000002353794650",' +
  '"BankSWIFTID":"ABNDDEFFXXX","BankCode":"BTRLRO22","VATNumber":"34206701","RegistrationNumber":"NL 813236460B01","MCC":"7995","MainBusiness":"gaming update"}}}';

const DETAILS_CREATED = {
  Reasons: null, Name: 'Stichting Smart2Pay SDK', Country: 'PL', City: 'Warsaw', Email: 'test@test.com', Address: 'BRINK 27C', BankName: 'ING',
  AccountIBAN: 'PL641050008610000023537933350', AccountSWIFT: '1000002353794650', BankSWIFTID: 'ABNDDEFFXXX', BankCode: 'BTRLRO22',
  VATNumber: '34206701', RegistrationNumber: 'NL 813236460B01', MCC: '7995', MainBusiness: 'gaming',
};
const DETAILS_CHANGED = { ...DETAILS_CREATED, Name: 'Stichting Smart2Pay update', City: 'Warsaw update', Address: 'BRINK 27C update', MainBusiness: 'gaming update' };

const MARKET_AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const NEW_SITE = 30301;

describe('merchant sites API', () => {
  let w: World;
  beforeEach(() => {
    w = makeWorld();
  });
  afterEach(() => w.close());

  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, auth: string, json?: string) => {
    const r = request(w.api)[method](path).set('Authorization', auth);
    return json === undefined ? r : r.set('Content-Type', 'application/json; charset=utf-8').send(json);
  };
  const create = (auth = MARKET_AUTH, json = SDK_CREATE) => call('post', '/v1/merchantsites', auth, json);

  it('runs the SDK’s whole flow: create 201, change 200, regenerate 200, list of one, delete 200, with the new site’s own keys', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    const key1 = created.body.MerchantSite.ApiKey as string;
    expect(created.body).toEqual({
      MerchantSite: {
        MerchantID: MARKETPLACE.SiteID,
        ID: NEW_SITE,
        Created: START_STAMP,
        URL: 'http://www.test.com',
        // Fidelity: documented as false when a create leaves it out, as this SDK always does.
        Active: false,
        NotificationURL: 'http://www.test.com/notifications.node',
        ApiKey: expect.stringMatching(/^[A-Za-z0-9+/]{40}$/),
        Alias: 'Test website_sdk',
        IPList: null,
        Details: DETAILS_CREATED,
      },
    });
    expectSchema(merchantSiteResponse, created.body);

    // The SDK goes on with the new site's own credentials.
    const own1 = basic(NEW_SITE, key1);
    const changed = await call('patch', `/v1/merchantsites/${NEW_SITE}`, own1, SDK_CHANGE);
    expect(changed.status).toBe(200);
    const afterChange = {
      ...created.body.MerchantSite,
      URL: 'http://www.testupdate.com',
      NotificationURL: 'http://www.test.com/notifications_update.node',
      Alias: 'Test website update',
      Details: DETAILS_CHANGED,
    };
    expect(changed.body).toEqual({ MerchantSite: afterChange });

    const regenerated = await call('post', `/v1/merchantsites/${NEW_SITE}/regenerateapikey`, own1);
    expect(regenerated.status).toBe(200);
    const key2 = regenerated.body.MerchantSite.ApiKey as string;
    expect(key2).not.toBe(key1);
    expect(regenerated.body).toEqual({ MerchantSite: { ...afterChange, ApiKey: key2 } });
    // The old key stops working at once.
    const old = await call('get', '/v1/merchantsites', own1);
    expect(old.status).toBe(401);
    expect(old.body).toEqual(UNAUTHORIZED);

    const own2 = basic(NEW_SITE, key2);
    // SDK-NET GetWebsiteAsync(siteId) asks for the list: the new site sees itself alone.
    const list = await call('get', '/v1/merchantsites', own2);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ MerchantSites: [{ ...afterChange, ApiKey: key2 }] });
    expectSchema(merchantSitesResponse, list.body);
    expect((await call('get', `/v1/merchantsites/${NEW_SITE}`, own2)).body).toEqual({ MerchantSite: { ...afterChange, ApiKey: key2 } });

    const deleted = await call('delete', `/v1/merchantsites/${NEW_SITE}`, own2);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ MerchantSite: { ...afterChange, ApiKey: key2 } });
    // A deleted site's key is refused, and its marketplace no longer has it.
    expect((await call('get', '/v1/merchantsites', own2)).status).toBe(401);
    expect((await call('get', `/v1/merchantsites/${NEW_SITE}`, MARKET_AUTH)).status).toBe(404);
    const marketList = await call('get', '/v1/merchantsites', MARKET_AUTH);
    expect(marketList.body.MerchantSites.map((s: { ID: number }) => s.ID)).toEqual([MARKETPLACE.SiteID, ...LINKED]);
  });

  it('lists a marketplace with its linked sites, each in the documented shape', async () => {
    const res = await call('get', '/v1/merchantsites/', MARKET_AUTH);
    expect(res.status).toBe(200);
    expectSchema(merchantSitesResponse, res.body);
    const [market, linked] = [res.body.MerchantSites[0], res.body.MerchantSites[1]];
    expect(market).toEqual({
      MerchantID: MARKETPLACE.SiteID, ID: MARKETPLACE.SiteID, Created: null, URL: null, Active: true, NotificationURL: null,
      ApiKey: MARKETPLACE.APIKey, Alias: expect.any(String), IPList: null, Details: expect.objectContaining({ Reasons: null, Name: expect.any(String), MCC: null }),
    });
    expect(linked).toMatchObject({ MerchantID: MARKETPLACE.SiteID, ID: LINKED[0], ApiKey: null, Active: true });
  });

  it('makes a site whose key works at once: its payments are its own, and its marketplace may name it in a split', async () => {
    const created = (await create()).body.MerchantSite;
    const own = basic(NEW_SITE, created.ApiKey);
    const pay = await request(w.api).post('/v1/payments').set('Authorization', own).send(paymentBody({ Splits: undefined }));
    expect(pay.status).toBe(201);
    expect(pay.body.Payment.SiteID).toBe(NEW_SITE);
    // Its payment is not its marketplace's, nor the other way round.
    expect((await request(w.api).get(`/v1/payments/${pay.body.Payment.ID}`).set('Authorization', MARKET_AUTH)).status).toBe(404);
    expect((await request(w.api).get(`/v1/payments/${pay.body.Payment.ID}`).set('Authorization', own)).status).toBe(200);
    const split = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', MARKET_AUTH)
      .send(paymentBody({ Splits: [{ SiteID: NEW_SITE, Amount: '600', MerchantTransactionID: 'to-new-site' }] }));
    expect(split.status).toBe(201);
    expect(split.body.Payment.Splits[0].SiteID).toBe(NEW_SITE);
    const linkedIds = async () => (await request(w.api).get(`/_sandbox/merchants/${MARKETPLACE.SiteID}`)).body.Merchant.LinkedSiteIDs;
    expect(await linkedIds()).toEqual([...LINKED, NEW_SITE]);
    // Deleted, it can no longer be named in a split.
    await call('delete', `/v1/merchantsites/${NEW_SITE}`, MARKET_AUTH).expect(200);
    const refused = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', MARKET_AUTH)
      .send(paymentBody({ Splits: [{ SiteID: NEW_SITE, Amount: '600', MerchantTransactionID: 'to-deleted-site' }] }));
    expect(refused.status).toBe(400);
    expect(await linkedIds()).toEqual([...LINKED]);
  });

  it('answers another marketplace’s site 404, as an unknown one, for every call, and changes nothing', async () => {
    const created = (await create()).body.MerchantSite;
    const other = (await request(w.api).post('/_sandbox/merchants').send({ LinkedSites: 0 })).body.Merchant;
    const otherAuth = basic(other.SiteID, other.APIKey);
    const before = snapshot(w.store);
    for (const id of [created.ID, MARKETPLACE.SiteID, LINKED[0], PLAIN.SiteID, 987654]) {
      for (const [method, path, body] of [
        ['get', `/v1/merchantsites/${id}`],
        ['patch', `/v1/merchantsites/${id}`, SDK_CHANGE],
        ['post', `/v1/merchantsites/${id}/regenerateapikey`],
        ['delete', `/v1/merchantsites/${id}`],
      ] as const) {
        const res = await call(method, path, otherAuth, body);
        expect({ method, id, status: res.status, body: res.body }).toEqual({ method, id, status: 404, body: { Message: 'MerchantSite not found.' } });
      }
    }
    expect((await call('get', '/v1/merchantsites', otherAuth)).body.MerchantSites.map((s: { ID: number }) => s.ID)).toEqual([other.SiteID]);
    expect(snapshot(w.store)).toBe(before);
    // A linked site sees itself only, not its marketplace's other sites.
    const ownKey = basic(created.ID, created.ApiKey);
    expect((await call('get', `/v1/merchantsites/${LINKED[0]}`, ownKey)).status).toBe(404);
  });

  it('refuses a bad body with reasons, a create without URL with reason 1, and a marketplace’s own delete with reason 11, changing nothing', async () => {
    const before = snapshot(w.store);
    // A field the API does not read is refused with --strict-fields (ignored without it).
    w.services.settings.strictFields = true;
    const unknownField = await create(MARKET_AUTH, '{"MerchantSite":{"URL":"http://a.example","Colour":"red"}}');
    w.services.settings.strictFields = false;
    expect(unknownField.status).toBe(400);
    expectSchema(merchantSiteErrorResponse, unknownField.body);
    expect(unknownField.body.MerchantSite.Reasons[0].Info).toContain('MerchantSite.Colour');
    const noUrl = await create(MARKET_AUTH, '{"MerchantSite":{"Alias":"x"}}');
    expect(noUrl.body).toEqual({ MerchantSite: { MerchantID: 0, ID: 0, InvalidRequestID: expect.any(String), Reasons: [{ Code: 1, Info: 'MerchantSite.URL is missing' }] } });
    const badUrl = await create(MARKET_AUTH, '{"MerchantSite":{"URL":"not a url"}}');
    expect(badUrl.status).toBe(400);
    const malformed = await create(MARKET_AUTH, '{"MerchantSite":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.MerchantSite.Reasons[0].Code).toBe(2);
    const self = await call('delete', `/v1/merchantsites/${MARKETPLACE.SiteID}`, MARKET_AUTH);
    expect(self.status).toBe(400);
    expect(self.body.MerchantSite.Reasons[0].Code).toBe(11);
    expect(snapshot(w.store)).toBe(before);
  });

  it(`makes ${MADE_SITES_MAX} sites for a marketplace at most, deleted ones counted; one more is refused with reason 11 and nothing is made; another marketplace is not held to it`, async () => {
    for (let i = 0; i < MADE_SITES_MAX; i++) {
      const made = await create(MARKET_AUTH, JSON.stringify({ MerchantSite: { URL: `http://shop-${i}.example` } }));
      expect(made.status).toBe(201);
      // Deleting a made site does not give its place back: its row stays.
      if (i % 2 === 0) expect((await call('delete', `/v1/merchantsites/${made.body.MerchantSite.ID}`, MARKET_AUTH)).status).toBe(200);
    }
    const before = snapshot(w.store);
    const over = await create(MARKET_AUTH, JSON.stringify({ MerchantSite: { URL: 'http://one-more.example' } }));
    expect(over.status).toBe(400);
    expectSchema(merchantSiteErrorResponse, over.body);
    expect(over.body.MerchantSite.Reasons).toEqual([{ Code: 11, Info: `Action is invalid: marketplace ${MARKETPLACE.SiteID} has made ${MADE_SITES_MAX} sites through this API (deleted ones count), the most a marketplace makes here` }]);
    expect(snapshot(w.store)).toBe(before);
    expect((await create(basic(PLAIN.SiteID, PLAIN.APIKey), JSON.stringify({ MerchantSite: { URL: 'http://plain.example' } }))).status).toBe(201);
  });

  it('answers 401 without valid credentials on every route', async () => {
    for (const [method, path] of [
      ['get', '/v1/merchantsites'],
      ['post', '/v1/merchantsites'],
      ['get', `/v1/merchantsites/${LINKED[0]}`],
      ['patch', `/v1/merchantsites/${LINKED[0]}`],
      ['post', `/v1/merchantsites/${LINKED[0]}/regenerateapikey`],
      ['delete', `/v1/merchantsites/${LINKED[0]}`],
    ] as const) {
      const res = await request(w.api)[method](path).set('Authorization', basic(MARKETPLACE.SiteID, 'wrong'));
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 401, body: UNAUTHORIZED });
    }
  });

  it('lets a marketplace change and re-key a linked site, which then authenticates with the new key', async () => {
    const patched = await call('patch', `/v1/merchantsites/${LINKED[0]}`, MARKET_AUTH, '{"MerchantSite":{"NotificationURL":"https://seller.example/n","Details":{"City":"Utrecht"}}}');
    expect(patched.status).toBe(200);
    expect(patched.body.MerchantSite).toMatchObject({ ID: LINKED[0], NotificationURL: 'https://seller.example/n', Created: null, Details: { City: 'Utrecht' } });
    expect(w.store.sites.get(LINKED[0])!.notificationUrl).toBe('https://seller.example/n');
    const keyed = await call('post', `/v1/merchantsites/${LINKED[0]}/regenerateapikey`, MARKET_AUTH);
    expect((await call('get', '/v1/merchantsites', basic(LINKED[0], keyed.body.MerchantSite.ApiKey))).status).toBe(200);
  });

  it('goes with its marketplace: removing the marketplace or resetting the sandbox takes the site, its payments and its key', async () => {
    const m = (await request(w.api).post('/_sandbox/merchants').send({ LinkedSites: 1 })).body.Merchant;
    const site = (await create(basic(m.SiteID, m.APIKey))).body.MerchantSite;
    expect(site).toMatchObject({ MerchantID: m.SiteID, ID: m.SiteID + 2 });
    const own = basic(site.ID, site.ApiKey);
    const pay = await request(w.api).post('/v1/payments').set('Authorization', own).send(paymentBody({ Splits: undefined }));
    expect(pay.status).toBe(201);
    await request(w.api).delete(`/_sandbox/merchants/${m.SiteID}`).expect(204);
    expect((await call('get', '/v1/merchantsites', own)).status).toBe(401);
    expect(w.store.payments.getAny(pay.body.Payment.ID)).toBeUndefined();
    expect(w.store.db.prepare('SELECT count(*) AS n FROM merchant_sites').get()).toEqual({ n: 0 });

    const again = (await create()).body.MerchantSite;
    await request(w.api).post('/_sandbox/reset').expect(200);
    expect((await call('get', '/v1/merchantsites', basic(again.ID, again.ApiKey))).status).toBe(401);
    expect((await call('get', '/v1/merchantsites', MARKET_AUTH)).body.MerchantSites.map((s: { ID: number }) => s.ID)).toEqual([MARKETPLACE.SiteID, ...LINKED]);
  });

  it('journals its calls like every /v1 route, with no key in them', async () => {
    const made = (await create()).body.MerchantSite;
    await call('post', `/v1/merchantsites/${NEW_SITE}/regenerateapikey`, MARKET_AUTH);
    const journal = await request(w.api).get('/_sandbox/requests');
    expect(journal.status).toBe(200);
    const mine = journal.body.Requests.filter((r: { Path: string }) => r.Path.startsWith('/v1/merchantsites'));
    expect(mine.map((r: Record<string, unknown>) => [r.Method, r.Route, r.SiteID, r.Status]).sort()).toEqual([
      ['POST', '/v1/merchantsites', MARKETPLACE.SiteID, 201],
      ['POST', '/v1/merchantsites/{siteId}/regenerateapikey', MARKETPLACE.SiteID, 200],
    ]);
    const text = JSON.stringify(journal.body);
    for (const key of [made.ApiKey, MARKETPLACE.APIKey, w.store.sites.get(NEW_SITE)!.apiKey!]) expect(text).not.toContain(key);
    expect(mine.map((r: { Response: { Body: string } }) => JSON.parse(r.Response.Body).MerchantSite.ApiKey)).toEqual(['…', '…']);
  });
});
