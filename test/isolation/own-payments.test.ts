// A marketplace's own routes to its payments: what its dashboard offers (the story, provider events,
// refund and dispute events, redelivery, replay) for its Basic credentials; another marketplace's
// credentials and payments are a 404 that says nothing of them; no credentials, a 401.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, basic } from '../helpers/world';
import { payAs } from './pay';

const TOKEN = 'own-payments-token';
const CARD = { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' };

interface Made {
  SiteID: number;
  LinkedSiteIDs: number[];
  auth: string;
}

describe("a marketplace's own payment routes", () => {
  let sb: Sandbox;
  let rx: Receiver;
  let a: Made;
  let b: Made;
  const control = { Authorization: `Bearer ${TOKEN}` };

  beforeEach(async () => {
    rx = await startReceiver();
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 23, quiet: true, scenario: 'two-step', controlToken: TOKEN });
    const make = async (): Promise<Made> => {
      const m = (await request(sb.baseUrl).post('/_sandbox/merchants').set(control).send({ LinkedSites: 1, NotificationURL: rx.url }).expect(201)).body.Merchant;
      return { SiteID: m.SiteID, LinkedSiteIDs: m.LinkedSiteIDs, auth: basic(m.SiteID, m.APIKey) };
    };
    a = await make();
    b = await make();
  });
  afterEach(async () => {
    await sb?.stop();
    await rx?.close();
  });

  const api = () => request(sb.baseUrl);
  const own = (m: Made, path: string) => `/_sandbox/merchants/${m.SiteID}${path}`;
  /** The answers that must say nothing: another's credentials on its path, and the other's payment on one's own path as for an ID that does not exist. */
  const refusedEverywhere = async (method: 'get' | 'post', path: (m: Made) => string, missing: (m: Made) => string, body?: object) => {
    const send = (r: request.Test) => (body === undefined ? r : r.send(body));
    const byOther = await send(api()[method](path(a)).set('Authorization', b.auth));
    expect(byOther.status).toBe(404);
    expect(byOther.body).toEqual({ Message: 'Merchant not found.' });
    const othersThing = await send(api()[method](path(a).replace(`/merchants/${a.SiteID}/`, `/merchants/${b.SiteID}/`)).set('Authorization', b.auth));
    const nothing = await send(api()[method](missing(b)).set('Authorization', b.auth));
    expect(othersThing.status).toBe(404);
    expect(nothing.status).toBe(404);
    expect(othersThing.body).toEqual(nothing.body);
    const anonymous = await send(api()[method](path(a)));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.Message).toMatch(/control token/);
  };

  it("reads one of its payments and its story with its own credentials, where the control API's routes want the token", async () => {
    const p = await payAs(sb.baseUrl, a.auth, a.LinkedSiteIDs[0], 1);
    expect((await api().get(`/_sandbox/payments/${p.ID}/story`).set('Authorization', a.auth)).status).toBe(401);

    const inspected = await api().get(own(a, `/payments/${p.ID}`)).set('Authorization', a.auth);
    expect(inspected.status).toBe(200);
    expect(inspected.body.Payment.ID).toBe(p.ID);
    expect(inspected.body.Scenario).toBe('two-step');
    expect(inspected.body.History[0].StatusInfo).toBe('Open');

    const story = await api().get(own(a, `/payments/${p.ID}/story`)).set('Authorization', a.auth);
    expect(story.status).toBe(200);
    expect(story.body.Story.PaymentID).toBe(p.ID);
    expect(story.body.Request.Payment.MerchantTransactionID).toBe('order-1');

    // Its settings with its credentials too (what trigger reads its linked sites from).
    const settings = await api().get(`/_sandbox/merchants/${a.SiteID}`).set('Authorization', a.auth);
    expect(settings.status).toBe(200);
    expect(settings.body.Merchant.LinkedSiteIDs).toEqual(a.LinkedSiteIDs);
    expect((await api().get(`/_sandbox/merchants/${a.SiteID}`).set('Authorization', b.auth)).status).toBe(404);

    await refusedEverywhere('get', (m) => own(m, `/payments/${p.ID}`), (m) => own(m, '/payments/99999999'));
    await refusedEverywhere('get', (m) => own(m, `/payments/${p.ID}/story`), (m) => own(m, '/payments/99999999/story'));
  });

  it('sends provider events to its own payment, and to none of another marketplace', async () => {
    const p = await payAs(sb.baseUrl, a.auth, a.LinkedSiteIDs[0], 1);
    expect((await api().post(`/_sandbox/payments/${p.ID}/events`).set('Authorization', a.auth).send({ Event: 'authorize' })).status).toBe(401);
    await refusedEverywhere('post', (m) => own(m, `/payments/${p.ID}/events`), (m) => own(m, '/payments/99999999/events'), { Event: 'authorize' });

    const res = await api().post(own(a, `/payments/${p.ID}/events`)).set('Authorization', a.auth).send({ Event: 'authorize' });
    expect(res.status).toBe(200);
    expect(res.body.Payment.Status.Info).toBe('Authorized');
    // Refusals of the event itself read as the control API's.
    const bad = await api().post(own(a, `/payments/${p.ID}/events`)).set('Authorization', a.auth).send({ Event: 'explode' });
    expect(bad.status).toBe(400);
  });

  it("lets a refund of its payment succeed, and no other marketplace's", async () => {
    const p = await payAs(sb.baseUrl, a.auth, a.LinkedSiteIDs[0], 1);
    await api().post(own(a, `/payments/${p.ID}/events`)).set('Authorization', a.auth).send({ Event: 'authorize' }).expect(200);
    await api().post(`/v1/payments/${p.ID}/capture`).set('Authorization', a.auth).expect(200);
    const split = (await api().get(`/v1/payments/${p.ID}`).set('Authorization', a.auth)).body.Payment.Splits[0].ID;
    const refund = await api().post(`/v1/payments/${p.ID}/splits/${split}/refunds`).set('Authorization', a.auth).send({ Refund: { Amount: '100' } });
    expect(refund.status).toBe(201);
    const id = refund.body.Refund.ID;

    await refusedEverywhere('post', (m) => own(m, `/refunds/${id}/events`), (m) => own(m, '/refunds/99999999/events'), { Event: 'succeed' });
    const res = await api().post(own(a, `/refunds/${id}/events`)).set('Authorization', a.auth).send({ Event: 'succeed' });
    expect(res.status).toBe(200);
    expect(res.body.Refund.Status.Info).toBe('Success');
  });

  it("opens and wins a dispute of its card payment, and of no other marketplace's", async () => {
    const card = await request(sb.cardBaseUrl)
      .post('/v1/payments')
      .set('Authorization', a.auth)
      .send({ Payment: { MerchantTransactionID: 'card-1', Amount: 9000, Currency: 'EUR', Capture: false, Card: CARD } });
    expect(card.status).toBe(201);
    const pid = card.body.Payment.ID;
    await request(sb.cardBaseUrl).post(`/v1/payments/${pid}/capture`).set('Authorization', a.auth).expect(200);
    await sb.clock.advance(1);
    await refusedEverywhere('post', (m) => own(m, `/payments/${pid}/events`), (m) => own(m, '/payments/99999999/events'), { Event: 'dispute' });
    const opened = await api().post(own(a, `/payments/${pid}/events`)).set('Authorization', a.auth).send({ Event: 'dispute' });
    expect(opened.status).toBe(200);
    const id = opened.body.Dispute.ID;

    await refusedEverywhere('post', (m) => own(m, `/disputes/${id}/events`), (m) => own(m, '/disputes/99999999/events'), { Event: 'win' });
    const won = await api().post(own(a, `/disputes/${id}/events`)).set('Authorization', a.auth).send({ Event: 'win' });
    expect(won.status).toBe(200);
    expect(won.body.Dispute.Status.ID).toBe(23);
  });

  it("redelivers its own notification, and no other marketplace's", async () => {
    const p = await payAs(sb.baseUrl, a.auth, a.LinkedSiteIDs[0], 1);
    await api().post(own(a, `/payments/${p.ID}/events`)).set('Authorization', a.auth).send({ Event: 'authorize' }).expect(200);
    await sb.clock.advance(1);
    const journal = await api().get(own(a, `/notifications?PaymentID=${p.ID}`)).set('Authorization', a.auth).expect(200);
    const id = journal.body.Notifications[0].ID;

    await refusedEverywhere('post', (m) => own(m, `/notifications/${id}/redeliver`), (m) => own(m, '/notifications/99999999/redeliver'));
    const res = await api().post(own(a, `/notifications/${id}/redeliver`)).set('Authorization', a.auth);
    expect(res.status).toBe(202);
    expect(res.body.Notification.ID).toBe(id);
    expect(res.body.Notification.State).toBe('pending');
  });

  it("replays a story as a payment of its own, whichever marketplace's story it was", async () => {
    const p = await payAs(sb.baseUrl, a.auth, a.LinkedSiteIDs[0], 1);
    const story = (await api().get(own(a, `/payments/${p.ID}/story`)).set('Authorization', a.auth).expect(200)).body;
    story.Request.Payment.Splits[0].SiteID = b.LinkedSiteIDs[0];

    expect((await api().post('/_sandbox/replay').set('Authorization', b.auth).send(story)).status).toBe(401);
    const res = await api().post(own(b, '/replay')).set('Authorization', b.auth).send(story);
    expect(res.status).toBe(201);
    expect((await api().get(`/v1/payments/${res.body.PaymentID}`).set('Authorization', b.auth)).status).toBe(200);
    expect((await api().get(`/v1/payments/${res.body.PaymentID}`).set('Authorization', a.auth)).status).toBe(404);

    expect((await api().post(own(b, '/replay')).set('Authorization', a.auth).send(story)).status).toBe(404);
    expect((await api().post(own(b, '/replay')).send(story)).status).toBe(401);
  });
});
