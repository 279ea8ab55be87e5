// Concurrent requests against one running sandbox (and two sandboxes on one file): the rules hold.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('races', () => {
  let sb: Sandbox;
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-race-'));
    sb = await startSandbox({ port: 0, cardPort: 0, db: join(dir, 'race.db'), clock: 'manual', startTime: START, quiet: true });
  });
  afterEach(async () => {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function authorized() {
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody())).body.Payment;
    await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'authorize' }).expect(200);
    return p as { ID: number; Splits: { ID: number }[] };
  }

  it('50 concurrent captures of one payment: exactly one 200, the others reason 17', async () => {
    const p = await authorized();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth)
          : request(sb.baseUrl).post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/capture?amount=100`).set('Authorization', auth),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.body.Payment.Status.Reasons[0].Code).toBe(17);
  });

  it('concurrent refunds of one split never give back more than was taken', async () => {
    const p = await authorized();
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).expect(200);
    const split = p.Splits[0]!.ID; // 600 taken
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(sb.baseUrl).post(`/v1/payments/${p.ID}/splits/${split}/refunds`).set('Authorization', auth).send({ Refund: { Amount: 70 } }),
      ),
    );
    const ok = answers.filter((a) => a.status === 201);
    expect(ok).toHaveLength(8); // 8 × 70 = 560 ≤ 600 < 9 × 70
    for (const r of answers.filter((a) => a.status !== 201)) expect(r.body.Refund.Status.Reasons[0].Code).toBe(18);
  });

  it('concurrent add-splits never split more than the payment amount', async () => {
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody({ Splits: [{ SiteID: 30202, Amount: '100', MerchantTransactionID: 'a' }] }))).body.Payment;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(sb.baseUrl).post(`/v1/payments/${p.ID}/splits`).set('Authorization', auth).send({ Splits: [{ SiteID: 30203, Amount: 100, MerchantTransactionID: `x${i}` }] }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(9); // 100 + 9 × 100 = 1000
    const stored = (await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', auth)).body.Payment;
    expect(stored.Splits.reduce((s: bigint, x: { Amount: string }) => s + BigInt(x.Amount), 0n)).toBe(1000n);
  });

  it('two sandboxes on one database file both work: unique IDs, each sees the other’s payments', async () => {
    const other = await startSandbox({ port: 0, cardPort: 0, db: join(dir, 'race.db'), clock: 'manual', startTime: START, quiet: true });
    try {
      const creates = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          request(i % 2 ? sb.baseUrl : other.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody({ MerchantTransactionID: `both-${i}` })),
        ),
      );
      expect(creates.map((c) => c.status)).toEqual(Array(40).fill(201));
      const ids = new Set(creates.map((c) => c.body.Payment.ID));
      expect(ids.size).toBe(40);
      const seen = (await request(sb.baseUrl).get('/v1/payments?pageSize=100').set('Authorization', auth)).body;
      expect(seen.TotalCount).toBe(40);
    } finally {
      await other.stop();
    }
  });
});
