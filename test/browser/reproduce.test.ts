// QA in a real browser on a payment's page: "Save snapshot", then "Download story", whose file
// replays the payment.
import { text } from 'node:stream/consumers';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { HAVE_CHROMIUM, connect } from './browser';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const maybe = HAVE_CHROMIUM ? describe : describe.skip;

maybe('reproducing a case from the dashboard in Chromium', () => {
  let browser: Browser;
  let sb: Sandbox;

  beforeAll(async () => (browser = await connect()), 60_000);
  afterAll(async () => browser?.close());
  beforeEach(async () => (sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true })));
  afterEach(async () => sb.stop());

  it('saves a snapshot and downloads the story of a payment', async () => {
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).set('X-Sandbox-Scenario', 'two-step').send(paymentBody())).body.Payment;
    await sb.clock.advance(2);
    const page: Page = await browser.newPage();
    try {
      await page.goto(`${sb.baseUrl}/dashboard`);
      await page.fill('input[name="SiteID"]', String(MARKETPLACE.SiteID));
      await page.fill('input[name="APIKey"]', MARKETPLACE.APIKey);
      await Promise.all([page.waitForURL('**/dashboard'), page.getByRole('button', { name: 'Sign in' }).click()]);
      await page.goto(`${sb.baseUrl}/dashboard/payments/${p.ID}`);

      await page.fill('input[name="Name"]', 'seen-in-chromium');
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Save snapshot' }).click()]);
      await page.getByText('Snapshot seen-in-chromium of SiteID 30201 saved: 1 payments, its time 2026-01-15 10:00:02.').waitFor();
      // The marketplace's own snapshot, never a whole-sandbox one.
      expect(sb.snapshots.list()).toEqual([]);
      const own = await request(sb.baseUrl).get('/_sandbox/merchants/30201/snapshots');
      expect(own.body.Snapshots.map((s: { Name: string }) => s.Name)).toEqual(['seen-in-chromium']);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download story' }).click()]);
      expect(download.suggestedFilename()).toBe(`story-${p.ID}.json`);
      // The downloaded file, read through the connection to the run's Chromium (test/browser/browser.ts).
      const story = JSON.parse(await text(await download.createReadStream()));
      expect(story.Steps).toEqual([{ On: 'created', After: '2000ms', Do: 'authorize' }]);
      const replayed = sb.stories.replay(story);
      await sb.clock.advance(2);
      const got = await request(sb.baseUrl).get(`/v1/payments/${replayed}`).set('Authorization', auth);
      expect(got.body.Payment.Status.ID).toBe(9);
    } finally {
      await page.close();
    }
  });
});
