// TotalCount is cached between writes: it must follow every change, ours or another process's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Store } from '../../src/store/store';
import { createPayment, event, makeWorld } from '../helpers/world';

const total = async (w: ReturnType<typeof makeWorld>, query = '') =>
  (await request(w.api).get(`/v1/payments${query}`).set('Authorization', w.auth)).body.TotalCount as number;

describe('list TotalCount', () => {
  it('follows creates and status changes', async () => {
    const w = makeWorld();
    try {
      const p = await createPayment(w);
      expect(await total(w)).toBe(1);
      expect(await total(w, '?statusID=9')).toBe(0);
      await createPayment(w);
      expect(await total(w)).toBe(2);
      await event(w, p.ID, 'authorize');
      expect(await total(w, '?statusID=9')).toBe(1);
    } finally {
      w.close();
    }
  });

  it('follows writes made through another connection to the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-count-'));
    const file = join(dir, 'shared.db');
    const a = makeWorld({}, Store.open(file));
    const b = makeWorld({}, Store.open(file));
    try {
      await createPayment(a, { MerchantTransactionID: 'from-a' });
      expect(await total(a)).toBe(1);
      await createPayment(b, { MerchantTransactionID: 'from-b' });
      expect(await total(a)).toBe(2);
    } finally {
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('list TotalCount after a rolled-back write', () => {
  it('does not count a payment whose transaction was undone', async () => {
    const w = makeWorld();
    try {
      const p = await createPayment(w);
      expect(await total(w)).toBe(1);
      const stored = w.store.payments.getAny(p.ID)!;
      expect(() =>
        w.store.tx(() => {
          w.store.payments.insert({ ...stored, merchantTransactionId: 'undone', token: null });
          throw new Error('undo');
        }),
      ).toThrow('undo');
      expect(await total(w)).toBe(1);
    } finally {
      w.close();
    }
  });
});
