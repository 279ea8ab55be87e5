// `start --strict-fields` (and SANDBOX_STRICT_FIELDS), as a process: a member the API does not read is
// refused (400, Reason 2); without it the same request is taken, and the journal says what was ignored.
import request from 'supertest';
import { basic, MARKETPLACE, paymentBody } from '../helpers/world';
import { type Run, run, sessionForTests, startIn, waitForOutput } from './process';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('start --strict-fields', () => {
  let r: Run | undefined;
  // The flag's start is a real process; the start from the environment and the one without the flag
  // run in one Node process (the CLI session), where they stay until it ends.
  const session = sessionForTests();
  afterEach(async () => {
    r?.child.kill('SIGTERM');
    await r?.exited;
    r = undefined;
  });

  async function create(api: string) {
    const res = await request(api).post('/v1/payments').set('Authorization', AUTH).send(paymentBody({ Foo: 1 }));
    const entries = (await request(api).get('/_sandbox/requests')).body.Requests as { NearMiss: string | null }[];
    return { res, nearMiss: entries[0]!.NearMiss };
  }

  it('refuses a member the API does not read', async () => {
    r = run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--strict-fields']);
    const api = (await waitForOutput(r, /^API {2}(http:\/\/127\.0\.0\.1:\d+)$/m))[1]!;
    const { res, nearMiss } = await create(api);
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 2, Info: 'Payment.Foo is not a known field' }]);
    expect(nearMiss).toBeNull();
  });

  it('from the environment too', async () => {
    const started = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet'], { SANDBOX_STRICT_FIELDS: 'true' });
    const { res } = await create(/^API {2}(http:\/\/127\.0\.0\.1:\d+)$/m.exec(started.out)![1]!);
    expect(res.status).toBe(400);
  });

  it('without it, ignores the member and journals a near miss', async () => {
    const { res, nearMiss } = await create((await startIn(session, ['--db', ':memory:'])).api);
    expect(res.status).toBe(201);
    expect(nearMiss).toBe('Payment.Foo is not a field the API reads');
  });
});
