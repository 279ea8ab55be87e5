// The payment list and one payment's page.
import request from 'supertest';
import { type World, authorizedPayment, createPayment, event, makeWorld } from '../helpers/world';
import { signedIn, withOutbox } from './helpers';

const rows = (html: string) => [...html.matchAll(/<a href="\/dashboard\/payments\/(\d+)">/g)].map((m) => Number(m[1]));

describe('dashboard payment list', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('lists the merchant\'s payments, newest first, with ID link, Created, MTID, amount in major units, method and status', async () => {
    const a = await createPayment(w, { MerchantTransactionID: 'order-a', Amount: '1154', Splits: [{ SiteID: 30202, Amount: '1154', MerchantTransactionID: 's' }] });
    const b = await authorizedPayment(w, { MerchantTransactionID: 'order-b' });
    const agent = await signedIn(w);
    const res = await agent.get('/dashboard');
    expect(res.status).toBe(200);
    expect(rows(res.text)).toEqual([b.ID, a.ID]);
    expect(res.text).toContain('<th>ID</th><th>Created</th><th>MerchantTransactionID</th><th class="num">Amount</th><th>Method</th><th>Status</th>');
    expect(res.text).toContain('order-a');
    expect(res.text).toContain('11.54 EUR');
    expect(res.text).toContain('10.00 EUR');
    expect(res.text).toContain('PayPal');
    expect(res.text).toContain('2026-01-15 10:00:00');
    expect(res.text).toContain('Authorized (9)');
    expect(res.text).toContain('Open (1)');
    expect(res.text).toContain('2 payments');
  });

  it('filters by status, method, MerchantTransactionID and dates; empty fields filter nothing', async () => {
    const open = await createPayment(w, { MerchantTransactionID: 'find-me' });
    const auth = await authorizedPayment(w);
    const ideal = await createPayment(w, { MethodID: 2 });
    const agent = await signedIn(w);
    expect(rows((await agent.get('/dashboard?statusID=9')).text)).toEqual([auth.ID]);
    expect(rows((await agent.get('/dashboard?methodID=2')).text)).toEqual([ideal.ID]);
    expect(rows((await agent.get('/dashboard?merchantTransactionID=find-me')).text)).toEqual([open.ID]);
    expect(rows((await agent.get('/dashboard?statusID=&methodID=&merchantTransactionID=&startDate=&endDate=')).text)).toEqual([ideal.ID, auth.ID, open.ID]);
    expect(rows((await agent.get('/dashboard?startDate=20260115100000&endDate=20260115100000')).text)).toHaveLength(3);
    expect(rows((await agent.get('/dashboard?startDate=20260115100001')).text)).toEqual([]);
    const filtered = await agent.get('/dashboard?statusID=9');
    expect(filtered.text).toContain('<option value="9" selected>');
  });

  it('From and To take a time as the table shows it, shorter ones and the wire form', async () => {
    const p = await createPayment(w);
    const agent = await signedIn(w);
    const list = (await agent.get('/dashboard')).text;
    const shown = /<td>(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})<\/td>/.exec(list)![1]!;
    expect(shown).toBe('2026-01-15 10:00:00');
    const found = async (query: Record<string, string>) => {
      const res = await agent.get('/dashboard').query(query);
      expect(res.status).toBe(200);
      return rows(res.text);
    };
    // The table's own text, pasted into both.
    expect(await found({ startDate: shown, endDate: shown })).toEqual([p.ID]);
    expect(await found({ startDate: '2026-01-15T10:00:00Z', endDate: '2026-01-15 10:00:00 UTC' })).toEqual([p.ID]);
    // A missing part is the start of it for From, its end for To.
    expect(await found({ startDate: '2026-01-15', endDate: '2026-01-15' })).toEqual([p.ID]);
    expect(await found({ startDate: '2026-01-15 10:00', endDate: '2026-01-15 10' })).toEqual([p.ID]);
    expect(await found({ startDate: '2026-01-15 10:00:01' })).toEqual([]);
    expect(await found({ endDate: '2026-01-15 09:59' })).toEqual([]);
    expect(await found({ startDate: '20260115100000', endDate: '20260115100000' })).toEqual([p.ID]);
    // What was typed stays in the field.
    expect((await agent.get('/dashboard').query({ startDate: shown })).text).toContain('name="startDate" placeholder="2026-01-15 10:00:00" size="19" value="2026-01-15 10:00:00"');
  });

  it('pages, keeping the filters in the links', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createPayment(w)).ID);
    const agent = await signedIn(w);
    const first = await agent.get('/dashboard?pageSize=2&statusID=1');
    expect(rows(first.text)).toEqual([ids[4], ids[3]]);
    expect(first.text).toContain('Page 1 of 3 · 5 payments');
    expect(first.text).toContain('href="/dashboard?pageSize=2&amp;statusID=1&amp;pageIndex=2"');
    const second = await agent.get('/dashboard?pageSize=2&statusID=1&pageIndex=2');
    expect(rows(second.text)).toEqual([ids[2], ids[1]]);
    expect(second.text).toContain('pageIndex=1');
    expect(second.text).toContain('pageIndex=3');
  });

  it.each([
    ['startDate=yesterday', 'From: yesterday is not a time: give a time as the table shows it (2026-01-15 10:00:00, UTC)'],
    ['endDate=20261340000000', 'To: 20261340000000 is not a time'],
    ['startDate=2026-13-40%2010:00:00', 'From: 2026-13-40 10:00:00 is not a time'],
    ['startDate=15.01.2026', 'From: 15.01.2026 is not a time'],
    ['statusID=abc', 'Invalid statusID'],
    ['statusID=20', 'Invalid statusID: 20 is not a status'],
    ['methodID=-1', 'Invalid methodID'],
    ['pageIndex=0', 'Invalid pageIndex'],
    ['statusID=1&statusID=2', 'Invalid statusID'],
  ])('answers an invalid filter (%s) with a readable 400 page', async (query, message) => {
    await createPayment(w);
    const agent = await signedIn(w);
    const res = await agent.get(`/dashboard?${query}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('class="error"');
    expect(res.text).toContain(message);
    expect(rows(res.text)).toEqual([]);
  });

  it('escapes a MerchantTransactionID with markup', async () => {
    await createPayment(w, { MerchantTransactionID: '<script>alert(1)</script>' });
    const agent = await signedIn(w);
    const res = await agent.get('/dashboard');
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const filtered = await agent.get(`/dashboard?merchantTransactionID=${encodeURIComponent('"><script>alert(2)</script>')}`);
    expect(filtered.text).not.toContain('<script>alert(2)');
    expect(filtered.text).toContain('value="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
  });
});

describe('dashboard payment page', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('shows the fields, the splits with StateDetails and CapturedAmount, history, steps and the action forms', async () => {
    const p = await authorizedPayment(w, { MerchantTransactionID: 'order-77', Description: 'Two books' });
    const agent = await signedIn(w);
    const res = await agent.get(`/dashboard/payments/${p.ID}`);
    expect(res.status).toBe(200);
    const t = res.text;
    expect(t).toContain(`Payment ${p.ID}`);
    expect(t).toContain('order-77');
    expect(t).toContain('Two books');
    expect(t).toContain('PayPal (42, two-step)');
    expect(t).toContain('Ada Lovelace · payer@example.com');
    for (const s of p.Splits) expect(t).toContain(`<td>${s.ID}</td>`);
    expect(t).toContain('Seller One (30202)');
    expect(t).toContain('6.00 EUR');
    expect(t).toContain('split-3');
    expect(t.match(/<td class="num"><\/td><td>Authorized \(9\)<\/td>/g)).toHaveLength(3); // StateDetails, nothing captured
    // Status history with sandbox times and causes
    expect(t).toContain('<td>2026-01-15 10:00:00</td><td>Open (1)</td>');
    expect(t).toContain('event authorize');
    // Scenario steps (the two-step scenario of PayPal)
    expect(t).toContain('<h2>Scenario steps</h2><table>');
    // Action forms, each with the session's token
    for (const a of ['events', 'capture', 'capture-split', 'capture-per-split', 'cancel', 'refund', 'splits']) {
      expect(t).toContain(`action="/dashboard/payments/${p.ID}/${a}"`);
    }
    // An Authorized two-step payment: the events it can take are buttons, the others are named with why not.
    expect(t).toContain('<button type="submit" name="Event" value="fail">Fail</button>');
    for (const e of ['authorize', 'succeed', 'expire', 'settle']) expect(t).not.toContain(`name="Event" value="${e}"`);
    expect(t).toContain('Not offered now:<ul class="why"><li>Authorize: only an Open payment can be authorized (it is Authorized)</li><li>Succeed: ');
    expect(t).toContain('name="csrf"');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('shows CapturedAmount of captured splits and the refunds', async () => {
    const p = await authorizedPayment(w);
    const split = p.Splits[0]!;
    const cap = await request(w.api).post(`/v1/payments/${p.ID}/splits/${split.ID}/capture?amount=250`).set('Authorization', w.auth);
    expect(cap.status).toBe(200);
    const refund = await request(w.api)
      .post(`/v1/payments/${p.ID}/splits/${split.ID}/refunds`)
      .set('Authorization', w.auth)
      .send({ Refund: { Amount: 100, Description: 'damaged <b>box</b>' } });
    expect(refund.status).toBe(201);
    const agent = await signedIn(w);
    const t = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(t).toContain('<td class="num">2.50 EUR</td><td>PartiallyCaptured (35)</td>');
    expect(t).toContain(`<td>${refund.body.Refund.ID}</td><td>${split.ID}</td>`);
    expect(t).toContain('damaged &lt;b&gt;box&lt;/b&gt;');
    expect(t).toContain('refund requested');
  });

  it('shows the notifications with every delivery attempt', async () => {
    withOutbox(w);
    const p = await authorizedPayment(w);
    const n = w.store.notifications.list({ paymentId: p.ID });
    expect(n).toHaveLength(1);
    w.store.notifications.recordAttempt({ notificationId: n[0]!.id, at: w.clock.now(), url: 'http://hook.example/<x>', httpStatus: 500, error: null, durationMs: 12 });
    w.store.notifications.recordAttempt({ notificationId: n[0]!.id, at: w.clock.now() + 1000, url: 'http://hook.example/<x>', httpStatus: null, error: 'ECONNREFUSED', durationMs: 3 });
    const agent = await signedIn(w);
    const t = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(t).toContain('<h2>Notifications</h2><table>');
    expect(t).toContain(`<td>${n[0]!.id}</td><td>Authorized (9)</td>`);
    expect(t).toContain('<td>no-url</td>');
    expect(t).toContain('2026-01-15 10:00:00 → <code>http://hook.example/&lt;x&gt;</code>: HTTP 500, 12 ms');
    expect(t).toContain('2026-01-15 10:00:01 → <code>http://hook.example/&lt;x&gt;</code>: ECONNREFUSED, 3 ms');
    expect(t).toContain(`action="/dashboard/payments/${p.ID}/notifications/${n[0]!.id}/redeliver"`);
  });

  it('escapes MerchantTransactionID, Description and split fields with markup', async () => {
    const p = await createPayment(w, {
      MerchantTransactionID: '<script>alert(1)</script>',
      Description: '"><img src=x onerror=alert(2)>',
      Splits: [{ SiteID: 30202, Amount: '1000', MerchantTransactionID: '<script>alert(3)</script>' }],
    });
    const agent = await signedIn(w);
    const t = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(t).not.toContain('<script>alert');
    expect(t).not.toContain('<img src=x');
    expect(t).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(t).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(t).toContain('&lt;script&gt;alert(3)&lt;/script&gt;');
  });

  it('answers 404 with a page for an unknown or malformed payment ID', async () => {
    const p = await createPayment(w);
    const agent = await signedIn(w);
    for (const id of [String(p.ID + 1000), 'abc', '0', '<script>']) {
      const res = await agent.get(`/dashboard/payments/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Payment not found');
      expect(res.text).not.toContain('<script>');
    }
  });

  it('shows a one-step payment the provider paid', async () => {
    const p = await createPayment(w, { MethodID: 2 });
    await event(w, p.ID, 'succeed');
    const agent = await signedIn(w);
    const t = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(t).toContain('Success (2)');
    expect(t).toContain('event succeed');
  });
});
