// End to end: the shop against split-sandbox, started from the test file itself.
import { type Sandbox, startSandbox } from 'split-sandbox';
import { Shop } from './shop';

describe('the shop, against split-sandbox', () => {
  let sandbox: Sandbox;
  let shop: Shop;
  let notifyUrl: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', scenario: 'two-step', seed: 42, quiet: true });
    shop = new Shop({ apiBaseUrl: sandbox.baseUrl, siteId: sandbox.merchant.SiteID, apiKey: sandbox.merchant.APIKey });
    notifyUrl = await shop.listen();
    await fetch(`${sandbox.baseUrl}/_sandbox/merchants/${sandbox.merchant.SiteID}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ NotificationURL: notifyUrl }),
    });
  });
  afterAll(async () => {
    await sandbox.stop();
    await shop.close();
  });

  it('checks out a basket of two sellers, learns it is authorized, ships it and learns it is paid', async () => {
    const [a, b] = sandbox.merchant.LinkedSiteIDs;
    const { paymentId, redirectUrl } = await shop.checkout('order-1', [
      { sellerSiteId: a!, amount: 1250, sku: 'book' },
      { sellerSiteId: b!, amount: 799, sku: 'pen' },
    ]);
    expect(redirectUrl).toContain(`/Home?PaymentToken=`);

    await sandbox.clock.advance(2); // the payer authorizes (scenario two-step)
    await sandbox.notifications.waitFor({ PaymentID: paymentId, StatusID: 9 });
    expect(shop.statuses.get(paymentId)).toBe(9);

    expect(await shop.ship(paymentId)).toBe(2);
    await sandbox.notifications.waitFor({ PaymentID: paymentId, StatusID: 2 });
    expect(shop.statuses.get(paymentId)).toBe(2);
  });
});
