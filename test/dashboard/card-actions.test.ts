// The dashboard beyond the seed: card payments listed and shown with their own actions (capture, part
// capture, cancel, refund, provider events), and the refund of a whole payment without splits.
import request from 'supertest';
import { type World, event, makeWorld, snapshot } from '../helpers/world';
import { type Agent, signedIn, submit } from './helpers';

const rows = (html: string) => [...html.matchAll(/<a href="\/dashboard\/payments\/(\d+)">/g)].map((m) => Number(m[1]));

describe('dashboard: card payments and whole refunds', () => {
  let w: World;
  let agent: Agent;
  beforeEach(async () => {
    w = makeWorld();
    agent = await signedIn(w);
  });
  afterEach(() => w.close());

  const statusOf = (id: number) => w.store.payments.getAny(id)!.statusId;

  async function card(overrides: Record<string, unknown> = {}) {
    const res = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({
        Payment: {
          MerchantTransactionID: `dash-card-${Math.random().toString(36).slice(2, 8)}`,
          Amount: 9000,
          Currency: 'EUR',
          Capture: false,
          Card: { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' },
          ...overrides,
        },
      });
    expect(res.status).toBe(201);
    return res.body.Payment as { ID: number; MerchantTransactionID: string; Splits?: { ID: number }[] };
  }

  async function done(id: number, path: string, fields: Record<string, string> = {}) {
    const res = await submit(agent, `/dashboard/payments/${id}${path}`, fields);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/dashboard/payments/${id}`);
    return (await agent.get(`/dashboard/payments/${id}`)).text;
  }

  async function refused(id: number, path: string, fields: Record<string, string>, message: string) {
    const before = snapshot(w.store);
    const res = await submit(agent, `/dashboard/payments/${id}${path}`, fields);
    expect([res.status, res.headers.location]).toEqual([303, `/dashboard/payments/${id}`]);
    const page = (await agent.get(`/dashboard/payments/${id}`)).text;
    expect(page).toContain('class="error"');
    expect(page).toContain(message);
    expect(snapshot(w.store)).toBe(before);
  }

  it('lists card payments under the card address filter, and shows one with the card actions', async () => {
    const c = await card();
    const api = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'api-x', Amount: '100', Currency: 'EUR', ReturnURL: 'https://shop.example/r' } });
    expect(rows((await agent.get('/dashboard')).text)).toEqual([api.body.Payment.ID]);
    const list = await agent.get('/dashboard?surface=card');
    expect(list.status).toBe(200);
    expect(rows(list.text)).toEqual([c.ID]);
    expect(list.text).toContain('<option value="card" selected>card API</option>');
    const page = await agent.get(`/dashboard/payments/${c.ID}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<th>Address</th><td>card API</td>');
    for (const action of ['card-capture', 'card-cancel', 'card-refund', 'events']) expect(page.text).toContain(`action="/dashboard/payments/${c.ID}/${action}"`);
    expect(page.text).not.toContain(`action="/dashboard/payments/${c.ID}/capture-split"`);
    expect(page.text).toContain(`value="${c.MerchantTransactionID}-refund-1"`);
  });

  it('captures part, then refunds; the refund shows on the page, Success', async () => {
    const c = await card();
    let page = await done(c.ID, '/card-capture', { Amount: '4500' });
    expect(statusOf(c.ID)).toBe(35);
    expect(page).toContain('Capture sent: the payment is PartiallyCaptured.');
    page = await done(c.ID, '/card-refund', { MerchantTransactionID: 'dash-r1', Amount: '500', Description: 'one item' });
    const [r] = w.store.refunds.ofPayment(c.ID);
    expect(r).toMatchObject({ splitId: null, amount: 500n, statusId: 2, description: 'one item', merchantTransactionId: 'dash-r1' });
    expect(page).toContain(`Refund ${r!.id} made: it is Success.`);
    expect(page).toContain('<td>whole payment</td><td>dash-r1</td>');
  });

  it('captures in full and cancels; refuses what the card API refuses, with its code, changing nothing', async () => {
    const c = await card();
    await done(c.ID, '/card-capture', { Amount: '' });
    expect(statusOf(c.ID)).toBe(11);
    await refused(c.ID, '/card-capture', { Amount: '' }, 'Reason 4997: ');
    await refused(c.ID, '/card-cancel', {}, 'Reason 4997: ');
    await refused(c.ID, '/card-refund', { MerchantTransactionID: 'x', Amount: '9001' }, 'Reason 2206: ');
    const d = await card({ Amount: 10006 });
    const page = await done(d.ID, '/card-cancel');
    expect(statusOf(d.ID)).toBe(34);
    expect(page).toContain('Cancel sent: the payment is QueuedForCanceling.');
    await done(d.ID, '/events', { Event: 'settle' });
    expect(statusOf(d.ID)).toBe(3);
  });

  it('refunds one split of a marketplace card payment', async () => {
    const c = await card({ Splits: [{ SiteID: 30202, Amount: 6000, MerchantTransactionID: 's1' }, { SiteID: 30203, Amount: 3000, MerchantTransactionID: 's2' }] });
    await done(c.ID, '/card-capture');
    const split = c.Splits![1]!.ID;
    await refused(c.ID, '/card-refund', { MerchantTransactionID: 'w', Amount: '1', SplitID: '' }, 'Reason 11: ');
    await done(c.ID, '/card-refund', { MerchantTransactionID: 'sr', Amount: '3000', SplitID: String(split) });
    expect(w.store.refunds.ofPayment(c.ID)[0]).toMatchObject({ splitId: split, amount: 3000n });
  });

  it('the card actions do not touch API payments, nor the API actions card payments', async () => {
    const c = await card();
    await refused(c.ID, '/capture', {}, 'Payment not found.');
    const api = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'api-y', Amount: '100', Currency: 'EUR', ReturnURL: 'https://shop.example/r' } });
    await refused(api.body.Payment.ID, '/card-capture', {}, 'Payment not found.');
  });

  it('offers the refund of a whole payment for a payment without splits, and makes it', async () => {
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'whole-1', Amount: '1000', Currency: 'EUR', MethodID: 2, ReturnURL: 'https://shop.example/r' } });
    const id = res.body.Payment.ID as number;
    let page = (await agent.get(`/dashboard/payments/${id}`)).text;
    expect(page).toContain(`action="/dashboard/payments/${id}/refund-payment"`);
    await refused(id, '/refund-payment', { Amount: '100' }, 'Reason 18: ');
    await event(w, id, 'succeed');
    page = await done(id, '/refund-payment', { Amount: '400', Description: 'half' });
    const [r] = w.store.refunds.ofPayment(id);
    expect(r).toMatchObject({ splitId: null, amount: 400n, statusId: 1 });
    expect(page).toContain(`Refund ${r!.id} of the whole payment requested.`);
  });
});
