// `start --strict-fields` (and SANDBOX_STRICT_FIELDS), as a process: a member the API does not read is
// refused (400, Reason 2); without it the same request is taken, and the journal says what was ignored.
import request from 'supertest';
import { basic, MARKETPLACE, paymentBody } from '../helpers/constants';
import { type Run, run, sessionForTests, startIn, waitForOutput } from './process';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('start --strict-fields', () => {
  let r: Run | undefined;
  // The first start is a real process; the others run in one Node process (the CLI session), which
  // keeps the sandboxes they start until it ends.
  const session = sessionForTests();
  afterEach(async () => {
    r?.child.kill('SIGTERM');
    await r?.exited;
    r = undefined;
  });

  async function create(args: string[], env: Record<string, string> = {}, inSession = true) {
    let api: string;
    if (inSession) api = (await startIn(session, ['--db', ':memory:', ...args], env)).api;
    else {
      r = run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', ...args], env);
      api = (await waitForOutput(r, /^API {2}(http:\/\/127\.0\.0\.1:\d+)$/m))[1]!;
    }
    const res = await request(api).post('/v1/payments').set('Authorization', AUTH).send(paymentBody({ Foo: 1 }));
    const entries = (await request(api).get('/_sandbox/requests')).body.Requests as { NearMiss: string | null }[];
    return { res, nearMiss: entries[0]!.NearMiss };
  }

  it('refuses a member the API does not read', async () => {
    const { res, nearMiss } = await create(['--strict-fields'], {}, false);
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 2, Info: 'Payment.Foo is not a known field' }]);
    expect(nearMiss).toBeNull();
  });

  it('from the environment too', async () => {
    const { res } = await create([], { SANDBOX_STRICT_FIELDS: 'true' });
    expect(res.status).toBe(400);
  });

  it('without it, ignores the member and journals a near miss', async () => {
    const { res, nearMiss } = await create([]);
    expect(res.status).toBe(201);
    expect(nearMiss).toBe('Payment.Foo is not a field the API reads');
  });
});
