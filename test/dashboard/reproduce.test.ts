// The payment page's "Download story" and "Save snapshot" buttons.
import request from 'supertest';
import { SiteSnapshots } from '../../src/marketplaces/site-snapshots';
import { Snapshots } from '../../src/snapshots/snapshots';
import { MARKETPLACE, PLAIN, type World, authorizedPayment, createPayment, makeWorld } from '../helpers/world';
import { type Agent, signedIn, submit } from './helpers';

describe('dashboard: reproducing a case', () => {
  let w: World;
  let agent: Agent;
  let snapshots: Snapshots;
  let own: SiteSnapshots;
  beforeEach(async () => {
    w = makeWorld();
    snapshots = new Snapshots(w.store, ':memory:', w.clock);
    w.ctx.snapshots = snapshots;
    own = new SiteSnapshots(w.services, ':memory:');
    w.ctx.siteSnapshots = own;
    agent = await signedIn(w);
  });
  afterEach(() => {
    snapshots.close();
    own.close();
    w.close();
  });

  it('shows both buttons on the payment page, as plain forms', async () => {
    const p = await createPayment(w);
    const page = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(page).toContain(`<form class="inline" method="get" action="/dashboard/payments/${p.ID}/story"><button type="submit">Download story</button></form>`);
    expect(page).toMatch(new RegExp(`<form class="inline" method="post" action="/dashboard/payments/${p.ID}/snapshot"><input type="hidden" name="csrf" value="[^"]+"><label>Snapshot name <input name="Name" size="24" value="payment-${p.ID}"></label>`));
    expect(page).toContain('<button type="submit">Save snapshot</button>');
  });

  it('downloads the story of the merchant’s own payment as a file, the same the control API gives', async () => {
    const p = await authorizedPayment(w);
    const res = await agent.get(`/dashboard/payments/${p.ID}/story`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="story-${p.ID}.json"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const control = await request(w.api).get(`/_sandbox/payments/${p.ID}/story`);
    expect(res.text).toBe(control.text);
    // Authorized by hand; the scenario's own authorize is still scheduled (it will be skipped, here and in a replay).
    expect(JSON.parse(res.text).Steps).toEqual([
      { On: 'created', After: '0ms', Do: 'authorize' },
      { On: 'created', After: '2000ms', Do: 'authorize' },
    ]);

    // Another merchant's payment is not there; a stranger is sent to sign in.
    const other = await signedIn(w, PLAIN);
    expect((await other.get(`/dashboard/payments/${p.ID}/story`)).status).toBe(404);
    const stranger = await request(w.api).get(`/dashboard/payments/${p.ID}/story`);
    expect([stranger.status, stranger.headers.location]).toEqual([303, '/dashboard/login']);
  });

  it('a card payment has no story: 400 with a page that says why, never a 500', async () => {
    const card = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'card-story-1', Amount: 1000, Currency: 'EUR' } });
    expect(card.status).toBe(201);
    const res = await agent.get(`/dashboard/payments/${card.body.Payment.ID}/story`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(`payment ${card.body.Payment.ID} was made on the card API: stories tell of payments of the split-payments API`);
  });

  it("saves the marketplace's own snapshot, never the whole sandbox's, and refuses a bad name on the page", async () => {
    const p = await createPayment(w);
    const res = await submit(agent, `/dashboard/payments/${p.ID}/snapshot`, { Name: 'qa-1' });
    expect([res.status, res.headers.location]).toEqual([303, `/dashboard/payments/${p.ID}`]);
    const page = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(page).toContain(
      `Snapshot qa-1 of SiteID ${MARKETPLACE.SiteID} saved: 1 payments, its time 2026-01-15 10:00:00. Bring your marketplace back to it with: POST /_sandbox/merchants/${MARKETPLACE.SiteID}/snapshots/qa-1/restore`,
    );
    expect(own.list(MARKETPLACE.SiteID)).toEqual([{ Name: 'qa-1', Created: '20260115100000', OwnClock: false, Payments: 1 }]);
    expect(snapshots.list()).toEqual([]);

    const bad = await submit(agent, `/dashboard/payments/${p.ID}/snapshot`, { Name: '<b>x</b>' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Name is invalid: &quot;&lt;b&gt;x&lt;/b&gt;&quot; is not a snapshot name');
    expect(bad.text).not.toContain('<b>x</b>');
    // Without the session's form token nothing is saved.
    const forged = await agent.post(`/dashboard/payments/${p.ID}/snapshot`).type('form').send({ Name: 'forged' });
    expect(forged.status).toBe(403);
    expect(own.list(MARKETPLACE.SiteID).map((s) => s.Name)).toEqual(['qa-1']);
    // An empty name takes the payment's.
    await submit(agent, `/dashboard/payments/${p.ID}/snapshot`, { Name: '' });
    expect(own.list(MARKETPLACE.SiteID).map((s) => s.Name)).toEqual(['payment-' + p.ID, 'qa-1']);
    // A name CI gave a whole-sandbox snapshot is the marketplace's own here: the sandbox's stays as it was.
    await snapshots.save('baseline');
    await submit(agent, `/dashboard/payments/${p.ID}/snapshot`, { Name: 'baseline' });
    expect(snapshots.list()).toEqual([{ Name: 'baseline', Created: '20260115100000', Payments: 1 }]);
    expect(own.list(MARKETPLACE.SiteID).map((s) => s.Name)).toEqual(['baseline', 'payment-' + p.ID, 'qa-1']);
  });
});
