// A payment read by its ID comes with its splits as they were at the same moment, even when another
// process on the same file commits between the two reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Store } from '../../src/store/store';
import { type World, createPayment, makeWorld } from '../helpers/world';

describe('GET /v1/payments/{id} on a file another process writes', () => {
  let dir: string;
  const worlds: World[] = [];
  afterEach(() => {
    for (const w of worlds.splice(0)) w.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the payment and its splits of one moment', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-sandbox-moment-'));
    const file = path.join(dir, 'sandbox.db');
    const a = makeWorld({}, Store.open(file));
    const b = makeWorld({}, Store.open(file));
    worlds.push(a, b);
    const p = await createPayment(a);
    a.store.flush();
    const read = a.store.payments.get.bind(a.store.payments);
    // The other process changes the splits right after the payment's row was read.
    jest.spyOn(a.store.payments, 'get').mockImplementation((...args) => {
      const payment = read(...args);
      b.store.db.prepare('UPDATE splits SET amount = amount + 1 WHERE payment_id = ?').run(p.ID);
      return payment;
    });
    const res = await request(a.api).get(`/v1/payments/${p.ID}`).set('Authorization', a.auth);
    expect(res.status).toBe(200);
    expect((res.body.Payment.Splits as { Amount: string }[]).map((s) => s.Amount)).toEqual(p.Splits.map((s) => s.Amount));
    // The next read sees the change.
    jest.restoreAllMocks();
    const after = await request(a.api).get(`/v1/payments/${p.ID}`).set('Authorization', a.auth);
    expect((after.body.Payment.Splits as { Amount: string }[]).map((s) => s.Amount)).not.toEqual(p.Splits.map((s) => s.Amount));
  });
});
