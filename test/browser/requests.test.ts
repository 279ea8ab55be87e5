// The requests in a real browser: a payment's page lists its requests in order, with status, reason
// and bodies to unfold; the merchant's requests page lists them all, near misses included.
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { HAVE_CHROMIUM, connect } from './browser';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const maybe = HAVE_CHROMIUM ? describe : describe.skip;

maybe('the request journal in the dashboard, in Chromium', () => {
  let browser: Browser;
  let sb: Sandbox;

  beforeAll(async () => (browser = await connect()), 60_000);
  afterAll(async () => browser?.close());
  beforeEach(async () => (sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true })));
  afterEach(() => sb.stop());

  const signIn = async (page: Page) => {
    await page.goto(`${sb.baseUrl}/dashboard/login`);
    await page.fill('input[name="SiteID"]', String(MARKETPLACE.SiteID));
    await page.fill('input[name="APIKey"]', MARKETPLACE.APIKey);
    await Promise.all([page.waitForURL('**/dashboard'), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  };

  it('shows a payment’s requests in order, the refused capture with its reason, and its bodies', async () => {
    const sent = JSON.stringify(paymentBody({ MerchantTransactionID: 'order-7' }));
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).set('Content-Type', 'application/json').send(sent)).body.Payment;
    await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'authorize' }).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).expect(400);
    await request(sb.baseUrl).post('/v1/payment').set('Authorization', auth).send({}).expect(404);

    const page = await browser.newPage();
    try {
      await signIn(page);
      await page.goto(`${sb.baseUrl}/dashboard/payments/${p.ID}`);
      const rows = page.locator('table.requests tbody tr');
      expect(await rows.locator('td:nth-child(2) code').allInnerTexts()).toEqual([
        'POST /v1/payments',
        `POST /v1/payments/${p.ID}/capture`,
        `POST /v1/payments/${p.ID}/capture`,
      ]);
      expect(await rows.locator('td.status').allInnerTexts()).toEqual(['201', '200', '400']);
      expect(await rows.locator('td.reasons').allInnerTexts()).toEqual(['', '', '17 Payment is invalid']);
      // The bodies are folded until asked for, and then exactly what was sent.
      const first = rows.first().locator('details');
      await expect(first.locator('pre').first().isVisible()).resolves.toBe(false);
      await first.locator('summary').click();
      expect(await first.locator('pre').first().innerText()).toBe(sent);

      await page.getByRole('link', { name: 'Requests', exact: true }).click();
      await page.waitForURL('**/dashboard/requests');
      const all = page.locator('table.requests tbody tr');
      expect(await all.count()).toBe(4);
      expect(await page.locator('tr.near-miss td.what').innerText()).toBe('POST /v1/payment: no such route; nearest POST /v1/payments');
      expect(await all.first().locator('td:nth-child(2) code').innerText()).toBe('POST /v1/payment');
    } finally {
      await page.close();
    }
  }, 60_000);
});
