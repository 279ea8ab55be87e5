// A payer in a real browser: opens RedirectURL, authorizes, lands on ReturnURL; the merchant is notified.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { HAVE_CHROMIUM, UPDATE_SCREENSHOTS, connect } from './browser';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const maybe = HAVE_CHROMIUM ? describe : describe.skip;
if (!HAVE_CHROMIUM) console.warn('browser tests skipped: no Chromium at /usr/bin/chromium (apt-get install -y chromium)');

maybe('the payment page in Chromium', () => {
  let browser: Browser;
  // The payer's browser: its tabs are pages of one context, the first tab kept from test to test (a new
  // context or page is a new renderer process).
  let context: BrowserContext;
  let tab: Page;
  let sb: Sandbox;
  let rx: Receiver;
  let shop: Server;
  let shopUrl: string;

  beforeAll(async () => {
    browser = await connect();
    context = await browser.newContext();
    tab = await context.newPage();
    // The merchant's ReturnURL: a page of the shop.
    shop = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>Thank you for your order</h1>'));
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/return`;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => shop?.close(r));
  });
  beforeEach(async () => {
    rx = await startReceiver();
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, notifyUrl: rx.url });
  });
  afterEach(async () => {
    await sb.stop();
    await rx.close();
  });

  it('authorize: the browser lands on ReturnURL and the Authorized notification arrives', async () => {
    const created = await request(sb.baseUrl)
      .post('/v1/payments')
      .set('Authorization', auth)
      .send(paymentBody({ ReturnURL: shopUrl, Amount: '2500', Description: 'Two books and a pen', Splits: [
        { SiteID: 30202, Amount: '1500', MerchantTransactionID: 'books' },
        { SiteID: 30203, Amount: '1000', MerchantTransactionID: 'pen' },
      ] }));
    const p = created.body.Payment;
    const page = tab;
    await page.goto(p.RedirectURL);
    await page.getByText('25.00 EUR').first().waitFor();
    if (UPDATE_SCREENSHOTS) await page.screenshot({ path: join(__dirname, '..', '..', 'docs', 'payer-page.png'), fullPage: true });
    // The scenario's own authorization (2 s after creation) passes while the payer looks at the page:
    // the payer still decides.
    await sb.clock.advance(60);
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', auth)).body.Payment.Status.ID).toBe(1);
    await Promise.all([page.waitForURL(shopUrl), page.getByRole('button', { name: 'Authorize' }).click()]);
    expect(await page.textContent('h1')).toBe('Thank you for your order');
    const n = await sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 9 }, 5000);
    expect(n.State).toBe('delivered');
    expect(rx.received.at(-1)!.headers.authorization).toBe(auth);
    expect(rx.received.at(-1)!.body.Payment.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: null });
  });

  it('a second tab pressing again changes nothing and shows why', async () => {
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody({ ReturnURL: shopUrl }))).body.Payment;
    const [a, b] = [tab, await context.newPage()];
    try {
      await a.goto(p.RedirectURL);
      await b.goto(p.RedirectURL);
      await Promise.all([a.waitForURL(shopUrl), a.getByRole('button', { name: 'Authorize' }).click()]);
      const [res] = await Promise.all([b.waitForResponse((r) => r.url().includes('/Home/fail')), b.getByRole('button', { name: 'Fail' }).click()]);
      expect(res.status()).toBe(410);
      await b.getByText('already been completed').waitFor();
    } finally {
      await b.close();
    }
    const stored = await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', auth);
    expect(stored.body.Payment.Status.ID).toBe(9);
  });
});
