// `split-sandbox trigger` as a process: what it says while a scenario waits for the payer, what it
// names when it runs out of time, and that on a manual clock it says it moves the sandbox's clock.
import request from 'supertest';
import { type Run, run, sessionForTests, startIn, waitForOutput } from './process';

describe('split-sandbox trigger (built code)', () => {
  const running: Run[] = [];
  // The sandboxes, and the triggers whose output is read once they end, run in one Node process (the
  // CLI session, the sandboxes started there by the same `start`); the trigger read while it waits is a
  // real process.
  const session = sessionForTests();
  afterEach(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null) r.child.kill('SIGTERM');
      await r.exited;
    }
  });
  const spawnRun = (args: string[]) => {
    const r = run(args);
    running.push(r);
    return r;
  };
  const sandbox = async () => (await startIn(session, ['--db', ':memory:', '--clock', 'manual', '--start-time', '20260101000000'])).api;
  // One sandbox for the tests that do not look at where its clock stands.
  let sharedApi: Promise<string> | undefined;
  const sharedSandbox = () => (sharedApi ??= sandbox());

  it("says that it moves a manual clock, for every payment on the sandbox", async () => {
    const api = await sharedSandbox();
    const t = await session.run(['trigger', 'two-step', '--base-url', api]);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/s {2}the sandbox's clock is manual: trigger advances it 0\.5 s at a time, for every payment on the sandbox \(not while the payment waits for the payer\); the offsets are sandbox time\n/);
    // two-step: authorized 2 s after its creation in sandbox time, whatever the wall clock did meanwhile.
    expect(t.out).toMatch(/^\+ {2}2\.0s {2}payment \d+ → Authorized/m);
  });

  it('payer-decides: says the payer page waits for a press, leaves the clock alone meanwhile, and goes on once the provider acts', async () => {
    const api = await sandbox();
    const t = spawnRun(['trigger', 'payer-decides', '--base-url', api]);
    const m = await waitForOutput(t, /waiting for the payer: open the payer page and press a button, or send the provider's event: curl -X POST (\S+)\/_sandbox\/payments\/(\d+)\/events/);
    expect(m[1]).toBe(api);
    expect(t.stdout()).toMatch(/payer page http:\/\/\S+\/Home\?PaymentToken=/);
    // The shared clock stands where trigger's first look left it (half a second after the creation):
    // it is not run on while nobody presses anything.
    const created = (await request(api).get(`/_sandbox/payments/${m[2]}`)).body.Payment.Created;
    expect(created).toBe('20260101000000');
    expect((await request(api).get('/_sandbox/clock')).body.NowMs - Date.UTC(2026, 0, 1)).toBeLessThanOrEqual(500);

    expect((await request(api).post(`/_sandbox/payments/${m[2]}/events`).send({ Event: 'authorize' })).status).toBe(200);
    expect(await t.exited).toEqual({ code: 0, signal: null });
    expect(t.stdout()).toMatch(/merchant captures in full: 200 Success/);
    expect(t.stdout()).toMatch(/done: payment \d+ is Success\n$/);
  });

  it('after --timeout, names the scenario and what it still waited for (not "its story")', async () => {
    const api = await sharedSandbox();
    const t = await session.run(['trigger', 'payer-decides', '--base-url', api, '--timeout', '1s']);
    expect(t.code).toBe(1);
    expect(t.err).toMatch(
      /^split-sandbox: payment \d+ did not finish scenario payer-decides within 1s: it is Open, still waiting for the payer \(a press on the payer page\) or a provider event \(POST \/_sandbox\/payments\/\{id\}\/events\)\n$/,
    );
    expect(t.err).not.toContain('story');
  });

  it('--help says the clock is moved and the payer page waits for a press, with the timeout default as docs/cli.md writes it', async () => {
    const h = await session.run(['trigger', '--help']);
    expect(h.code).toBe(0);
    const help = h.out.replace(/\s+/g, ' ');
    expect(help).toContain("On a sandbox with a manual clock, trigger moves the sandbox's clock itself");
    expect(help).toContain('waits for a press on the payer page');
    expect(help).toMatch(/--timeout <duration> .*\(default: 60s\)/);
  });
});
