// A payment's answer is kept between writes (src/http/page-cache.ts): after any write it must be what a fresh render gives.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadPayment } from '../../src/services/lookup';
import { Store } from '../../src/store/store';
import { paymentToWire } from '../../src/wire/serializers';
import { MARKETPLACE, type WirePayment, type World, authorizedPayment, createPayment, event, makeWorld, paymentBody, post } from '../helpers/world';

const get = (w: World, id: number) => request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth);

/** The answer made now from the store, as the route made it before answers were kept. */
function fresh(w: World, id: number): string {
  const site = w.store.sites.get(MARKETPLACE.SiteID)!;
  return JSON.stringify({ Payment: paymentToWire(loadPayment(w.services, site, String(id)), w.ctx.urls) });
}

/** Reads the payment (so that its answer is kept), runs `write`, and checks the next answer against a fresh render. */
async function afterWrite(w: World, id: number, write: () => Promise<unknown> | unknown) {
  const before = await get(w, id);
  expect(before.status).toBe(200);
  await write();
  const after = await get(w, id);
  expect(after.status).toBe(200);
  expect(after.text).toBe(fresh(w, id));
  return { before: before.body.Payment as WirePayment, after: after.body.Payment as WirePayment };
}

describe('GET /v1/payments/{id} kept between writes', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('is rendered once while nothing is written, byte for byte as a fresh render', async () => {
    const p = await createPayment(w);
    const rendered = jest.spyOn(w.store.payments, 'get');
    const first = await get(w, p.ID);
    const again = await get(w, p.ID);
    expect(again.text).toBe(first.text);
    expect(again.headers).toEqual({ ...first.headers, date: again.headers.date });
    expect(rendered).toHaveBeenCalledTimes(1);
    // The request journal's own writes keep it.
    w.services.requests!.flush();
    await get(w, p.ID);
    expect(rendered).toHaveBeenCalledTimes(1);
    expect(first.text).toBe(fresh(w, p.ID));
  });

  it('is sent and journaled as the same UTF-8 bytes each time, whatever characters it holds', async () => {
    const p = (await post(w, '/v1/payments', paymentBody({ MerchantTransactionID: 'kept-utf8', Description: 'Café – 10 € · 東京 😀' })).expect(201)).body.Payment as WirePayment;
    const answers = [await get(w, p.ID), await get(w, p.ID)];
    for (const a of answers) {
      expect(a.text).toBe(fresh(w, p.ID));
      expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(fresh(w, p.ID)));
      expect(a.body.Payment.Description).toBe('Café – 10 € · 東京 😀');
    }
    const entries = w.services.requests!.find({ paymentId: p.ID, method: 'GET' }, { limit: 10, offset: 0, descending: false });
    expect(entries.map((e) => [e.responseBody, e.responseBytes])).toEqual([
      [fresh(w, p.ID), Buffer.byteLength(fresh(w, p.ID))],
      [fresh(w, p.ID), Buffer.byteLength(fresh(w, p.ID))],
    ]);
  });

  it('follows a status event', async () => {
    const p = await createPayment(w);
    const { before, after } = await afterWrite(w, p.ID, () => event(w, p.ID, 'authorize'));
    expect([before.Status.ID, after.Status.ID]).toEqual([1, 9]);
  });

  it('follows a capture, of the payment and of one split', async () => {
    const p = await authorizedPayment(w);
    const one = await afterWrite(w, p.ID, () => post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/capture?amount=250`).expect(200));
    expect(one.after.Splits[0]!.CapturedAmount).not.toBe(one.before.Splits[0]!.CapturedAmount);
    const q = await authorizedPayment(w);
    const all = await afterWrite(w, q.ID, () => post(w, `/v1/payments/${q.ID}/capture`).expect(200));
    expect(all.after.Status.ID).not.toBe(all.before.Status.ID);
  });

  it('follows a cancel', async () => {
    const p = await authorizedPayment(w);
    const { before, after } = await afterWrite(w, p.ID, () => post(w, `/v1/payments/${p.ID}/cancel`).expect(200));
    expect(after.Status.ID).not.toBe(before.Status.ID);
  });

  it('follows splits added', async () => {
    const p = await createPayment(w, { Amount: '1200' });
    const { before, after } = await afterWrite(w, p.ID, () =>
      post(w, `/v1/payments/${p.ID}/splits`, { Splits: [{ SiteID: 30203, Amount: '200', MerchantTransactionID: 'add' }] }).expect(201),
    );
    expect([before.Splits.length, after.Splits.length]).toEqual([3, 4]);
  });

  it('follows a refund', async () => {
    const p = await createPayment(w, { MethodID: 29 });
    const paid = await event(w, p.ID, 'succeed');
    await afterWrite(w, p.ID, () =>
      post(w, `/v1/payments/${p.ID}/splits/${paid.Splits[0]!.ID}/refunds`, { Refund: { MerchantTransactionID: 'r-1', Amount: '600' } }).expect(201),
    );
  });

  it('follows a write straight to the table, outside any transaction of the sandbox', async () => {
    const p = await createPayment(w);
    const { after } = await afterWrite(w, p.ID, () => w.store.db.prepare('UPDATE payments SET status_id = 4 WHERE id = ?').run(p.ID));
    expect(after.Status.ID).toBe(4);
  });

  it('follows a reset: the payment is gone', async () => {
    const p = await createPayment(w);
    expect((await get(w, p.ID)).status).toBe(200);
    await request(w.api).post('/_sandbox/reset').expect(200);
    expect((await get(w, p.ID)).status).toBe(404);
  });

  it('is kept per address: the answer names the address it was asked on', async () => {
    const p = await createPayment(w);
    const first = await get(w, p.ID);
    w.ctx.urls = { baseUrl: 'http://other.test', cardBaseUrl: 'http://card.other.test' };
    const second = await get(w, p.ID);
    expect(second.text).toBe(fresh(w, p.ID));
    expect(second.text).not.toBe(first.text);
  });

  it('is kept per site: another site gets its 404', async () => {
    const p = await createPayment(w);
    await get(w, p.ID).expect(200);
    const other = request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', 'Basic ' + Buffer.from('30300:P1ainSh0p+Key/For=Sandbox').toString('base64'));
    expect((await other).status).toBe(404);
  });
});

describe('GET /v1/payments/{id} kept, with another process on the same file', () => {
  it('follows a change the other process made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-shared-'));
    const file = join(dir, 'shared.db');
    const a = makeWorld({}, Store.open(file));
    const b = makeWorld({}, Store.open(file));
    try {
      const p = await createPayment(a);
      const { before, after } = await afterWrite(a, p.ID, () => event(b, p.ID, 'authorize'));
      expect([before.Status.ID, after.Status.ID]).toEqual([1, 9]);
    } finally {
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
