// `start --request-journal <n>` (and SANDBOX_REQUEST_JOURNAL), as a process: the journal keeps the
// newest n; a value that is no whole number is refused, saying what is expected. The other quotas'
// options reach health, sizes in bytes or with their units.
import request from 'supertest';
import { basic, MARKETPLACE } from '../helpers/constants';
import { type Run, run, sessionForTests, waitForOutput } from './process';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('start --request-journal', () => {
  let r: Run | undefined;
  // One Node process (the CLI session) runs the starts and refusals below but the first, a real process,
  // and keeps the sandboxes they start until it ends.
  const session = sessionForTests();
  afterEach(async () => {
    r?.child.kill('SIGTERM');
    await r?.exited;
    r = undefined;
  });

  it('keeps the newest n entries; from the environment too', async () => {
    r = run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:'], { SANDBOX_REQUEST_JOURNAL: '2' });
    const api = (await waitForOutput(r, /^API {2}(http:\/\/127\.0\.0\.1:\d+)$/m))[1]!;
    for (const q of ['a', 'b', 'c']) await request(api).get(`/v1/payments?merchantTransactionID=${q}`).set('Authorization', AUTH).expect(200);
    const kept = (await request(api).get('/_sandbox/requests?SortDirection=asc')).body.Requests.map((e: { Query: string }) => e.Query);
    expect(kept).toEqual(['merchantTransactionID=b', 'merchantTransactionID=c']);
  });

  it('refuses a value that is no whole number', async () => {
    const refused = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--request-journal', 'lots']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/--request-journal.*expected a whole number from 0 to 100000000/);
  });
  it('takes the quotas in entries and sizes, and health says them', async () => {
    const started = await session.run(
      ['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet', '--request-journal-bytes', '2MiB', '--request-journal-unauthenticated', '3', '--request-journal-file-bytes', '1.5MB'],
      { SANDBOX_REQUEST_JOURNAL_UNAUTHENTICATED_BYTES: '40000' },
    );
    const api = /^API {2}(http:\/\/127\.0\.0\.1:\d+)$/m.exec(started.out)![1]!;
    const health = (await request(api).get('/_sandbox/health').expect(200)).body;
    expect(health.RequestJournal.Quotas).toEqual({
      Marketplace: { Entries: 20000, StoredBytes: 2 * 1024 * 1024 },
      Unauthenticated: { Entries: 3, StoredBytes: 40000 },
      FileStoredBytes: 1_500_000,
    });
  });

  it('refuses a size it cannot read', async () => {
    const refused = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--request-journal-bytes', '12 parsecs']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/--request-journal-bytes.*expected a size of at least 1 bytes, such as 64MiB/);
  });
});
