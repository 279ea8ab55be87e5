// IDs never come round again: a reset keeps the sequences, a new database starts past the IDs of the
// ones before it (from the real time), and a seeded one starts at the fixed numbers, run after run.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { ID_EPOCH_MS, idOffsetAt } from '../../src/store/sequences';
import { MARKETPLACE, START, basic, createPayment, makeWorld, paymentBody, post } from '../helpers/world';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

type Ids = { payment: number; splits: number[]; customer: number; refund: number };

async function createWithRefund(w: ReturnType<typeof makeWorld>): Promise<Ids> {
  const p = await createPayment(w, { MethodID: 2 });
  await request(w.api).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'succeed' }).expect(200);
  const r = await post(w, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, { Refund: { Amount: 100 } });
  expect(r.status).toBe(201);
  return { payment: p.ID, splits: p.Splits.map((s) => s.ID), customer: (p.Customer as { ID: number }).ID, refund: r.body.Refund.ID };
}

describe('IDs', () => {
  afterEach(() => jest.restoreAllMocks());

  it('go on from where they stood after a reset: payments, splits, refunds and customers', async () => {
    const w = makeWorld(); // seeded: the fixed starts
    try {
      const before = await createWithRefund(w);
      expect(before).toEqual({ payment: 3005001, splits: [7001, 7002, 7003], customer: 200001, refund: 16401 });
      expect((await request(w.api).post('/_sandbox/reset')).status).toBe(200);
      expect((await request(w.api).get(`/v1/payments/${before.payment}`).set('Authorization', w.auth)).status).toBe(404);
      const after = await createWithRefund(w);
      expect(after).toEqual({ payment: 3005002, splits: [7004, 7005, 7006], customer: 200002, refund: 16402 });
    } finally {
      w.close();
    }
  });

  it('of a new unseeded database start one a second past the fixed starts, from the real time', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(ID_EPOCH_MS + 86_400_000 + 999);
    const w = makeWorld({ seed: undefined });
    try {
      const ids = await createWithRefund(w);
      expect(ids).toEqual({ payment: 3005000 + 86_400 + 1, splits: [7000 + 86_401, 7000 + 86_402, 7000 + 86_403], customer: 200000 + 86_401, refund: 16400 + 86_401 });
    } finally {
      w.close();
    }
  });

  it('of a seeded database start at the fixed numbers, whatever the time', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(ID_EPOCH_MS + 5 * 365 * 86_400_000);
    const w = makeWorld({ seed: 7 });
    try {
      expect((await createPayment(w)).ID).toBe(3005001);
    } finally {
      w.close();
    }
  });

  it('of a sandbox started after another one, in the same second, are above every ID the first handed out', async () => {
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now);
    const start = () => startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    const create = async (sb: Sandbox) => {
      const res = await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody());
      expect(res.status).toBe(201);
      return res.body.Payment as { ID: number; Splits: { ID: number }[] };
    };
    const first = await start();
    const a = [await create(first), await create(first), await create(first)];
    await first.stop();
    const second = await start();
    try {
      const b = await create(second);
      expect(b.ID).toBe(a[2]!.ID + 1);
      expect(b.Splits[0]!.ID).toBe(a[2]!.Splits[2]!.ID + 1);
      expect(a[0]!.ID).toBe(3005001 + idOffsetAt(now));
    } finally {
      await second.stop();
    }
  });

  it('stay within a signed 32-bit integer for decades', () => {
    expect(3005000 + idOffsetAt(Date.UTC(2090, 0, 1))).toBeLessThan(2 ** 31 - 100_000_000);
    expect(idOffsetAt(ID_EPOCH_MS - 1000)).toBe(0); // a clock set before the epoch starts at the fixed numbers
  });
});
