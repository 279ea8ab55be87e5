// Restart persistence: a file database keeps every payment, split and refund as it was.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { paymentResponse } from '../../src/schemas/responses';
import { Store } from '../../src/store/store';
import { type World, authorizedPayment, createPayment, event, expectSchema, makeWorld } from '../helpers/world';

const count = (store: Store, table: string) => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('restart persistence (file database)', () => {
  let dir: string;
  let file: string;
  const worlds: World[] = [];
  const open = (seed = 42) => {
    const w = makeWorld({ seed }, Store.open(file));
    worlds.push(w);
    return w;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-api-'));
    file = path.join(dir, 'sandbox.db');
  });
  afterEach(() => {
    for (const w of worlds.splice(0)) w.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the same payment body after a restart, and does not load the fixtures twice', async () => {
    const first = open();
    const auth = await authorizedPayment(first);
    first.clock.advance(60_000);
    await request(first.api).post(`/v1/payments/${auth.ID}/capture`).set('Authorization', first.auth).expect(200);
    const before = await request(first.api).get(`/v1/payments/${auth.ID}`).set('Authorization', first.auth);
    expect(before.status).toBe(200);
    expect(before.body.Payment.Status.ID).toBe(2);
    const sites = count(first.store, 'sites');
    const methods = count(first.store, 'methods');
    first.close();

    const second = open();
    const after = await request(second.api).get(`/v1/payments/${auth.ID}`).set('Authorization', second.auth);
    expect(after.status).toBe(200);
    expectSchema(paymentResponse, after.body);
    expect(after.body).toEqual(before.body);
    expect(JSON.stringify(after.body)).toBe(JSON.stringify(before.body));
    expect(count(second.store, 'sites')).toBe(sites);
    expect(count(second.store, 'methods')).toBe(methods);

    // The state survives too: the payment was captured once, so another capture is refused with 17.
    const again = await request(second.api).post(`/v1/payments/${auth.ID}/capture`).set('Authorization', second.auth);
    expect(again.status).toBe(400);
    expect(again.body.Payment.Status.Reasons[0].Code).toBe(17);
    expect(again.body.Payment.ID).toBe(auth.ID);
  });

  it('keeps refunds across a restart: they still count against the split and still block adding splits', async () => {
    const first = open();
    const p = await createPayment(first, { MethodID: 29 });
    await event(first, p.ID, 'succeed');
    await request(first.api)
      .post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`)
      .set('Authorization', first.auth)
      .send({ Refund: { Amount: 550 } })
      .expect(201);
    first.close();

    const second = open();
    const more = await request(second.api)
      .post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`)
      .set('Authorization', second.auth)
      .send({ Refund: { Amount: 51 } });
    expect(more.status).toBe(400);
    expect(more.body.Refund.Status.Reasons[0].Code).toBe(18);
    const add = await request(second.api)
      .post(`/v1/payments/${p.ID}/splits`)
      .set('Authorization', second.auth)
      .send({ Splits: [{ SiteID: 30202, Amount: '1', MerchantTransactionID: 'late' }] });
    expect(add.status).toBe(400);
    expect(add.body.Reasons[0].Code).toBe(11);
  });

  it('continues the ID sequences after a restart and keeps MerchantTransactionIDs taken', async () => {
    const first = open();
    const a = await createPayment(first, { MerchantTransactionID: 'before-restart' });
    first.close();

    // Another seed: with the same one, the token sequence repeats (see the known-bug test below).
    const second = open(43);
    const dup = await request(second.api)
      .post('/v1/payments')
      .set('Authorization', second.auth)
      .send({
        Payment: { MerchantTransactionID: 'before-restart', Amount: '5', Currency: 'EUR', ReturnURL: 'https://a.example/' },
      });
    expect(dup.status).toBe(400);
    expect(dup.body.Payment.Status.Reasons[0].Code).toBe(20);
    const b = await createPayment(second, { MerchantTransactionID: 'after-restart' });
    expect(b.ID).toBe(a.ID + 1);
    expect(b.Splits[0]!.ID).toBe(a.Splits[2]!.ID + 1);
    expect(b.RedirectURL).not.toBe(a.RedirectURL);
  });

  // A seeded run restarted on the same file would draw its tokens again from the start: it goes on
  // past those drawn before, so that no payment link's token is handed out twice.
  it('a seeded sandbox restarted on the same file hands out no token twice', async () => {
    const tokens: string[] = [];
    const token = (p: { RedirectURL: string | null }) => /PaymentToken=([0-9A-F]{32})\./.exec(p.RedirectURL!)![1]!;
    const first = open(42);
    for (let i = 0; i < 3; i++) tokens.push(token(await createPayment(first, { MerchantTransactionID: `seeded-1-${i}` })));
    first.close();
    const second = open(42);
    for (let i = 0; i < 3; i++) {
      const res = await request(second.api)
        .post('/v1/payments')
        .set('Authorization', second.auth)
        .send({ Payment: { MerchantTransactionID: `seeded-2-${i}`, Amount: '5', Currency: 'EUR', ReturnURL: 'https://a.example/' } });
      expect(res.status).toBe(201);
      tokens.push(token(res.body.Payment));
    }
    expect(new Set(tokens).size).toBe(6);
  });
});
