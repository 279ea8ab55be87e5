// The dashboard shows a merchant's preapprovals, with status, recurring payments and history; only its own.
import request from 'supertest';
import { PLAIN, type World, makeWorld } from '../helpers/world';
import { signedIn } from './helpers';

describe('dashboard: preapprovals', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('lists the merchant\'s preapprovals with their status, recurring payments and history', async () => {
    const created = await request(w.api).post('/v1/preapprovals').set('Authorization', w.auth)
      .send({ Preapproval: { MerchantPreapprovalID: 'sub-<b>', MethodID: 2, PreapprovedMaximumAmount: 5000, Currency: 'EUR', Customer: { Email: 'a@example.com' } } });
    expect(created.status).toBe(201);
    const id = created.body.Preapproval.ID;
    expect((await request(w.api).post(`/_sandbox/preapprovals/${id}/events`).send({ Event: 'open' })).status).toBe(200);
    const pay = await request(w.api).post('/v1/payments/recurrent').set('Authorization', w.auth)
      .send({ Payment: { PreapprovalID: id, MerchantTransactionID: 'r-1', Amount: 700, Currency: 'EUR', Customer: { Email: 'a@example.com' } } });
    expect(pay.status).toBe(201);

    const agent = await signedIn(w);
    const page = await agent.get('/dashboard/preapprovals');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="/dashboard/preapprovals">Preapprovals</a>');
    expect(page.text).toContain('sub-&lt;b&gt;');
    expect(page.text).not.toContain('sub-<b>');
    expect(page.text).toContain('>Open<');
    expect(page.text).toContain(`<a href="/dashboard/payments/${pay.body.Payment.ID}">`);
    expect(page.text).toContain('Pending (created)');
    expect(page.text).toContain('Open (provider event: open)');

    const other = await signedIn(w, PLAIN);
    const theirs = await other.get('/dashboard/preapprovals');
    expect(theirs.text).toContain('No preapprovals yet.');
    expect((await request(w.api).get('/dashboard/preapprovals')).status).toBe(303);
  });
});
