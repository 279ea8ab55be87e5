// A site made through the merchant sites API works on its marketplace's own clock: its payments' steps
// and notifications move when the marketplace's clock does, not with the sandbox's.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, basic, paymentBody } from '../helpers/world';

describe("a made site on its marketplace's clock", () => {
  let sb: Sandbox;
  let rx: Receiver;
  afterEach(async () => {
    await sb?.stop();
    await rx?.close();
  });

  it('authorizes its payment when the marketplace’s clock moves 2 s, and notifies it, signed with the site’s key', async () => {
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 7, quiet: true, scenario: 'two-step' });
    rx = await startReceiver();
    const m = (await request(sb.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 0, Clock: 'manual' })).body.Merchant;
    const mAuth = basic(m.SiteID, m.APIKey);
    const made = await request(sb.baseUrl)
      .post('/v1/merchantsites')
      .set('Authorization', mAuth)
      .send({ MerchantSite: { URL: 'https://seller.example', NotificationURL: rx.url, Alias: 'Seller' } });
    expect(made.status).toBe(201);
    const siteAuth = basic(made.body.MerchantSite.ID, made.body.MerchantSite.ApiKey);
    const pay = await request(sb.baseUrl).post('/v1/payments').set('Authorization', siteAuth).send(paymentBody({ Splits: undefined }));
    expect(pay.status).toBe(201);
    const statusOf = async () => (await request(sb.baseUrl).get(`/v1/payments/${pay.body.Payment.ID}`).set('Authorization', siteAuth)).body.Payment.Status.ID;

    // The sandbox's clock leaves it be.
    await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 5 }).expect(200);
    expect(await statusOf()).toBe(1);
    // Its marketplace's clock moves it.
    await request(sb.baseUrl).post(`/_sandbox/merchants/${m.SiteID}/clock/advance`).set('Authorization', mAuth).send({ Seconds: 2 }).expect(200);
    expect(await statusOf()).toBe(9);
    await sb.notifications.waitFor({ PaymentID: pay.body.Payment.ID, StatusID: 9 }, { delivered: true });
    expect(rx.received.map((r) => [r.body.Payment.ID, r.body.Payment.Status.ID, r.headers.authorization])).toEqual([[pay.body.Payment.ID, 9, siteAuth]]);
  });
});
