// The request journal keeps every request of both addresses and the payer's buttons, accepted or
// refused, with its fields and exact bodies, and never the credentials.
import request from 'supertest';
import { operations } from '../../src/openapi/document';
import { BODY_CAP, type RequestEntry } from '../../src/requests/journal';
import { MARKETPLACE, START_STAMP, type World, authorizedPayment, basic, createPayment, event, makeWorld, paymentBody } from '../helpers/world';

const CARD_NUMBER = '4111111111111111';
const tokenOf = (redirectUrl: string) => new URL(redirectUrl).searchParams.get('PaymentToken')!;

function cardBody(mtid: string, extra: Record<string, unknown> = {}) {
  return {
    Payment: {
      MerchantTransactionID: mtid,
      Amount: 2000,
      Currency: 'EUR',
      ReturnURL: 'https://shop.example/card-return',
      Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace' },
      BillingAddress: { Country: 'NL' },
      Card: { HolderName: 'Ada Lovelace', Number: CARD_NUMBER, ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '7319' },
      ...extra,
    },
  };
}

async function journal(w: World, query = ''): Promise<RequestEntry[]> {
  const res = await request(w.api).get(`/_sandbox/requests?PageSize=1000&SortDirection=asc${query}`);
  expect(res.status).toBe(200);
  return res.body.Requests as RequestEntry[];
}

describe('the request journal', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('keeps a create with every field, its exact request and answer bodies, and no credentials', async () => {
    const sent = JSON.stringify(paymentBody({ MerchantTransactionID: 'order-1' }));
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send(sent);
    expect(res.status).toBe(201);
    const [entry] = await journal(w);
    expect(entry).toEqual({
      ID: expect.any(Number),
      At: START_STAMP,
      AtMs: w.clock.now(),
      WallTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      Address: 'api',
      Method: 'POST',
      Path: '/v1/payments',
      Query: null,
      Route: '/v1/payments',
      SiteID: MARKETPLACE.SiteID,
      Authenticated: true,
      Unauthenticated: false,
      // Its texts as UTF-8 bytes, and 256 for the rest.
      StoredBytes: 256 + 'POST'.length + 2 * '/v1/payments'.length + Buffer.byteLength(sent) + Buffer.byteLength(res.text),
      PaymentID: res.body.Payment.ID,
      RefundID: null,
      SplitID: null,
      Status: 201,
      ReasonCodes: [],
      DurationMs: expect.any(Number),
      Fault: null,
      NearMiss: null,
      Request: { Body: sent, Bytes: Buffer.byteLength(sent), CappedAt: null },
      Response: { Body: res.text, Bytes: Buffer.byteLength(res.text), CappedAt: null },
    });
  });

  it('keeps every route of both addresses, accepted and refused, and the APIKey is nowhere in the journal', async () => {
    const api = (m: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
      const r = request(w.api)[m](path).set('Authorization', w.auth);
      return body ? r.send(body) : r;
    };
    const card = (m: 'get' | 'post', path: string, body?: object) => {
      const r = request(w.card)[m](path).set('Authorization', w.auth);
      return body ? r.send(body) : r;
    };
    // The API address.
    const p = await authorizedPayment(w);
    const open = await createPayment(w, { Splits: undefined });
    await api('get', '/v1/payments');
    await api('get', `/v1/payments/${p.ID}`);
    await api('get', `/v1/payments/${p.ID}/status`);
    await api('post', `/v1/payments/${open.ID}/splits`, { Splits: [{ SiteID: 30202, Amount: '1000', MerchantTransactionID: 'late-1' }] });
    const q = await authorizedPayment(w);
    await api('post', `/v1/payments/${q.ID}/splits/${q.Splits[0]!.ID}/capture`);
    await api('post', `/v1/payments/${p.ID}/capture`);
    const refused = await api('post', `/v1/payments/${p.ID}/capture`);
    expect(refused.status).toBe(400);
    const paid = await event(w, (await createPayment(w, { MethodID: 29 })).ID, 'succeed');
    const refund = await api('post', `/v1/payments/${paid.ID}/splits/${paid.Splits[1]!.ID}/refunds`, { Refund: { MerchantTransactionID: 'r-1', Amount: 120 } });
    expect(refund.status).toBe(201);
    await api('get', `/v1/payments/${paid.ID}/refunds`);
    await api('get', `/v1/payments/${paid.ID}/refunds/${refund.body.Refund.ID}`);
    await api('get', `/v1/payments/${paid.ID}/refunds/${refund.body.Refund.ID}/status`);
    await api('post', `/v1/payments/${paid.ID}/refunds`, { Refund: { MerchantTransactionID: 'r-2', Amount: 100 } });
    await api('post', `/v1/payments/${open.ID}/cancel`);
    await api('get', '/v1/methods');
    await api('get', '/v1/methods/assigned');
    await api('get', '/v1/methods/42');
    const payer = await createPayment(w);
    await request(w.api).post('/Home/authorize').type('form').send({ PaymentToken: tokenOf(payer.RedirectURL!) });
    await request(w.api).get('/Home?PaymentToken=nothing');
    // Preapprovals, a recurring payment, refund types and exchange rates.
    const pre = (
      await api('post', '/v1/preapprovals', {
        Preapproval: { MerchantPreapprovalID: 'sub-1', Description: 'subscription', ReturnURL: 'https://shop.example/return', MethodID: 2, Customer: { Email: 'payer@example.com' } },
      })
    ).body.Preapproval;
    await api('get', '/v1/preapprovals');
    await api('get', `/v1/preapprovals/${pre.ID}`);
    await api('get', `/v1/preapprovals/${pre.ID}/payments`);
    await api('post', '/v1/payments/recurrent', { Payment: { PreapprovalID: pre.ID, MerchantTransactionID: 'rec-1', Amount: '1000', Currency: 'EUR' } });
    await request(w.api).post('/Home/Preapproval/approve').type('form').send({ PreapprovalToken: new URL(pre.RedirectURL).searchParams.get('PreapprovalToken') });
    await api('patch', `/v1/preapprovals/${pre.ID}`, { Preapproval: { Description: 'subscription, renewed' } });
    await api('delete', `/v1/preapprovals/${pre.ID}`);
    await api('get', `/v1/payments/${paid.ID}/refunds/types`);
    await api('get', '/v1/refunds/types/1/NL/EUR');
    // Merchant sites.
    const site = (await api('post', '/v1/merchantsites', { MerchantSite: { URL: 'https://seller.example' } })).body.MerchantSite;
    await api('get', '/v1/merchantsites');
    await api('get', `/v1/merchantsites/${site.ID}`);
    await api('patch', `/v1/merchantsites/${site.ID}`, { MerchantSite: { Alias: 'Seller' } });
    await api('post', `/v1/merchantsites/${site.ID}/regenerateapikey`);
    await api('delete', `/v1/merchantsites/${site.ID}`);
    await api('get', '/v1/exchangerates/EUR/USD/');
    // The card address.
    const c = (await card('post', '/v1/payments', cardBody('card-1'))).body.Payment;
    const held = (await card('post', '/v1/payments', cardBody('card-2', { ThreeDSecureCheck: true }))).body.Payment;
    await card('get', '/v1/payments');
    await card('get', `/v1/payments/${c.ID}`);
    await card('get', `/v1/payments/${c.ID}/status`);
    await card('post', `/v1/payments/${c.ID}/capture`);
    await request(w.api).post(`/_sandbox/payments/${c.ID}/events`).send({ Event: 'succeed' });
    const cardRefund = await card('post', `/v1/payments/${c.ID}/refunds`, { Refund: { MerchantTransactionID: 'cr-1', Amount: 100 } });
    await card('post', `/v1/payments/${c.ID}/splits/1/refunds`, { Refund: { MerchantTransactionID: 'cr-2', Amount: 100 } });
    await card('get', `/v1/payments/${c.ID}/refunds`);
    await card('get', `/v1/payments/${c.ID}/refunds/${cardRefund.body.Refund?.ID ?? 1}`);
    await card('get', `/v1/payments/${c.ID}/refunds/${cardRefund.body.Refund?.ID ?? 1}/status`);
    await card('post', `/v1/payments/${c.ID}/cancel`);
    // A fraud challenge: one refused (the payment is not held), one accepted after a hold.
    await card('post', `/v1/payments/${c.ID}/challenge/reject`);
    const challenged = (await card('post', '/v1/payments', cardBody('card-3'))).body.Payment;
    await request(w.api).post(`/_sandbox/payments/${challenged.ID}/events`).send({ Event: 'challenge' });
    await card('post', `/v1/payments/${challenged.ID}/challenge/accept`);
    // Capture reads, the SDK's status spelling, refund status, payouts and card authentications.
    await card('get', `/v1/payments/${c.ID}/statuss`);
    await card('get', `/v1/payments/${c.ID}/captures`);
    await card('get', `/v1/payments/${c.ID}/captures/1`);
    await card('get', `/v1/refunds/${cardRefund.body.Refund?.ID ?? 1}/status`);
    const payout = (
      await card('post', '/v1/payouts', {
        Payout: { MerchantTransactionID: 'po-1', Amount: 500, Currency: 'EUR', Card: { HolderName: 'Ada Lovelace', Number: CARD_NUMBER, ExpirationMonth: '12', ExpirationYear: '2030' } },
      })
    ).body.Payout;
    await card('get', '/v1/payouts');
    await card('get', `/v1/payouts/${payout?.ID ?? 1}`);
    await card('get', `/v1/payouts/${payout?.ID ?? 1}/status`);
    await card('post', '/v1/card/authenticate', {
      CardAuthentication: { Card: { HolderName: 'Ada Lovelace', Number: CARD_NUMBER, ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '7319' } },
    });
    await card('get', `/v1/card/token/${'0'.repeat(32)}`);
    await card('post', `/v1/card/token/${'0'.repeat(32)}/cancel`);
    const form = new URL(held.RedirectURL);
    await request(w.card).get(form.pathname + form.search);
    await request(w.card).post('/v1/Payments/FillCardDetails/authorize').type('form').send({ PaymentToken: form.searchParams.get('PaymentToken') });

    const entries = await journal(w);
    const seen = (address: string) => new Set(entries.filter((e) => e.Address === address).map((e) => `${e.Method} ${e.Route}`));
    for (const address of ['api', 'card'] as const) {
      const routes = operations(address)
        .filter((op) => op.path.startsWith('/v1/') || (op.path.startsWith('/Home/') && op.method === 'post'))
        .map((op) => `${op.method.toUpperCase()} ${op.path}`);
      expect([...routes].filter((r) => !seen(address).has(r))).toEqual([]);
    }
    // A method's ID is not a payment's.
    expect(entries.find((e) => e.Route === '/v1/methods/{id}')).toMatchObject({ Path: '/v1/methods/42', PaymentID: null, Status: 200 });
    // A refused call is kept with its reason codes, and names its payment.
    const second = entries.filter((e) => e.Route === '/v1/payments/{id}/capture' && e.Address === 'api');
    expect(second.map((e) => [e.PaymentID, e.Status, e.ReasonCodes])).toEqual([
      [p.ID, 200, []],
      [p.ID, 400, refused.body.Payment.Status.Reasons.map((r: { Code: number }) => r.Code)],
    ]);
    expect(second[1]!.ReasonCodes.length).toBeGreaterThan(0);
    // A refund names its payment, its split and itself (made, read, and its status read); the payer’s button its payment.
    expect((await request(w.api).get(`/_sandbox/requests/count?RefundID=${refund.body.Refund.ID}`)).body).toEqual({ Count: 3 });
    expect(entries.find((e) => e.RefundID === refund.body.Refund.ID && e.Method === 'POST')).toMatchObject({ PaymentID: paid.ID, SplitID: paid.Splits[1]!.ID });
    expect(entries.find((e) => e.Route === '/Home/{action}')).toMatchObject({ PaymentID: payer.ID, SiteID: MARKETPLACE.SiteID, Authenticated: false, Status: 303 });
    // The card's number is masked as the card API's answers show it, and its security code replaced.
    const cardCreate = entries.find((e) => e.Address === 'card' && e.Route === '/v1/payments' && e.Method === 'POST')!;
    expect(cardCreate.Request.Body).not.toContain(CARD_NUMBER);
    expect(JSON.parse(cardCreate.Request.Body!).Payment.Card.SecurityCode).toBe('***');
    expect(JSON.parse(cardCreate.Request.Body!).Payment.Card.Number).toBe('VISA-1111');
    // Neither the APIKey nor the Authorization header, anywhere in the table.
    const everything = JSON.stringify(w.store.db.prepare('SELECT * FROM requests').all());
    expect(everything).not.toContain(MARKETPLACE.APIKey);
    expect(everything).not.toContain(w.auth.slice(6));
    expect(everything).not.toContain(CARD_NUMBER);
  });

  it('keeps a body larger than the cap up to the cap, and says so', async () => {
    const big = JSON.stringify(paymentBody({ Description: 'x'.repeat(BODY_CAP) }));
    await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send(big);
    const [entry] = await journal(w);
    expect(entry!.Request).toEqual({ Body: big.slice(0, BODY_CAP), Bytes: big.length, CappedAt: BODY_CAP });
  });

  it('keeps requests that fail to authenticate, with the SiteID they tried and never the key', async () => {
    const wrong = basic(MARKETPLACE.SiteID, 'not-the-key');
    const res = await request(w.api).post('/v1/payments').set('Authorization', wrong).send(paymentBody());
    expect(res.status).toBe(401);
    const [entry] = await journal(w);
    expect(entry).toMatchObject({ SiteID: MARKETPLACE.SiteID, Authenticated: false, Status: 401, Route: '/v1/payments', NearMiss: `SiteID ${MARKETPLACE.SiteID}: wrong APIKey` });
    expect(JSON.stringify(entry)).not.toContain('not-the-key');
    expect(JSON.stringify(entry)).not.toContain(wrong.slice(6));
  });

  it('keeps nothing with --request-journal 0', async () => {
    const off = makeWorld({ requestJournal: 0 });
    try {
      await createPayment(off);
      expect(off.store.db.prepare('SELECT count(*) FROM requests').pluck().get()).toBe(0);
      expect((await request(off.api).get('/_sandbox/requests')).body).toEqual({ Message: 'the request journal is off: start the sandbox with --request-journal <n> above 0' });
    } finally {
      off.close();
    }
  });
});

describe('the request journal on a read', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => {
    jest.restoreAllMocks();
    w.close();
  });

  it('queues an answered read for its entry once, not again when its connection closes', async () => {
    const { RequestJournal } = await import('../../src/requests/journal');
    const id = (await createPayment(w)).ID;
    const later = jest.spyOn(RequestJournal.prototype, 'later');
    const agent = request.agent(w.api);
    for (let i = 0; i < 3; i++) expect((await agent.get(`/v1/payments/${id}`).set('Authorization', w.auth)).status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(later).toHaveBeenCalledTimes(3);
    expect((await journal(w, '&Method=GET&Route=/v1/payments/{id}')).length).toBe(3);
  });
});
