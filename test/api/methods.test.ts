// The methods API, as shop plugins call it: the catalogue, one method, the methods assigned to a site;
// method logos served by the sandbox; merchants given their own methods; reason 9 for a method not assigned.
import request from 'supertest';
import { messageResponse, methodResponse, methodsResponse, paymentErrorResponse } from '../../src/schemas/responses';
import { type World, basic, createPayment, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

const ALL = [1, 2, 6, 9, 29, 40, 42, 46, 49, 75, 78, 1066, 1078];

describe('the methods API', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const get = (path: string, auth = w.auth) => request(w.api).get(path).set('Authorization', auth);
  const ids = (body: { Methods: { ID: number }[] }) => body.Methods.map((m) => m.ID);

  it('GET /v1/methods: every method of the catalogue, without validators and options', async () => {
    const res = await get('/v1/methods');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(methodsResponse, res.body);
    expect(ids(res.body)).toEqual(ALL);
    for (const m of res.body.Methods) {
      expect(m).toMatchObject({ Active: true, ValidatorsPayin: null, ValidatorsRecurrent: null, Options: null });
      expect(m.Countries.length).toBeGreaterThan(0);
      expect(m.Currencies.length).toBeGreaterThan(0);
      expect(m.Description).not.toBe('');
      expect(m.LogoURL).toMatch(/^http:\/\/sandbox\.test\/images\/methods\/[a-z0-9-]+\.(svg|gif)$/);
    }
    expect(res.body.Methods[1]).toEqual({
      ID: 2,
      DisplayName: 'iDEAL',
      Description: 'Online banking payments in the Netherlands: the payer approves the payment in the app of their own bank.',
      LogoURL: 'http://sandbox.test/images/methods/ideal.svg',
      Guaranteed: true,
      Active: true,
      SupportIframe: false,
      IframeWidth: 0,
      IframeHeight: 0,
      Countries: ['NL'],
      Currencies: ['EUR'],
      DetailsURL: null,
      ValidatorsPayin: null,
      ValidatorsRecurrent: null,
      Options: null,
    });
  });

  it('?additionalDetails=true adds the payin and recurrent validators and the options (any case of name and value)', async () => {
    for (const query of ['?additionalDetails=true', '?additionaldetails=TRUE', '?AdditionalDetails=1']) {
      const res = await get(`/v1/methods${query}`);
      expect(res.status).toBe(200);
      expectSchema(methodsResponse, res.body);
      const ideal = res.body.Methods.find((m: { ID: number }) => m.ID === 2);
      expect(ideal.ValidatorsPayin).toEqual([
        { Source: 'BillingAddress.Country', Regex: '^NL$', Required: false },
        { Source: 'Customer.Email', Regex: '^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+$', Required: false },
      ]);
      expect(ideal.ValidatorsRecurrent).toHaveLength(2);
      expect(ideal.Options[0]).toEqual({ ID: 1, DisplayName: 'ABN AMRO', Description: 'ABN AMRO online banking', LogoURL: 'http://sandbox.test/images/methods/ideal-abn-amro.svg', Guaranteed: true });
      for (const m of res.body.Methods) {
        expect(m.ValidatorsPayin.length).toBeGreaterThan(0);
        expect(m.ValidatorsRecurrent.length).toBeGreaterThan(0);
        expect(Array.isArray(m.Options)).toBe(true);
      }
    }
    expect((await get('/v1/methods?additionalDetails=false')).body.Methods[0].Options).toBeNull();
  });

  it('?country= lists the methods available in that country', async () => {
    expect(ids((await get('/v1/methods?country=NL')).body)).toEqual([1, 2, 6, 9, 29, 40, 42, 75, 78, 1078]);
    expect(ids((await get('/v1/methods?country=DE')).body)).toEqual([1, 6, 9, 29, 40, 42, 75, 78, 1078]);
    expect(ids((await get('/v1/methods?country=us')).body)).toEqual([6, 42, 78, 1078]);
    expect(ids((await get('/v1/methods?country=JP')).body)).toEqual([6]);
    expect((await get('/v1/methods?country=AQ')).body).toEqual({ Methods: [] });
  });

  it('refuses a country that is no code, a flag that is no flag, a parameter given twice: 400 {"Message"}', async () => {
    for (const [query, message] of [
      ['?country=Germany', 'Invalid country: "Germany" is not an ISO 3166-1 alpha-2 code such as DE'],
      ['?country=XX', 'Invalid country: "XX" is not an ISO 3166-1 alpha-2 code such as DE'],
      ['?additionalDetails=yes', 'Invalid additionalDetails: expected true or false'],
      ['?country=DE&country=NL', 'Invalid country: give it once, as a single value'],
    ]) {
      const res = await get(`/v1/methods${query}`);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body: { Message: message } });
      expect((await get(`/v1/methods/assigned${query}`)).status).toBe(400);
    }
  });

  it('GET /v1/methods/{id}: {"Method"} with its validators and options, as the real test host answers', async () => {
    const res = await get('/v1/methods/75');
    expect(res.status).toBe(200);
    expectSchema(methodResponse, res.body);
    expect(res.body.Method).toMatchObject({ ID: 75, DisplayName: 'Klarna Invoice', LogoURL: 'http://sandbox.test/images/methods/klarna-invoice.svg', Options: [] });
    expect(res.body.Method.ValidatorsPayin.map((v: { Source: string; Required: boolean }) => [v.Source, v.Required])).toEqual([
      ['Customer.Email', true],
      ['Customer.FirstName Customer.LastName', true],
      ['Customer.SocialSecurityNumber', true],
      ['BillingAddress.Country', true],
    ]);
    expect((await get('/v1/methods/75/')).body).toEqual(res.body);
    expect((await get('/v1/methods/6')).body.Method).toMatchObject({ DisplayName: 'Cards', SupportIframe: true, IframeWidth: 400, IframeHeight: 600 });
  });

  it.each(['999', '0', 'abc', '1.5', '99999999999999999999'])('answers 404 {"Message"} for method %s', async (id) => {
    const res = await get(`/v1/methods/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Message: 'Method not found.' });
  });

  it('wants credentials: 401 with WWW-Authenticate: Basic', async () => {
    for (const path of ['/v1/methods', '/v1/methods/assigned', '/v1/methods/2']) {
      const res = await request(w.api).get(path);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic');
      expectSchema(messageResponse, res.body);
    }
  });

  it('is not on the card address (404, as any unknown route there)', async () => {
    const res = await request(w.card).get('/v1/methods').set('Authorization', w.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Message: "No HTTP resource was found that matches the request URI '/v1/methods'." });
  });

  describe('method logos', () => {
    /** A logo with its body as text (supertest does not read an image's body by itself). */
    const logoAt = (path: string) =>
      request(w.api)
        .get(path)
        .buffer(true)
        .parse((r, cb) => {
          let t = '';
          r.on('data', (c: Buffer) => (t += c.toString()));
          r.on('end', () => cb(null, t));
        });

    it('serves every LogoURL of the catalogue (methods and options) as a small SVG, without credentials', async () => {
      const res = await get('/v1/methods?additionalDetails=true');
      const urls = res.body.Methods.flatMap((m: any) => [m.LogoURL, ...m.Options.map((o: any) => o.LogoURL)]);
      expect(new Set(urls).size).toBe(urls.length);
      for (const url of urls) {
        const logo = await logoAt(new URL(url).pathname);
        expect(logo.status).toBe(200);
        expect(logo.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
        expect(logo.headers['x-content-type-options']).toBe('nosniff');
        expect(logo.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^]*<\/svg>$/);
      }
      expect((await logoAt('/images/methods/ideal.svg')).body).toContain('aria-label="iDEAL"');
      expect((await logoAt('/images/methods/ideal-abn-amro.svg')).body).toContain('aria-label="iDEAL · ABN AMRO"');
    });

    it('answers 404 for a logo the catalogue does not have', async () => {
      for (const path of ['/images/methods/nope.svg', '/images/methods/ideal.png', '/images/methods/..%2Fpackage.json']) {
        const res = await request(w.api).get(path);
        expect(res.status).toBe(404);
        expectSchema(messageResponse, res.body);
      }
    });
  });
});

describe('methods assigned to a merchant', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  async function merchant(body: object) {
    const res = await request(w.api).post('/_sandbox/merchants').send(body);
    expect(res.status).toBe(201);
    return { ...res.body.Merchant, auth: basic(res.body.Merchant.SiteID, res.body.Merchant.APIKey) };
  }
  const assigned = async (auth: string, query = '') => {
    const res = await request(w.api).get(`/v1/methods/assigned${query}`).set('Authorization', auth);
    expect(res.status).toBe(200);
    expectSchema(methodsResponse, res.body);
    return res.body.Methods.map((m: { ID: number }) => m.ID);
  };

  it('fixture sites have every method assigned', async () => {
    expect(await assigned(w.auth)).toEqual(ALL);
    expect(await assigned(basic(30300, 'P1ainSh0p+Key/For=Sandbox'), '?country=NO')).toEqual([1, 6, 29, 40, 42, 75, 78, 1078]);
    const details = await request(w.api).get('/v1/methods/assigned?additionalDetails=true').set('Authorization', w.auth);
    expect(details.body.Methods[0].ValidatorsPayin).not.toBeNull();
  });

  it('a merchant made through the control API may be given its own methods, and PATCH changes them', async () => {
    const m = await merchant({ Name: 'Dutch shop', Methods: [2, 42, 6] });
    expect(m.Methods).toEqual([2, 42, 6]);
    expect(await assigned(m.auth)).toEqual([2, 6, 42]);
    expect(await assigned(m.auth, '?country=DE')).toEqual([6, 42]);
    const patched = await request(w.api).patch(`/_sandbox/merchants/${m.SiteID}`).send({ Methods: [29] });
    expect(patched.status).toBe(200);
    expect(patched.body.Merchant.Methods).toEqual([29]);
    expect(await assigned(m.auth)).toEqual([29]);
    await request(w.api).patch(`/_sandbox/merchants/${m.SiteID}`).send({ Methods: null }).expect(200);
    expect(await assigned(m.auth)).toEqual(ALL);
    expect((await request(w.api).get(`/_sandbox/merchants/${m.SiteID}`)).body.Merchant.Methods).toBeNull();
  });

  it('refuses methods the catalogue does not have, changing nothing', async () => {
    const before = snapshot(w.store);
    const res = await request(w.api).post('/_sandbox/merchants').send({ Methods: [2, 999] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Message: 'Methods: 999 is not a method of the catalogue (GET /v1/methods lists them)' });
    const bad = await request(w.api).patch('/_sandbox/merchants/30201').send({ Methods: [0] });
    expect(bad.status).toBe(400);
    expect(snapshot(w.store)).toBe(before);
  });

  it('refuses a payment with a method not assigned to the site with reason 9 "Method is unavailable", on both addresses', async () => {
    const m = await merchant({ LinkedSites: 3, Methods: [2] });
    const body = (overrides: Record<string, unknown>) => {
      const b = paymentBody({ MethodID: 42, Splits: [{ SiteID: m.LinkedSiteIDs[0], Amount: '1000', MerchantTransactionID: 's1' }], ...overrides });
      return b;
    };
    const before = snapshot(w.store);
    const res = await request(w.api).post('/v1/payments').set('Authorization', m.auth).send(body({}));
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 9, Info: `Payment.MethodID is unavailable: method 42 is not assigned to site ${m.SiteID}` }]);
    const card = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', m.auth)
      .send({ Payment: { MerchantTransactionID: 'c1', Amount: 100, Currency: 'EUR', Card: { HolderName: 'A B', Number: '4111111111111111', ExpirationMonth: '1', ExpirationYear: '2031' } } });
    expect(card.status).toBe(400);
    expect(card.body.Payment.Status.Reasons).toEqual([{ Code: 9, Info: `Payment.MethodID is unavailable: method 6 is not assigned to site ${m.SiteID}` }]);
    expect(snapshot(w.store)).toBe(before);
    expect((await request(w.api).post('/v1/payments').set('Authorization', m.auth).send(body({ MethodID: 2 }))).status).toBe(201);
    // Fixture sites keep every method.
    await createPayment(w, { MethodID: 42 });
  });
});
