// Dashboard sign-in, sessions, the form token and merchant isolation.
import request from 'supertest';
import { MARKETPLACE, PLAIN, type World, authorizedPayment, makeWorld, snapshot } from '../helpers/world';
import { csrfOf, signedIn, submit } from './helpers';

describe('dashboard sign-in and sessions', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('shows a sign-in form with SiteID and APIKey', async () => {
    const res = await request(w.api).get('/dashboard/login');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('name="SiteID"');
    expect(res.text).toContain('name="APIKey"');
    expect(res.text).toContain('action="/dashboard/login"');
  });

  it('signs in with the right key: 303 to /dashboard and an HttpOnly, SameSite=Lax session cookie on /dashboard', async () => {
    const res = await request(w.api)
      .post('/dashboard/login')
      .type('form')
      .send({ SiteID: String(MARKETPLACE.SiteID), APIKey: MARKETPLACE.APIKey });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
    const cookies = res.headers['set-cookie'] as unknown as string[];
    expect(cookies).toHaveLength(1);
    const cookie = cookies[0]!;
    expect(cookie).toMatch(/^sandbox_dashboard=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/dashboard/);

    const page = await request(w.api).get('/dashboard').set('Cookie', cookie.split(';')[0]!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sandbox Marketplace');
    expect(page.text).toContain('<h1>Payments</h1>');
  });

  it('gives every sign-in a fresh random session id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await request(w.api).post('/dashboard/login').type('form').send({ SiteID: '30201', APIKey: MARKETPLACE.APIKey });
      ids.add((res.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!);
    }
    expect(ids.size).toBe(3);
  });

  it('refuses a wrong key, an unknown SiteID and a malformed SiteID with a 401 page and no cookie', async () => {
    for (const form of [
      { SiteID: '30201', APIKey: 'wrong' },
      { SiteID: '30201', APIKey: PLAIN.APIKey },
      { SiteID: '99999', APIKey: MARKETPLACE.APIKey },
      { SiteID: 'abc', APIKey: MARKETPLACE.APIKey },
      { SiteID: '30202', APIKey: '' },
      {},
    ]) {
      const res = await request(w.api).post('/dashboard/login').type('form').send(form);
      expect(res.status).toBe(401);
      expect(res.text).toContain('Sign-in failed: the SiteID is unknown or the APIKey is wrong.');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('escapes the SiteID it echoes on a failed sign-in', async () => {
    const res = await request(w.api).post('/dashboard/login').type('form').send({ SiteID: '"><script>x</script>', APIKey: 'k' });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('<script>x');
    expect(res.text).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('sends every page to the sign-in page without a valid session (303), and changes nothing', async () => {
    const p = await authorizedPayment(w);
    const before = snapshot(w.store);
    const gets = ['/dashboard', '/dashboard/', '/dashboard/settings', `/dashboard/payments/${p.ID}`, '/dashboard/nowhere'];
    for (const path of gets) {
      for (const cookie of [undefined, 'sandbox_dashboard=forged', 'other=1']) {
        const r = request(w.api).get(path);
        const res = await (cookie ? r.set('Cookie', cookie) : r);
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe('/dashboard/login');
      }
    }
    for (const path of [`/dashboard/payments/${p.ID}/capture`, `/dashboard/payments/${p.ID}/cancel`, '/dashboard/settings', '/dashboard/logout']) {
      const res = await request(w.api).post(path).type('form').send({ NotificationURL: 'https://evil.example' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/dashboard/login');
    }
    expect(snapshot(w.store)).toBe(before);
  });

  it('signs out: the old cookie no longer opens anything', async () => {
    const agent = await signedIn(w);
    expect((await agent.get('/dashboard')).status).toBe(200);
    const out = await submit(agent, '/dashboard/logout');
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/dashboard/login');
    expect((out.headers['set-cookie'] as unknown as string[])[0]).toMatch(/Max-Age=0/);
    const after = await agent.get('/dashboard');
    expect(after.status).toBe(303);
  });

  it('refuses a POST without the session form token (403), changing nothing', async () => {
    const p = await authorizedPayment(w);
    const agent = await signedIn(w);
    const before = snapshot(w.store);
    for (const csrf of [undefined, 'wrong']) {
      const res = await agent.post(`/dashboard/payments/${p.ID}/capture`).type('form').send(csrf ? { csrf } : {});
      expect(res.status).toBe(403);
      expect(res.text).toContain('Form expired');
    }
    expect(snapshot(w.store)).toBe(before);
    expect(await csrfOf(agent)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('keeps sessions per app: a cookie from one sandbox opens nothing in another', async () => {
    const res = await request(w.api).post('/dashboard/login').type('form').send({ SiteID: '30201', APIKey: MARKETPLACE.APIKey });
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const other = makeWorld();
    try {
      expect((await request(other.api).get('/dashboard').set('Cookie', cookie)).status).toBe(303);
    } finally {
      other.close();
    }
  });

  it('is not on the card address', async () => {
    expect((await request(w.card).get('/dashboard/login')).status).toBe(404);
  });
});

describe('dashboard merchant isolation', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it("shows the plain site none of the marketplace's payments: not in its list, 404 on the page and on every action", async () => {
    const p = await authorizedPayment(w, { MerchantTransactionID: 'marketplace-only' });
    const plain = await signedIn(w, PLAIN);
    const list = await plain.get('/dashboard');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('marketplace-only');
    expect(list.text).toContain('No payments match.');

    const page = await plain.get(`/dashboard/payments/${p.ID}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Payment not found');
    expect(page.text).not.toContain('marketplace-only');

    const before = snapshot(w.store);
    const splitId = String(p.Splits[0]!.ID);
    for (const [path, fields] of [
      ['/events', { Event: 'succeed' }],
      ['/capture', {}],
      ['/capture-split', { SplitID: splitId }],
      ['/capture-per-split', { [`Amount_${splitId}`]: '100' }],
      ['/cancel', {}],
      ['/refund', { SplitID: splitId, Amount: '1' }],
      ['/splits', { SiteID: '30202', Amount: '1', MerchantTransactionID: 'x' }],
      ['/notifications/1/redeliver', {}],
    ] as const) {
      const res = await submit(plain, `/dashboard/payments/${p.ID}${path}`, fields);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Payment not found');
    }
    expect(snapshot(w.store)).toBe(before);
  });
});
