// Faults from a test file: sandbox.faults.add / list / remove / clear / nextHit on a started sandbox.
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { AUTH } from '../lifecycle/harness';

describe('sandbox.faults', () => {
  let sb: Sandbox;
  beforeEach(async () => (sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', quiet: true })));
  afterEach(() => sb.stop());

  it('adds a rule that the API obeys at once, and lists it with its hits', async () => {
    const rule = sb.faults.add({ Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments' }, Action: { Status: 429 }, Times: 1 });
    expect(rule).toEqual({ ID: 1, Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments' }, Action: { Status: 429 }, Times: 1, Probability: 1, Hits: 0 });
    const hit = sb.faults.nextHit();
    const res = await request(sb.baseUrl).get('/v1/payments').set('Authorization', AUTH);
    expect([res.status, res.headers['retry-after']]).toEqual([429, '1']);
    expect(await hit).toEqual({ FaultID: 1, Channel: 'api', Effect: 'answered 429', Target: 'GET /v1/payments' });
    expect(sb.faults.list()).toEqual([{ ...rule, Hits: 1 }]);
    // The same rule through the control API.
    expect((await request(sb.baseUrl).get('/_sandbox/faults')).body).toEqual({ Faults: sb.faults.list() });
  });

  it('refuses a wrong rule with the message the control API gives, and keeps nothing', () => {
    expect(() => sb.faults.add({ Channel: 'api', Action: { Status: 200 as never } })).toThrow('Action.Status is invalid: must be one of 500, 502, 503, 504, 429, 408');
    expect(() => sb.faults.add({ Channel: 'api', Match: { Path: '/v1/nope' }, Action: { Reset: true } })).toThrow(/^Match\.Path is invalid/);
    expect(sb.faults.list()).toEqual([]);
  });

  it('removes one rule, clears them all, and sandbox.reset() clears them too', async () => {
    const a = sb.faults.add({ Channel: 'api', Action: { Status: 500 } });
    sb.faults.add({ Channel: 'notifications', Action: { Drop: true } });
    expect(sb.faults.remove(a.ID)).toBe(true);
    expect(sb.faults.remove(a.ID)).toBe(false);
    expect((await request(sb.baseUrl).get('/v1/payments').set('Authorization', AUTH)).status).toBe(200);
    expect(sb.faults.list().map((f) => f.Channel)).toEqual(['notifications']);
    sb.faults.clear();
    expect(sb.faults.list()).toEqual([]);
    sb.faults.add({ Channel: 'api', Action: { Status: 500 } });
    await sb.reset();
    expect(sb.faults.list()).toEqual([]);
    expect((await request(sb.baseUrl).get('/v1/payments').set('Authorization', AUTH)).status).toBe(200);
  });
});
