// `snapshot`, `story` and `trigger` with a marketplace's own credentials (--site-id, --api-key) against
// a running sandbox that wants a control token: the payment is the marketplace's, its own clock moves
// (not the sandbox's), and another marketplace's credentials reach nothing of it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Ran, type Run, run, sessionForTests, startIn } from './process';

const TOKEN = 'cli-own-credentials';
const START_MS = Date.UTC(2026, 0, 15, 10, 0, 0);

describe('split-sandbox snapshot, story and trigger with --site-id and --api-key (built code)', () => {
  const running: Run[] = [];
  // The commands run in one Node process (the CLI session), with the file's one sandbox, started there by
  // the same `start`; the first trigger is a real process.
  const session = sessionForTests();
  afterEach(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null) r.child.kill('SIGTERM');
      await r.exited;
    }
  });

  // One sandbox for the file: each test makes marketplaces of its own in it, and what one test does to
  // its marketplaces (their clocks, their snapshots) is what the others show reaches nothing else.
  let started: Promise<string> | undefined;
  function sandbox(): Promise<string> {
    started ??= startIn(session, ['--db', ':memory:', '--clock', 'manual', '--start-time', '20260115100000', '--control-token', TOKEN]).then((s) => s.api);
    return started;
  }
  const cli = (args: string[]) => session.run(args);
  async function real(args: string[]): Promise<Ran> {
    const r = run(args);
    running.push(r);
    const { code } = await r.exited;
    return { code, out: r.stdout(), err: r.stderr() };
  }
  const marketplace = async (api: string) => {
    const m = (await request(api).post('/_sandbox/merchants').set('Authorization', `Bearer ${TOKEN}`).send({ LinkedSites: 2, Clock: 'manual' }).expect(201)).body.Merchant;
    return { SiteID: m.SiteID as number, APIKey: m.APIKey as string, creds: ['--site-id', String(m.SiteID), '--api-key', m.APIKey as string] };
  };

  it("trigger makes the marketplace's payment and moves its own clock alone; story writes it; another marketplace's credentials reach nothing", async () => {
    const api = await sandbox();
    const a = await marketplace(api);
    const b = await marketplace(api);

    const t = await real(['trigger', 'two-step', '--base-url', api, ...a.creds]);
    expect(t.err).toBe('');
    expect(t.code).toBe(0);
    expect(t.out).toContain(`SiteID ${a.SiteID} has a manual clock of its own: trigger advances it 0.5 s at a time, for its payments alone`);
    expect(t.out).toMatch(/^\+ {2}2\.0s {2}payment \d+ → Authorized/m);
    expect(t.out).toMatch(/done: payment \d+ is Success\n$/);
    const id = Number(/payment (\d+) created/.exec(t.out)![1]);
    const auth = 'Basic ' + Buffer.from(`${a.SiteID}:${a.APIKey}`).toString('base64');
    expect((await request(api).get(`/v1/payments/${id}`).set('Authorization', auth)).body.Payment.Status.Info).toBe('Success');
    // Its clock moved; the sandbox's did not.
    expect((await request(api).get('/_sandbox/clock').set('Authorization', `Bearer ${TOKEN}`)).body.NowMs).toBe(START_MS);
    expect((await request(api).get(`/_sandbox/merchants/${a.SiteID}/clock`).set('Authorization', auth)).body.NowMs).toBeGreaterThan(START_MS);

    const story = await cli(['story', String(id), '--out', '-', '--base-url', api, ...a.creds]);
    const other = await cli(['story', String(id), '--out', '-', '--base-url', api, ...b.creds]);
    const wrongKey = await cli(['story', String(id), '--base-url', api, '--site-id', String(a.SiteID), '--api-key', b.APIKey]);
    const none = await cli(['story', String(id), '--base-url', api]);
    expect(story.code).toBe(0);
    expect(JSON.parse(story.out).Story).toMatchObject({ PaymentID: id, SiteID: a.SiteID, Scenario: 'two-step' });

    expect(other).toEqual({ code: 1, out: '', err: `split-sandbox: GET /_sandbox/merchants/${b.SiteID}/payments/${id}/story answered 404: Payment not found.\n` });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.err).toContain(`has no marketplace ${a.SiteID} with the APIKey given (--site-id, --api-key)`);
    expect(none.code).toBe(1);
    expect(none.err).toContain('wants its control token');
  });

  it("trigger replays a story file as the marketplace's own payment", async () => {
    const api = await sandbox();
    const a = await marketplace(api);
    const first = await cli(['trigger', 'two-step', '--base-url', api, ...a.creds]);
    const id = Number(/payment (\d+) created/.exec(first.out)![1]);
    const story = await cli(['story', String(id), '--out', '-', '--base-url', api, ...a.creds]);
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-own-'));
    try {
      const file = join(dir, 'story.json');
      writeFileSync(file, story.out);
      const t = await cli(['trigger', file, '--base-url', api, ...a.creds]);
      expect(t.err).toBe('');
      expect(t.code).toBe(0);
      const replayed = Number(/payment (\d+) created from/.exec(t.out)![1]);
      const auth = 'Basic ' + Buffer.from(`${a.SiteID}:${a.APIKey}`).toString('base64');
      expect((await request(api).get(`/v1/payments/${replayed}`).set('Authorization', auth)).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("snapshot saves, lists, restores and removes the marketplace's own snapshots", async () => {
    const api = await sandbox();
    const a = await marketplace(api);
    const saved = await cli(['snapshot', 'save', 'empty', '--base-url', api, ...a.creds]);
    expect(saved).toEqual({ code: 0, out: `snapshot empty of SiteID ${a.SiteID} saved: 0 payments, sandbox time 2026-01-15 10:00:00\n`, err: '' });
    const auth = 'Basic ' + Buffer.from(`${a.SiteID}:${a.APIKey}`).toString('base64');
    expect((await request(api).get(`/_sandbox/merchants/${a.SiteID}/snapshots`).set('Authorization', auth)).body.Snapshots.map((s: { Name: string }) => s.Name)).toEqual(['empty']);
    // The sandbox's own snapshots are untouched.
    expect((await request(api).get('/_sandbox/snapshots').set('Authorization', `Bearer ${TOKEN}`)).body.Snapshots).toEqual([]);

    const listed = await cli(['snapshot', 'list', '--base-url', api, ...a.creds]);
    const restored = await cli(['snapshot', 'restore', 'empty', '--base-url', api, ...a.creds]);
    const removed = await cli(['snapshot', 'rm', 'empty', '--base-url', api, ...a.creds]);
    const none = await cli(['snapshot', 'list', '--base-url', api, ...a.creds]);
    expect(listed.out).toBe('empty  0 payments, sandbox time 2026-01-15 10:00:00\n');
    expect(restored.out).toBe(`snapshot empty of SiteID ${a.SiteID} restored: 0 payments, sandbox time 2026-01-15 10:00:00\n`);
    expect(removed.out).toBe(`snapshot empty of SiteID ${a.SiteID} removed\n`);
    expect(none.out).toBe('no snapshots\n');
  });

  it('--site-id and --api-key go together', async () => {
    const r = await cli(['snapshot', 'list', '--base-url', 'http://127.0.0.1:9', '--site-id', '30201']);
    expect(r).toEqual({ code: 1, out: '', err: 'split-sandbox: --site-id needs --api-key (its APIKey)\n' });
  });
});
