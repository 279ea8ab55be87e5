// What the dashboard says: reason codes with their catalogue text, refusals without brackets inside
// brackets, and the API's own reason where an action is not offered.
import request from 'supertest';
import { type World, authorizedPayment, createPayment, makeWorld } from '../helpers/world';
import { type Agent, signedIn, submit } from './helpers';

/** The page's text as a reader sees it: tags gone, entities read. */
const visible = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The lines of the text that open a bracket inside another. */
function nested(text: string): string[] {
  return text.split('\n').filter((line) => {
    let depth = 0;
    for (const c of line) {
      if (c === '(') depth++;
      else if (c === ')') depth--;
      if (depth > 1) return true;
    }
    return false;
  });
}

describe('the dashboard’s wording', () => {
  let w: World;
  let agent: Agent;
  beforeEach(async () => {
    w = makeWorld();
    agent = await signedIn(w);
  });
  afterEach(() => w.close());

  it('shows each reason code of a request with its text from the catalogue', async () => {
    await request(w.api).post('/v1/payments').set('Authorization', w.auth).send({ Payment: { Amount: 'x' } }).expect(400);
    const p = await createPayment(w);
    await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth).expect(400);
    const page = (await agent.get('/dashboard/requests')).text;
    const cells = [...page.matchAll(/<td class="reasons"[^>]*>(.*?)<\/td>/g)].map((m) => [...m[1]!.matchAll(/<div>(.*?)<\/div>/g)].map((d) => d[1]));
    expect(cells[0]).toEqual(['17 Payment is invalid']);
    expect(cells[1]).toEqual([]);
    expect(cells[2]!.length).toBeGreaterThan(1);
    for (const text of cells[2]!) expect(text).toMatch(/^(1 Missing parameter|2 Validation failed|118 Amount invalid|100 Currency is invalid)$/);
    expect(page).not.toMatch(/<td class="reasons"[^>]*>\d+(, \d+)*<\/td>/);
  });

  it('shows the API’s own reason when adding a split is not offered, and when it is refused', async () => {
    const p = await authorizedPayment(w);
    expect((await submit(agent, `/dashboard/payments/${p.ID}/capture`)).status).toBe(303);
    const split = String(p.Splits[0]!.ID);
    expect((await submit(agent, `/dashboard/payments/${p.ID}/refund`, { SplitID: split, Amount: '100' })).status).toBe(303);
    const api = await request(w.api)
      .post(`/v1/payments/${p.ID}/splits`)
      .set('Authorization', w.auth)
      .send({ Splits: [{ SiteID: 30203, Amount: '1', MerchantTransactionID: 'x' }] })
      .expect(400);
    const info = api.body.Reasons[0].Info;
    expect(info).toBe(`Action is invalid: payment ${p.ID} has a refund, so splits can no longer be added`);
    const page = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(page).toContain(`<button type="submit" disabled>Add split</button> <span class="why">Not now: ${info}</span>`);
    expect((await submit(agent, `/dashboard/payments/${p.ID}/splits`, { SiteID: '30203', Amount: '1', MerchantTransactionID: 'x' })).status).toBe(303);
    expect((await agent.get(`/dashboard/payments/${p.ID}`)).text).toContain(`<div>Reason 11: ${info}</div>`);
  });

  it('writes a card payment’s captures’ times as every other time of the dashboard', async () => {
    const res = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({
        Payment: {
          MerchantTransactionID: 'wording-card-1',
          Amount: 9000,
          Currency: 'EUR',
          Capture: false,
          Card: { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' },
        },
      });
    const id = res.body.Payment.ID as number;
    expect((await submit(agent, `/dashboard/payments/${id}/card-capture`)).status).toBe(303);
    const page = (await agent.get(`/dashboard/payments/${id}`)).text;
    const captures = page.slice(page.indexOf('<h2>Captures</h2>'), page.indexOf('<h2>Disputes</h2>'));
    expect(captures).toContain('<td>2026-01-15 10:00:00</td></tr>');
    expect(captures).not.toMatch(/<td>\d{14}<\/td>/);
  });

  it('puts no bracket inside another: events not offered, refused actions, settings', async () => {
    const p = await createPayment(w);
    // Refused: a capture of an Open payment, whose reason ends in "(it is Open)".
    expect((await submit(agent, `/dashboard/payments/${p.ID}/capture`)).status).toBe(303);
    const refusedPage = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(refusedPage).toContain('Reason 17: Payment is invalid: only an Authorized payment can be captured, once (it is Open)');
    const a = await authorizedPayment(w);
    const pages = [
      refusedPage,
      (await agent.get(`/dashboard/payments/${a.ID}`)).text,
      (await agent.get('/dashboard/settings')).text,
      (await agent.get('/dashboard')).text,
      (await agent.get('/dashboard/requests')).text,
    ];
    w.services.settings.defaultScenario = 'two-step';
    w.services.settings.defaultNotificationUrl = 'http://127.0.0.1:9/hook';
    pages.push((await agent.get('/dashboard/settings')).text);
    for (const html of pages) expect(nested(visible(html))).toEqual([]);
  });
});
