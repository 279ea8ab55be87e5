import request from 'supertest';
import { PLAIN, basic, createPayment, makeWorld, paymentBody } from '../helpers/world';
const card = { Payment: { MerchantTransactionID: 'c1', Amount: 2000, Currency: 'EUR', ReturnURL: 'https://shop.example/r', Customer: { Email: 'a@b.c' }, BillingAddress: { Country: 'NL' }, Card: { HolderName: 'A', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '123' } } };
it('explores', async () => {
  const w = makeWorld();
  const p = await createPayment(w);
  const out: unknown[] = [];
  for (const [app, m, path, body, auth] of [
    [w.api, 'get', '/v2/payments/5', undefined, w.auth],
    [w.api, 'get', '/api/v1/payments/5', undefined, w.auth],
    [w.card, 'post', '/v1/payments', paymentBody(), w.auth],
    [w.api, 'post', '/v1/payments', card, w.auth],
    [w.api, 'get', '/v1/payments/abc', undefined, w.auth],
    [w.api, 'post', '/v1/payments/abc/capture', undefined, w.auth],
    [w.card, 'get', '/v1/payments/abc', undefined, w.auth],
    [w.api, 'get', `/v1/payments/${p.ID}`, undefined, basic(PLAIN.SiteID, PLAIN.APIKey)],
    [w.api, 'get', `/v1/payments/${p.ID}/refunds`, undefined, basic(PLAIN.SiteID, PLAIN.APIKey)],
  ] as const) {
    let r = (request(app) as any)[m](path).set('Authorization', auth);
    if (body) r = r.send(body);
    const res = await r;
    out.push([m, path, res.status, res.text.slice(0, 200)]);
  }
  const j = await request(w.api).get('/_sandbox/requests?SortDirection=asc');
  out.push(j.body.Requests.map((r: any) => [r.Method, r.Path, r.Route, r.Status, r.SiteID, r.NearMiss]));
  console.log(JSON.stringify(out, null, 1));
  w.close();
});
