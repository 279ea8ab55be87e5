// A merchant in a real browser: signs in, sets the notification URL, finds a payment, captures one
// split, refunds it, and sees the delivery attempts of its notifications.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { HAVE_CHROMIUM, UPDATE_SCREENSHOTS, connect } from './browser';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const maybe = HAVE_CHROMIUM ? describe : describe.skip;

maybe('the merchant dashboard in Chromium', () => {
  let browser: Browser;
  let sb: Sandbox;
  let rx: Receiver;

  beforeAll(async () => (browser = await connect()), 60_000);
  afterAll(async () => browser?.close());
  beforeEach(async () => {
    rx = await startReceiver();
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
  });
  afterEach(async () => {
    await sb.stop();
    await rx.close();
  });

  const submit = async (page: Page, button: string) => {
    await Promise.all([page.waitForLoadState('load'), page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: button, exact: true }).first().click()]);
    await page.waitForLoadState('load');
  };

  it('sign in, notification URL, capture one split, refund it, see the attempts', async () => {
    const created = await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody({ MerchantTransactionID: 'order-42' }));
    const p = created.body.Payment;
    await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'authorize' }).expect(200);

    const page = await browser.newPage();
    try {
      await page.goto(`${sb.baseUrl}/dashboard`);
      await page.fill('input[name="SiteID"]', String(MARKETPLACE.SiteID));
      await page.fill('input[name="APIKey"]', MARKETPLACE.APIKey);
      await submit(page, 'Sign in');
      await page.getByText('order-42').waitFor();

      await page.goto(`${sb.baseUrl}/dashboard/settings`);
      await page.fill('input[name="NotificationURL"]', rx.url);
      await submit(page, 'Save');
      expect(sb.services.store.sites.get(30201)!.notificationUrl).toBe(rx.url);

      await page.goto(`${sb.baseUrl}/dashboard`);
      await Promise.all([page.waitForURL(`**/dashboard/payments/${p.ID}`), page.getByRole('link', { name: String(p.ID), exact: true }).click()]);
      const captureForm = page.locator('form[action$="/capture-split"]');
      await captureForm.locator('select[name="SplitID"]').selectOption(String(p.Splits[0].ID));
      await captureForm.locator('input[name="Amount"]').fill('400');
      await submit(page, 'Capture split');
      await sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 35 }, 5000);

      const refundForm = page.locator('form[action$="/refund"]');
      await refundForm.locator('select[name="SplitID"]').selectOption(String(p.Splits[0].ID));
      await refundForm.locator('input[name="Amount"]').fill('150');
      await refundForm.locator('input[name="Description"]').fill('one item back');
      await submit(page, 'Refund');
      await sb.clock.advance(1); // the refund succeeds a second later (two-step scenario)

      await page.reload();
      await page.getByText('PartiallyCaptured').first().waitFor();
      expect(await page.locator('body').innerText()).toContain('204');
      if (UPDATE_SCREENSHOTS) await page.screenshot({ path: join(__dirname, '..', '..', 'docs', 'payment-page.png'), fullPage: true });
    } finally {
      await page.close();
    }

    const stored = (await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', auth)).body.Payment;
    expect(stored.Status.ID).toBe(35);
    expect(stored.Splits[0].CapturedAmount).toBe('400');
    const refunds = (await request(sb.baseUrl).get(`/_sandbox/payments/${p.ID}`)).body.Refunds;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ Amount: '150', Description: 'one item back', Status: { ID: 2 } });
    expect(rx.received.map((r) => (r.body.Payment ? `P${r.body.Payment.Status.ID}` : `R${r.body.Refund.Status.ID}`))).toEqual(['P35', 'R2']);
  });
});
