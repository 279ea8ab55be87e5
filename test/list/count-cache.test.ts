// TotalCount is cached between writes: it must follow every change, ours or another process's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Store } from '../../src/store/store';
import { createPayment, event, makeWorld } from '../helpers/world';

const total = async (w: ReturnType<typeof makeWorld>, query = '') =>
  (await request(w.api).get(`/v1/payments${query}`).set('Authorization', w.auth)).body.TotalCount as number;

/** Two sandboxes' worlds on one database file, as two processes would be. */
async function onOneFile(fn: (a: ReturnType<typeof makeWorld>, b: ReturnType<typeof makeWorld>) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-shared-'));
  const file = join(dir, 'shared.db');
  const a = makeWorld({}, Store.open(file));
  const b = makeWorld({}, Store.open(file));
  try {
    await fn(a, b);
  } finally {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

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

  it('follows writes made through another connection to the same file', () =>
    onOneFile(async (a, b) => {
      await createPayment(a, { MerchantTransactionID: 'from-a' });
      expect(await total(a)).toBe(1);
      await createPayment(b, { MerchantTransactionID: 'from-b' });
      expect(await total(a)).toBe(2);
    }));
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

describe('list pages kept between writes', () => {
  const page = async (w: ReturnType<typeof makeWorld>) =>
    (await request(w.api).get('/v1/payments?pageSize=5').set('Authorization', w.auth)).body.Payments as { ID: number; Status: { ID: number } }[];

  it('show a status change made here, by the API or written straight to the table', async () => {
    const w = makeWorld();
    try {
      const p = await createPayment(w);
      expect((await page(w))[0]).toMatchObject({ ID: p.ID, Status: { ID: 1 } });
      await event(w, p.ID, 'authorize');
      expect((await page(w))[0]).toMatchObject({ ID: p.ID, Status: { ID: 9 } });
      // Outside any transaction of the sandbox's own, too.
      w.store.db.prepare('UPDATE payments SET status_id = 4 WHERE id = ?').run(p.ID);
      expect((await page(w))[0]).toMatchObject({ ID: p.ID, Status: { ID: 4 } });
    } finally {
      w.close();
    }
  });

  it('show a change another process made to a payment on the same file', () =>
    onOneFile(async (a, b) => {
      const p = await createPayment(a);
      expect((await page(a))[0]).toMatchObject({ ID: p.ID, Status: { ID: 1 } });
      await event(b, p.ID, 'authorize');
      expect((await page(a))[0]).toMatchObject({ ID: p.ID, Status: { ID: 9 } });
    }));
});

describe('list pages and the request journal', () => {
  it('are kept while only the journal is written, and follow a write after it', async () => {
    const w = makeWorld();
    try {
      const p = await createPayment(w);
      const rendered = jest.spyOn(w.store.payments, 'list');
      const page = async () =>
        (await request(w.api).get('/v1/payments?pageSize=5').set('Authorization', w.auth)).body.Payments as { ID: number; Status: { ID: number } }[];
      expect((await page())[0]).toMatchObject({ ID: p.ID, Status: { ID: 1 } });
      // The first list's entry, and the next one's, written to the journal between the two.
      w.services.requests!.flush();
      expect(w.services.requests!.count({})).toBeGreaterThan(0);
      expect((await page())[0]).toMatchObject({ ID: p.ID, Status: { ID: 1 } });
      w.services.requests!.flush();
      expect(rendered).toHaveBeenCalledTimes(1);
      // Any other write still drops the page, with journal writes before and after it.
      await event(w, p.ID, 'authorize');
      w.services.requests!.flush();
      expect((await page())[0]).toMatchObject({ ID: p.ID, Status: { ID: 9 } });
      expect(rendered).toHaveBeenCalledTimes(2);
    } finally {
      w.close();
    }
  });
});
