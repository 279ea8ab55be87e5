// A marketplace with a clock of its own sees every time of its dashboard on that clock: its payments',
// their history's, steps' and notifications', and its requests', never the sandbox's beside them.
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, basic } from '../helpers/world';
import { payAs } from '../isolation/pay';

/** Every time a page shows as the dashboard writes them ("2026-01-15 10:01:00"), the From and To examples left out. */
const timesOn = (html: string) => [...html.replace(/placeholder="[^"]*"/g, '').matchAll(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g)].map((m) => m[0]);

describe('the dashboard of a marketplace on its own clock', () => {
  let sb: Sandbox;
  let rx: Receiver;
  beforeEach(async () => {
    rx = await startReceiver();
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, scenario: 'two-step' });
  });
  afterEach(async () => {
    await sb.stop();
    await rx.close();
  });

  it('shows its own time everywhere, its requests’ times included', async () => {
    const made = (await request(sb.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 1, Clock: 'manual', NotificationURL: rx.url })).body.Merchant;
    const auth = basic(made.SiteID, made.APIKey);
    const own = (s: number) => request(sb.baseUrl).post(`/_sandbox/merchants/${made.SiteID}/clock/advance`).set('Authorization', auth).send({ Seconds: s }).expect(200);
    // The sandbox's clock an hour on, the marketplace's a minute.
    await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 3600 }).expect(200);
    await own(60);
    const p = await payAs(sb.baseUrl, auth, made.LinkedSiteIDs[0], 1);
    await own(5);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).send({}).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).send({}).expect(400);

    // Its journal says its own time too.
    const journal = (await request(sb.baseUrl).get(`/_sandbox/merchants/${made.SiteID}/requests?SortDirection=asc`).set('Authorization', auth)).body.Requests as { At: string }[];
    expect(journal.map((r) => r.At)).toEqual(['20260115100100', '20260115100105', '20260115100105']);

    const dash = request.agent(sb.baseUrl);
    await dash.post('/dashboard/login').type('form').send({ SiteID: String(made.SiteID), APIKey: made.APIKey }).expect(303);
    const ownTimes = new Set(['2026-01-15 10:01:00', '2026-01-15 10:01:02', '2026-01-15 10:01:05']);
    for (const path of ['/dashboard', `/dashboard/payments/${p.ID}`, '/dashboard/requests']) {
      const html = (await dash.get(path)).text;
      const times = timesOn(html);
      expect(times.length).toBeGreaterThan(1);
      for (const t of times) expect([path, t, ownTimes.has(t)]).toEqual([path, t, true]);
      expect(html).not.toContain('(sandbox time)');
    }
    const payment = (await dash.get(`/dashboard/payments/${p.ID}`)).text;
    expect(payment).toContain('<th>At (its own time)</th><th>Request</th>');
    expect(payment).toContain('<th>At (its own time)</th><th>Status</th>');
  }, 60_000);
});
