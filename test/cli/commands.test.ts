// Every CLI command spawned as a process: start's environment and config file, reset, openapi,
// trigger, and --help with examples on each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startReceiver } from '../helpers/receiver';
import { MARKETPLACE, basic, paymentBody } from '../helpers/constants';
import { type Run, BIN, run, sessionForTests, startIn, waitForOutput } from './process';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

describe('split-sandbox commands (built code)', () => {
  let tmp: string;
  const running: Run[] = [];

  // Commands whose output for their arguments is what is tested run in one Node process, with the
  // sandboxes they talk to (started there by the same `start`, as is the one whose options are read);
  // start's own life, the ones that read its log, and a trigger, start --help and a piped openapi run
  // as real processes.
  const session = sessionForTests();
  const cli = (argv: string[], env?: Record<string, string>) => session.run(argv, env);
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-cli-'))));
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGTERM');
      await r.exited;
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  async function startWith(args: string[]): Promise<{ r: Run; api: string }> {
    const r = run(['start', ...args]);
    running.push(r);
    const m = await waitForOutput(r, /API  (\S+)\nCard (\S+)\n/);
    return { r, api: m[1]! };
  }

  // start --help also as a real process, compared.
  const helped = ['start', 'scenarios', 'openapi', 'reset', 'trigger'];

  it.each(helped)('%s --help explains the command with examples', async (command) => {
    const r = await cli([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: split-sandbox/);
    expect(r.out).toMatch(/Examples?:\n\s+\$ split-sandbox/);
    if (command === helped[0]) {
      const real = run([command, '--help']);
      const { code } = await real.exited;
      expect({ code, out: real.stdout(), err: real.stderr() }).toEqual(r);
    }
  });

  it('start takes options from SANDBOX_* variables and a --config file; the command line wins', async () => {
    const file = join(tmp, 'sandbox.json');
    writeFileSync(file, JSON.stringify({ port: 1, cardPort: 0, db: ':memory:', pageSize: 3, scenario: 'failed', cancelOpen: false }));
    // port from the file (1) is beaten by the environment (0), page size from the file stays,
    // the scenario from the file is beaten by the command line.
    // In the session, where it runs until the session ends: which options won is what is tested.
    const started = await cli(['start', '--config', file, '--scenario', 'two-step', '--quiet'], { SANDBOX_PORT: '0' });
    expect(started.code).toBe(0);
    const api = /^API {2}(\S+)\n/.exec(started.out)![1]!;
    const list = await request(api).get('/v1/payments').set('Authorization', AUTH);
    expect(list.body.PageSize).toBe(3);
    const p = await request(api).post('/v1/payments').set('Authorization', AUTH).send(paymentBody());
    const story = await request(api).get(`/_sandbox/payments/${p.body.Payment.ID}`);
    expect(story.body.Scenario).toBe('two-step');
    const cancel = await request(api).post(`/v1/payments/${p.body.Payment.ID}/cancel`).set('Authorization', AUTH);
    expect(cancel.body.Payment.Status.Reasons[0].Code).toBe(122); // cancelOpen: false from the file
  });

  it('start refuses a bad config file or variable with a clear message', async () => {
    const file = join(tmp, 'bad.json');
    writeFileSync(file, JSON.stringify({ colour: 'blue' }));
    const r1 = await cli(['start', '--config', file]);
    expect(r1.code).not.toBe(0);
    expect(r1.err).toContain('unknown option "colour"');
    const r2 = await cli(['start', '--port', '0', '--card-port', '0', '--db', ':memory:'], { SANDBOX_PAGE_SIZE: 'many' });
    expect(r2.code).not.toBe(0);
    expect(r2.err).toMatch(/SANDBOX_PAGE_SIZE.*whole number/);
  });

  it('start warns when it listens beyond loopback', async () => {
    const r = await cli(['start', '--host', '0.0.0.0', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('beyond loopback; the control API answers only on this machine');
  });

  it('start --log-format json writes one JSON object per request', async () => {
    const { r, api } = await startWith(['--port', '0', '--card-port', '0', '--db', ':memory:', '--log-format', 'json']);
    await request(api).get('/_sandbox/health').expect(200);
    // Told by the process's own output, not by polling for it.
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!r.stderr().includes('/_sandbox/health')) return;
        r.child.stderr!.off('data', check);
        resolve();
      };
      r.child.stderr!.on('data', check);
      check();
    });
    const line = r.stderr().split('\n').find((l) => l.includes('/_sandbox/health'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 'info', msg: 'GET /_sandbox/health 200', address: 'api' });
  });

  it('reset --db empties a database file and loads the fixtures again', async () => {
    const db = join(tmp, 'ci.db');
    const { r, api } = await startWith(['--port', '0', '--card-port', '0', '--db', db, '--quiet']);
    const p = await request(api).post('/v1/payments').set('Authorization', AUTH).send(paymentBody());
    expect(p.status).toBe(201);
    r.child.kill('SIGTERM');
    await r.exited;

    const reset = await cli(['reset', '--db', db]);
    expect(reset.code).toBe(0);
    expect(reset.out).toMatch(/^reset .*ci\.db: 2 merchants, 13 methods loaded\n$/);
    // What the file holds now, as a sandbox started on it answers: the marketplace's key is taken
    // (the fixtures are back) and the payment is gone.
    const { api: after } = await startIn(session, ['--db', db]);
    expect((await request(after).get('/v1/payments').set('Authorization', AUTH)).status).toBe(200);
    expect((await request(after).get(`/v1/payments/${p.body.Payment.ID}`).set('Authorization', AUTH)).status).toBe(404);
    const missing = await cli(['reset', '--db', join(tmp, 'nothing.db')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no database file');
  });

  it('reset refuses a database file a running sandbox holds, naming stop and the control API, and changes nothing', async () => {
    const db = join(tmp, 'busy.db');
    const { r, api } = await startWith(['--port', '0', '--card-port', '0', '--db', db, '--quiet']);
    const p = await request(api).post('/v1/payments').set('Authorization', AUTH).send(paymentBody());
    expect(p.status).toBe(201);
    const refused = await cli(['reset', '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `split-sandbox: a running sandbox holds ${db}; stop it first (split-sandbox stop --ready-file <file> or --base-url <url>), or reset it while it runs with POST /_sandbox/reset\n`,
    );
    expect((await request(api).get(`/v1/payments/${p.body.Payment.ID}`).set('Authorization', AUTH)).status).toBe(200);
    // The mark ends with the process, however it ends: after a kill -9 the file can be reset.
    r.child.kill('SIGKILL');
    await r.exited;
    expect((await cli(['reset', '--db', db])).code).toBe(0);
  });

  it('openapi prints the document of either address', async () => {
    const api = await cli(['openapi']);
    expect(api.code).toBe(0);
    const doc = JSON.parse(api.out);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/v1/payments/{id}/splits/{splitId}/refunds');
    const card = await cli(['openapi', '--surface', 'card', '--base-url', 'http://card.example']);
    expect(card.code).toBe(0);
    expect(JSON.parse(card.out).servers).toEqual([{ url: 'http://card.example' }]);
  });

  it('trigger drives a payment through a scenario on a running sandbox, printing each state', async () => {
    const { api } = await startIn(session, ['--db', ':memory:', '--clock', 'manual']);
    const t = await cli(['trigger', 'two-step', '--base-url', api]);
    const refused = await cli(['trigger', 'no-such', '--base-url', api]);
    expect(t.code).toBe(0);
    const out = t.out;
    expect(out).toMatch(/payment (\d+) created .*scenario two-step\): Open/);
    expect(out).toMatch(/→ Authorized \(scenario two-step: authorize\)/);
    expect(out).toMatch(/merchant captures in full: 200 Success/);
    expect(out).toMatch(/done: payment \d+ is Success\n$/);

    expect(refused.code).toBe(1);
    expect(refused.err).toContain('no scenario "no-such"');
  });

  it('trigger says which notification a fault dropped', async () => {
    const rx = await startReceiver();
    try {
      const { api } = await startIn(session, ['--db', ':memory:', '--clock', 'manual', '--notify-url', rx.url]);
      // This trigger is a real process.
      const rule = await request(api).post('/_sandbox/faults').send({ Channel: 'notifications', Match: { StatusID: 9 }, Action: { Drop: true } });
      expect(rule.status).toBe(201);
      const t = run(['trigger', 'two-step', '--base-url', api]);
      expect((await t.exited).code).toBe(0);
      expect(t.stdout()).toMatch(/notification \d+ \(Authorized\) not sent: dropped by fault 1\n/);
      expect(t.stdout()).toMatch(/done: payment \d+ is Success\n$/);
      expect(rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([2]);
    } finally {
      await rx.close();
    }
  });

  it('trigger uses --control-token or SANDBOX_CONTROL_TOKEN, and says clearly when it is missing or wrong', async () => {
    const { api } = await startIn(session, ['--db', ':memory:', '--clock', 'manual', '--control-token', 's3cret']);
    const without = await cli(['trigger', 'two-step', '--base-url', api]);
    expect(without.code).toBe(1);
    expect(without.err).toBe(`split-sandbox: the sandbox at ${api} wants its control token: pass --control-token <token> or set SANDBOX_CONTROL_TOKEN\n`);
    const wrong = await cli(['trigger', 'two-step', '--base-url', api, '--control-token', 'nope']);
    const flag = await cli(['trigger', 'two-step', '--base-url', api, '--control-token', 's3cret']);
    const env = await cli(['trigger', 'one-step', '--base-url', api], { SANDBOX_CONTROL_TOKEN: 's3cret' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('refused the control token given');
    expect(wrong.err).not.toMatch(/\n\s+at /); // no stack trace
    expect(flag.code).toBe(0);
    expect(flag.out).toMatch(/done: payment \d+ is Success\n$/);
    expect(env.code).toBe(0);
    expect(env.out).toMatch(/done: payment \d+ is Success\n$/);
  });

  it('openapi piped into a reader that stops early ends quietly (no EPIPE stack trace)', async () => {
    const { spawn } = await import('node:child_process');
    const sh = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" openapi | head -c 10`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    sh.stdout.on('data', (c: Buffer) => (out += c));
    sh.stderr.on('data', (c: Buffer) => (err += c));
    await new Promise((resolve) => sh.once('close', resolve));
    expect(out).toBe('{\n  "opena');
    expect(err).toBe('');
  });

  it('trigger says clearly when no sandbox runs at the address', async () => {
    const t = await cli(['trigger', 'two-step', '--base-url', 'http://127.0.0.1:9']);
    expect(t.code).toBe(1);
    expect(t.err).toContain('no sandbox answers at http://127.0.0.1:9');
  });
});
