// The CLI for reproducing a case, spawned as processes: snapshot save|restore|list|rm, story, replay,
// trigger with a file, start --speed; and --help with examples on each.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { MARKETPLACE, basic, paymentBody } from '../helpers/constants';
import { type Ran, type Run, run, sessionForTests, startIn, waitForOutput } from './process';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('split-sandbox snapshot, story, replay (built code)', () => {
  let tmp: string;
  const running: Run[] = [];

  // The commands, and the sandboxes they talk to but whose process is not in question, run in one Node
  // process (started by the same `start`), the first --help also as a real process, compared.
  const session = sessionForTests();
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-cli-reproduce-'))));
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGTERM');
      await r.exited;
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  async function startWith(args: string[]): Promise<string> {
    const r = run(['start', '--port', '0', '--card-port', '0', '--quiet', ...args]);
    running.push(r);
    return (await waitForOutput(r, /API  (\S+)\n/))[1]!;
  }

  /** A sandbox in the session's process. */
  const startInSession = async (args: string[]) => (await startIn(session, args)).api;

  async function real(args: string[]): Promise<Ran> {
    const r = run(args);
    const { code } = await r.exited;
    return { code, out: r.stdout(), err: r.stderr() };
  }

  const cli = (args: string[]) => session.run(args);

  const helped = ['snapshot', 'snapshot save', 'snapshot restore', 'snapshot list', 'snapshot rm', 'story', 'replay'];
  // Every --help in one Node process; the first also as a real process of its own, which must print the same.
  const help = (command: string) => cli([...command.split(' '), '--help']);

  it.each(helped)('%s --help explains the command with examples', async (command) => {
    const r = await help(command);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: split-sandbox/);
    expect(r.out).toMatch(/Examples?:\n\s+\$ split-sandbox/);
    if (command === helped[0]) expect(await real([...command.split(' '), '--help'])).toEqual(r);
  });

  it('saves, lists, restores and removes snapshots of a running sandbox; refusals are one clear line', async () => {
    const api = await startInSession(['--db', join(tmp, 'qa.db'), '--clock', 'manual', '--start-time', '20260115100000']);
    const p = await request(api).post('/v1/payments').set('Authorization', AUTH).set('X-Sandbox-Scenario', 'two-step').send(paymentBody());
    await request(api).post('/_sandbox/clock/advance').send({ Seconds: 2 }).expect(200);

    const saved = await cli(['snapshot', 'save', 'authorized', '--base-url', api]);
    expect(saved).toEqual({ code: 0, out: 'snapshot authorized saved: 1 payment, sandbox time 2026-01-15 10:00:02\n', err: '' });
    await request(api).post(`/v1/payments/${p.body.Payment.ID}/capture`).set('Authorization', AUTH).expect(200);
    await request(api).post('/_sandbox/clock/advance').send({ Seconds: 60 }).expect(200);
    expect((await cli(['snapshot', 'list', '--base-url', api])).out).toBe('authorized  1 payment, sandbox time 2026-01-15 10:00:02\n');

    expect((await cli(['snapshot', 'restore', 'authorized', '--base-url', api])).out).toBe('snapshot authorized restored: 1 payment, sandbox time 2026-01-15 10:00:02\n');
    const back = await request(api).get(`/v1/payments/${p.body.Payment.ID}`).set('Authorization', AUTH);
    expect(back.body.Payment.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: null });
    expect((await request(api).get('/_sandbox/clock')).body.Now).toBe('20260115100002');

    const removed = await cli(['snapshot', 'rm', 'authorized', '--base-url', api]);
    const none = await cli(['snapshot', 'list', '--base-url', api]);
    const missing = await cli(['snapshot', 'restore', 'authorized', '--base-url', api]);
    const bad = await cli(['snapshot', 'save', 'no/slashes', '--base-url', api]);
    expect(removed).toEqual({ code: 0, out: 'snapshot authorized removed\n', err: '' });
    expect(none.out).toBe('no snapshots\n');
    expect(missing).toEqual({ code: 1, out: '', err: 'split-sandbox: POST /_sandbox/snapshots/authorized/restore answered 404: Snapshot authorized not found.\n' });
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^split-sandbox: POST \/_sandbox\/snapshots answered 400: Name is invalid: "no\/slashes" is not a snapshot name/);
  });

  it('writes a story to a file that replay and trigger take on another sandbox', async () => {
    const a = await startInSession(['--db', ':memory:', '--clock', 'manual']);
    const p = await request(a).post('/v1/payments').set('Authorization', AUTH).set('X-Sandbox-Scenario', 'partial-capture').send(paymentBody());
    const id = p.body.Payment.ID as number;
    await request(a).post('/_sandbox/clock/advance').send({ Seconds: 10 }).expect(200);

    const file = join(tmp, `story-${id}.json`);
    const told = await cli(['story', String(id), '--out', file, '--base-url', a]);
    expect(told).toEqual({ code: 0, out: `${file}: the story of payment ${id}, 2 steps over 3.0 s of sandbox time\n`, err: '' });
    const story = JSON.parse(readFileSync(file, 'utf8'));
    expect(story.Name).toBe(`story-${id}`);
    expect((await cli(['story', '99', '--out', '-', '--base-url', a])).err).toBe('split-sandbox: GET /_sandbox/payments/99/story answered 404: Payment not found.\n');

    const b = await startInSession(['--db', ':memory:', '--clock', 'manual']);
    const replayed = await cli(['replay', file, '--base-url', b]);
    expect(replayed.code).toBe(0);
    const newId = Number(/^payment (\d+) created from .* \(the story of payment (\d+)\): 2 steps over 3\.0 s of sandbox time\n$/.exec(replayed.out)?.[1]);
    await request(b).post('/_sandbox/clock/advance').send({ Seconds: 10 }).expect(200);
    const got = await request(b).get(`/v1/payments/${newId}`).set('Authorization', AUTH);
    expect(got.body.Payment).toMatchObject({ Status: { ID: 35 }, CapturedAmount: '300', MerchantTransactionID: `${story.Request.Payment.MerchantTransactionID}-replay1` });

    // trigger replays it and prints each state; nothing is captured on the story's behalf.
    const t = await cli(['trigger', file, '--base-url', b]);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(new RegExp(`payment \\d+ created from .*story-${id}\\.json \\(the story of payment ${id}, scenario story-${id}(-\\d+)?\\): Open`));
    expect(t.out).toMatch(/→ Authorized \(scenario story-\d+(-\d+)?: authorize\)/);
    expect(t.out).toMatch(/→ PartiallyCaptured \(capture per split\)/);
    expect(t.out).not.toMatch(/merchant captures/);
    expect(t.out).toMatch(/done: payment \d+ is PartiallyCaptured\n$/);

    // A plain scenario file runs with the payment trigger makes.
    const scenario = join(tmp, 'slow-success.json');
    writeFileSync(scenario, JSON.stringify({ Name: 'slow-success', Description: 'Success after 10 s', Steps: [{ After: '10s', Do: 'succeed' }] }));
    const s = await cli(['trigger', scenario, '--method', '2', '--base-url', b]);
    const notStory = await cli(['replay', scenario, '--base-url', b]);
    const noFile = await cli(['replay', join(tmp, 'none.json'), '--base-url', b]);
    expect(s.code).toBe(0);
    expect(s.out).toMatch(/scenario slow-success\): Open/);
    expect(s.out).toMatch(/done: payment \d+ is Success\n$/);
    expect(notStory.err).toBe(`split-sandbox: ${scenario} is a scenario file, not a story (it has no Request): run it with split-sandbox trigger ${scenario}\n`);
    expect(noFile.err).toBe(`split-sandbox: cannot read ${join(tmp, 'none.json')}: no such file\n`);
  });

  it('start --speed runs a real clock faster, and is refused with a manual clock or below 1', async () => {
    const api = await startWith(['--db', ':memory:', '--speed', '3600']);
    expect((await request(api).get('/_sandbox/clock')).body).toMatchObject({ Mode: 'real', Speed: 3600 });
    const manual = await cli(['start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--clock', 'manual', '--speed', '60']);
    expect(manual.code).toBe(1);
    expect(manual.err).toContain('--speed is for the real clock');
    const slow = await cli(['start', '--db', ':memory:', '--speed', '0.5']);
    expect(slow.code).not.toBe(0);
    expect(slow.err).toMatch(/--speed.*expected a number from 1 up/);
  });
});
