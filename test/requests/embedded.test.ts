// sandbox.requests from a test file: find, count, get, clear and waitFor on a started sandbox, and the
// journal through retention and snapshots.
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { AUTH, type Rig, advance, boot, createPayment, shutdown } from '../lifecycle/harness';

describe('sandbox.requests', () => {
  let sb: Sandbox;
  beforeEach(async () => (sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', quiet: true })));
  afterEach(() => sb.stop());

  it('finds (oldest first), counts and clears what the integration sent', async () => {
    const p = await createPayment(sb);
    await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH);
    await request(sb.baseUrl).get(`/v1/payments/${p.ID}/status`).set('Authorization', AUTH);
    expect(sb.requests.find({ PaymentID: p.ID }).map((r) => r.Route)).toEqual(['/v1/payments', '/v1/payments/{id}', '/v1/payments/{id}/status']);
    expect(sb.requests.find({ PaymentID: p.ID, Limit: 2, Newest: true }).map((r) => r.Route)).toEqual(['/v1/payments/{id}', '/v1/payments/{id}/status']);
    expect(sb.requests.count({ Method: 'GET' })).toBe(2);
    const [first] = sb.requests.find();
    expect(sb.requests.get(first!.ID)).toEqual(first);
    // The control API answers the same entries.
    expect((await request(sb.baseUrl).get(`/_sandbox/requests/${first!.ID}`)).body).toEqual({ Request: first });
    sb.requests.clear();
    expect(sb.requests.count()).toBe(0);
    expect(() => sb.requests.count({ Status: -1 })).toThrow('Status must be a whole number');
  });

  it('waits for a request that has not arrived yet, and says what it found when none came', async () => {
    const waiting = sb.requests.waitFor({ Method: 'POST', Route: '/v1/payments/{id}/cancel' }, 5_000);
    const p = await createPayment(sb);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', AUTH);
    const entry = await waiting;
    expect([entry.PaymentID, entry.Status]).toEqual([p.ID, 200]);
    await expect(sb.requests.waitFor({ Status: 418 }, 20)).rejects.toThrow('no request matching {"Status":418} within 20 ms (2 in the journal)');
  });

  it('is kept by a snapshot and comes back with it', async () => {
    await createPayment(sb);
    await sb.snapshots.save('one');
    await createPayment(sb);
    const [kept, later] = sb.requests.find();
    await sb.snapshots.restore('one');
    expect(sb.requests.find()).toEqual([kept]);
    expect(sb.requests.get(later!.ID)).toBeUndefined();
  });
});

describe('the journal under --retain', () => {
  let rig: Rig | undefined;
  afterEach(() => shutdown(rig));

  it('drops a payment’s entries with the payment, and keeps the others', async () => {
    rig = await boot({ retainMs: 60_000 });
    const { sb } = rig;
    const old = await createPayment(sb, { overrides: { TokenLifetime: null } });
    await request(sb.baseUrl).get(`/v1/payments/${old.ID}`).set('Authorization', AUTH);
    await request(sb.baseUrl).get('/v1/payments').set('Authorization', AUTH);
    expect(sb.requests.count({ PaymentID: old.ID })).toBe(2);
    await advance(sb, 120);
    expect((await request(sb.baseUrl).get(`/_sandbox/payments/${old.ID}`)).status).toBe(404);
    expect(sb.requests.count({ PaymentID: old.ID })).toBe(0);
    expect(sb.requests.count({ Route: '/v1/payments', Method: 'GET' })).toBe(1);
  });

  it('drops the entries of the last answers too, written before the payment is (they wait up to 20 ms for their batch)', async () => {
    rig = await boot({ retainMs: 60_000 });
    const { sb } = rig;
    const old = await createPayment(sb, { overrides: { TokenLifetime: null } });
    // No read of the journal in between: the entries still wait when retention runs.
    await request(sb.baseUrl).get(`/v1/payments/${old.ID}`).set('Authorization', AUTH).expect(200);
    await advance(sb, 120);
    expect(sb.requests.count({ PaymentID: old.ID })).toBe(0);
  });
});

describe('a payment’s story', () => {
  let sb: Sandbox;
  beforeEach(async () => (sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', quiet: true })));
  afterEach(() => sb.stop());

  it('tells its refused calls, at their offsets, with their reason codes', async () => {
    const p = await createPayment(sb);
    await advance(sb, 5);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', AUTH).expect(200);
    const refused = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH).expect(400);
    await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH).expect(200);
    const story = sb.stories.of(p.ID);
    const codes = refused.body.Payment.Status.Reasons.map((r: { Code: number }) => r.Code);
    expect(codes.length).toBeGreaterThan(0);
    expect(story.Story.Refused).toEqual([
      { After: '5000ms', Method: 'POST', Path: `/v1/payments/${p.ID}/capture`, Route: '/v1/payments/{id}/capture', Status: 400, ReasonCodes: codes, Fault: null, NearMiss: null },
    ]);
    // The story file stays one that replays.
    expect((await request(sb.baseUrl).post('/_sandbox/replay').send(story)).status).toBe(201);
  });
});
