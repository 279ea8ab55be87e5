// End to end: the resilient shop against split-sandbox with faults on both channels. Its create's
// answer is lost, its capture fails once, and the Authorized notification comes twice; the shop ends
// with exactly one payment per order, shipped, and acts on each status once.
import { type Sandbox, startSandbox } from 'split-sandbox';
import { ResilientShop } from './resilient-shop';

describe('the resilient shop, against split-sandbox misbehaving on demand', () => {
  let sandbox: Sandbox;
  let shop: ResilientShop;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', scenario: 'two-step', seed: 42, quiet: true });
    shop = new ResilientShop({ apiBaseUrl: sandbox.baseUrl, siteId: sandbox.merchant.SiteID, apiKey: sandbox.merchant.APIKey });
    const notifyUrl = await shop.listen();
    await fetch(`${sandbox.baseUrl}/_sandbox/merchants/${sandbox.merchant.SiteID}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ NotificationURL: notifyUrl }),
    });
  });
  afterEach(async () => {
    await sandbox.stop();
    await shop.close();
  });

  it('recovers a payment whose create answer was lost, ships it through a 503, and acts once on a notification sent twice', async () => {
    const site = sandbox.merchant.SiteID;
    sandbox.faults.add({ Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments', SiteID: site }, Action: { LoseAnswer: true }, Times: 1 });
    sandbox.faults.add({ Channel: 'api', Match: { Path: '/v1/payments/{id}/capture', SiteID: site }, Action: { Status: 503 }, Times: 1 });
    sandbox.faults.add({ Channel: 'notifications', Match: { SiteID: site, StatusID: 9 }, Action: { Duplicate: 2 } });
    const [a, b] = sandbox.merchant.LinkedSiteIDs;

    const paymentId = await shop.checkout('order-1', [
      { sellerSiteId: a!, amount: 1250, sku: 'book' },
      { sellerSiteId: b!, amount: 799, sku: 'pen' },
    ]);
    expect(shop.retries).toBe(1);
    // One payment for the order: the one the lost answer was about.
    const listed = (await (await fetch(`${sandbox.baseUrl}/_sandbox/payments/${paymentId}`)).json()) as { Payment: { MerchantTransactionID: string } };
    expect(listed.Payment.MerchantTransactionID).toBe('order-1');
    expect(sandbox.services.store.db.prepare(`SELECT count(*) FROM payments WHERE merchant_transaction_id = 'order-1'`).pluck().get()).toBe(1);

    await sandbox.clock.advance(2); // the payer authorizes (scenario two-step): its notification comes twice
    expect(shop.received).toBe(2);
    expect(shop.actions).toEqual(['order-1: Authorized']);
    expect(sandbox.notifications.list({ PaymentID: paymentId, StatusID: 9, SortDirection: 'asc' }).Notifications.map((n) => n.Fault)).toEqual([
      expect.stringMatching(/^sent 2 times by fault 3/),
      expect.stringMatching(/^copy 2 of 2 of notification \d+, by fault 3$/),
    ]);

    expect(await shop.ship(paymentId)).toBe(2);
    expect(shop.retries).toBe(2);
    await sandbox.notifications.waitFor({ PaymentID: paymentId, StatusID: 2 });
    expect(shop.actions).toEqual(['order-1: Authorized', 'order-1: Success']);
    expect(sandbox.faults.list().map((f) => f.Hits)).toEqual([1, 1, 1]);
  });

  it('without faults, checks out and ships with no retry', async () => {
    const [a] = sandbox.merchant.LinkedSiteIDs;
    const paymentId = await shop.checkout('order-2', [{ sellerSiteId: a!, amount: 500, sku: 'mug' }]);
    await sandbox.clock.advance(2);
    expect(await shop.ship(paymentId)).toBe(2);
    await sandbox.notifications.waitFor({ PaymentID: paymentId, StatusID: 2 });
    expect([shop.retries, shop.received, shop.actions]).toEqual([0, 2, ['order-2: Authorized', 'order-2: Success']]);
  });
});
