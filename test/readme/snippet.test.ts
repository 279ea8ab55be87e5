// docs/testing.md's "From a test file" snippet, run as written: with the fixture merchant, which has no
// notification URL, its wait resolves with the notification journaled without being sent.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { block } from './readme';
import { stripTypes } from './strip-types';

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

describe("docs/testing.md's embedded snippet", () => {
  it('runs as written: creates a payment, advances the clock, its wait resolves, lists, resets and stops', async () => {
    const code = block('docs/testing.md', 'From a test file', 'ts');
    const importLine = "import { startSandbox } from 'split-sandbox';";
    expect(code.startsWith(importLine)).toBe(true);
    // The import becomes a parameter; types are stripped as TypeScript strips them.
    const js = stripTypes(code.replace(importLine, ''));

    // Watch what the snippet does with the sandbox it starts.
    const seen: { sandbox?: Sandbox; waited?: unknown; listed?: unknown; stopped?: boolean } = {};
    const watched = async (...args: Parameters<typeof startSandbox>) => {
      const sb = await startSandbox(...args);
      seen.sandbox = sb;
      const { waitFor, list } = sb.notifications;
      sb.notifications.waitFor = async (...a) => (seen.waited = await waitFor(...a));
      sb.notifications.list = (...a) => (seen.listed = list(...a)) as ReturnType<typeof list>;
      const stop = sb.stop;
      sb.stop = async () => {
        await stop();
        seen.stopped = true;
      };
      return sb;
    };
    await new AsyncFunction('startSandbox', js)(watched);

    expect(seen.waited).toMatchObject({ PaymentID: 3005001, StatusID: 9, StatusInfo: 'Authorized', State: 'no-url', Attempts: [] });
    expect(seen.listed).toMatchObject({ TotalCount: 1, Notifications: [{ PaymentID: 3005001, StatusID: 9, State: 'no-url' }] });
    expect(seen.stopped).toBe(true);
    await expect(request(seen.sandbox!.baseUrl).get('/_sandbox/health')).rejects.toThrow(/ECONNREFUSED/);
  });
});
