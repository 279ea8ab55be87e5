// The programmatic API: what a test file gets from startSandbox().
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { type Receiver, startReceiver } from '../helpers/receiver';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

async function create(sb: Sandbox, overrides: Record<string, unknown> = {}) {
  const res = await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody(overrides));
  expect(res.status).toBe(201);
  return res.body.Payment as { ID: number };
}

describe('startSandbox()', () => {
  let rx: Receiver;
  const running: Sandbox[] = [];
  const start = async (extra: object = {}) => {
    const sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, notifyUrl: rx.url, ...extra });
    running.push(sb);
    return sb;
  };
  beforeEach(async () => (rx = await startReceiver()));
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
    await rx.close();
  });

  it('hands out both addresses and the fixture marketplace with its linked sites', async () => {
    const sb = await start();
    expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.cardBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.cardBaseUrl).not.toBe(sb.baseUrl);
    expect(sb.merchant).toEqual({ SiteID: 30201, APIKey: MARKETPLACE.APIKey, LinkedSiteIDs: [30202, 30203, 30204] });
    const health = await request(sb.baseUrl).get('/_sandbox/health');
    expect(health.body).toEqual({
      Status: 'ok',
      BaseURL: sb.baseUrl,
      CardBaseURL: sb.cardBaseUrl,
      PID: process.pid,
      Payments: 0,
      RequestJournal: expect.objectContaining({ Entries: 0, StoredBytes: 0 }),
      DatabaseBytes: expect.any(Number),
      DatabaseFreeBytes: 0,
      MerchantSnapshots: { Count: 0, Bytes: 0, QuotaCount: 20, QuotaBytes: 268435456 },
      MerchantFaultRules: { Count: 0, Quota: 100 },
    });
  });

  it('takes strictFields: a member the API does not read is refused there, and ignored by a sandbox without it', async () => {
    const strict = await start({ strictFields: true });
    const lenient = await start();
    const send = (sb: Sandbox) => request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody({ Foo: 1 }));
    const refused = await send(strict);
    expect(refused.status).toBe(400);
    expect(refused.body.Payment.Status.Reasons).toEqual([{ Code: 2, Info: 'Payment.Foo is not a known field' }]);
    expect((await send(lenient)).status).toBe(201);
  });

  it('runs two sandboxes in one process, each with its own data and clock', async () => {
    const a = await start({ scenario: 'two-step' });
    const b = await start({ scenario: 'failed' });
    const pa = await create(a, { MerchantTransactionID: 'same-id' });
    const pb = await create(b, { MerchantTransactionID: 'same-id' });

    await a.clock.advance(2);
    expect(a.clock.now()).toBe(START + 2000);
    expect(b.clock.now()).toBe(START);
    const inA = await request(a.baseUrl).get(`/v1/payments/${pa.ID}`).set('Authorization', auth);
    const inB = await request(b.baseUrl).get(`/v1/payments/${pb.ID}`).set('Authorization', auth);
    expect(inA.body.Payment.Status.ID).toBe(9);
    expect(inB.body.Payment.Status.ID).toBe(1);
    expect(a.notifications.list({ PaymentID: pa.ID }).TotalCount).toBe(1);
    expect(b.notifications.list({ PaymentID: pb.ID }).TotalCount).toBe(0);
  });

  it('waits for a delivered notification, and rejects when none comes in time', async () => {
    const sb = await start({ scenario: 'one-step' });
    const p = await create(sb);
    const waiting = sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 2 }, 5000);
    await sb.clock.advance(2);
    const n = await waiting;
    expect(n).toMatchObject({ PaymentID: p.ID, StatusID: 2, State: 'delivered' });
    expect(rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([2]);
    await expect(sb.notifications.waitFor({ PaymentID: p.ID, StatusID: 4 }, 20)).rejects.toThrow(/within 20 ms/);
  });

  it('reset() empties the data and reloads the fixtures, keeping the configuration', async () => {
    const sb = await start({ scenario: 'two-step' });
    await request(sb.baseUrl)
      .patch('/_sandbox/merchants/30201')
      .send({ DefaultScenario: 'failed' })
      .expect(200);
    const before = await create(sb);
    await sb.clock.advance(2);
    await sb.reset();
    expect((await request(sb.baseUrl).get(`/v1/payments/${before.ID}`).set('Authorization', auth)).status).toBe(404);
    expect(sb.notifications.list()).toMatchObject({ Notifications: [], TotalCount: 0 });
    const merchants = await request(sb.baseUrl).get('/_sandbox/merchants');
    expect(merchants.body.Merchants[0].DefaultScenario).toBeNull(); // the fixture's value again
    const after = await create(sb);
    expect(after.ID).toBe(before.ID + 1); // IDs go on: an application database kept across resets meets none twice
    const detail = await request(sb.baseUrl).get(`/_sandbox/payments/${after.ID}`);
    expect(detail.body.Scenario).toBe('two-step'); // the configuration stayed
  });

  it('POST /_sandbox/reset does the same over HTTP', async () => {
    const sb = await start();
    const p = await create(sb);
    const res = await request(sb.baseUrl).post('/_sandbox/reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Status: 'reset' });
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', auth)).status).toBe(404);
  });
});
