// Readiness for scripts, as processes: `start --ready-file`, `split-sandbox wait`, and start's
// refusals of a bad --retain or --control-from.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { BIN, type Run, appears, run, sessionForTests, startIn, waitForOutput } from './process';

/** A port nothing listens on (taken from the system, then let go). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('readiness for scripts (built code)', () => {
  let tmp: string;
  const running: Run[] = [];

  // Outputs for given arguments, and sandboxes whose process is not in question (the ones `wait` waits
  // for at an address, the one whose ready file's addresses are read), run in one Node process; what
  // starts and writes a ready file for its own PID, or waits, is a process (the healthy wait's exit and
  // output also in the session: the test after it runs that wait as a process).
  const session = sessionForTests();
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-ready-'))));
  afterEach(async () => {
    for (const r of running.splice(0)) {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
      await r.exited;
    }
    rmSync(tmp, { recursive: true, force: true });
  });
  const spawnRun = (args: string[]) => {
    const r = run(args);
    running.push(r);
    return r;
  };

  it('start --ready-file writes BaseURL, CardBaseURL, where they are bound and PID once both listeners are up, and removes it on SIGTERM', async () => {
    const file = join(tmp, 'ready.json');
    const r = spawnRun(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet', '--ready-file', file]);
    await appears(file, r);
    const ready = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(ready)).toEqual(['BaseURL', 'CardBaseURL', 'ListeningBaseURL', 'ListeningCardBaseURL', 'PID']);
    expect([ready.ListeningBaseURL, ready.ListeningCardBaseURL]).toEqual([ready.BaseURL, ready.CardBaseURL]);
    expect(ready.PID).toBe(r.child.pid);
    // Written whole, under its own name: nothing else was left beside it.
    expect(readdirSync(tmp)).toEqual(['ready.json']);
    // Both addresses answer as soon as the file is there, and say the same addresses.
    const health = await request(ready.BaseURL).get('/_sandbox/health');
    expect(health.body).toMatchObject({ Status: 'ok', BaseURL: ready.BaseURL, CardBaseURL: ready.CardBaseURL });
    expect((await request(ready.CardBaseURL).get('/v1/payments')).status).toBe(401);
    const m = await waitForOutput(r, /API {2}(\S+)\nCard (\S+)\n/);
    expect([m[1], m[2]]).toEqual([ready.BaseURL, ready.CardBaseURL]);

    r.child.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(file)).toBe(false);
  });

  it('the ready file gives the addresses clients use (the public ones when set) and where the listeners are bound', async () => {
    const file = join(tmp, 'ready.json');
    const port = await freePort();
    const r = await session.run(['start', '--port', String(port), '--card-port', '0', '--db', ':memory:', '--quiet', '--ready-file', file,
      '--public-url', 'http://sandbox.example:18080', '--public-card-url', 'http://sandbox.example:18081']);
    expect(r.code).toBe(0);
    const ready = JSON.parse(readFileSync(file, 'utf8'));
    expect(ready).toEqual({
      BaseURL: 'http://sandbox.example:18080',
      CardBaseURL: 'http://sandbox.example:18081',
      ListeningBaseURL: `http://127.0.0.1:${port}`,
      ListeningCardBaseURL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      PID: session.pid,
    });
    expect((await request(ready.ListeningBaseURL).get('/_sandbox/health')).body.BaseURL).toBe(ready.BaseURL);
    expect((await request(ready.ListeningCardBaseURL).get('/v1/payments')).status).toBe(401);
  });

  it('start exits 1 when the ready file cannot be written, naming the missing folder before anything claims to listen', async () => {
    const file = join(tmp, 'no', 'such', 'dir', 'ready.json');
    const r = spawnRun(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet', '--ready-file', file]);
    expect((await r.exited).code).toBe(1);
    expect(r.stderr()).toBe(`split-sandbox: cannot write --ready-file ${file}: the folder ${join(tmp, 'no', 'such', 'dir')} does not exist\n`);
    expect(r.stdout()).toBe('');
  });

  it('wait exits 0 for a healthy sandbox', async () => {
    const { api: BaseURL } = await startIn(session, ['--db', ':memory:']);
    expect(await session.run(['wait', '--base-url', BaseURL])).toEqual({ code: 0, out: `split-sandbox at ${BaseURL} is healthy\n`, err: '' });
  });

  it("wait asks over node:http, never loading Node's fetch (its first use costs a command a third of a second of a core)", async () => {
    const { api: BaseURL } = await startIn(session, ['--db', ':memory:']);
    // The built CLI as bin/split-sandbox runs it, telling at its exit which built-ins it loaded.
    const script = `
      process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'));
      process.argv = [process.execPath, ${JSON.stringify(BIN)}, 'wait', '--base-url', ${JSON.stringify(BaseURL)}];
      require(${JSON.stringify(BIN)});`;
    const ran = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
    );
    expect([ran.code, ran.stdout]).toEqual([0, `split-sandbox at ${BaseURL} is healthy\n`]);
    const loaded = JSON.parse(/^LOADED (.*)$/m.exec(ran.stderr)![1]!) as string[];
    expect(loaded).toContain('NativeModule http');
    expect(loaded.filter((m) => m.includes('undici'))).toEqual([]);
  });

  it('wait --ready-file waits for the file, then for the sandbox it names (bound elsewhere than its public address)', async () => {
    const file = join(tmp, 'ready.json');
    const w = spawnRun(['wait', '--ready-file', file, '--timeout', '30s']);
    // The file is not there yet when wait starts: it waits instead of failing.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const s = spawnRun(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet', '--ready-file', file, '--public-url', 'http://sandbox.test']);
    expect(await w.exited).toEqual({ code: 0, signal: null });
    const ready = JSON.parse(readFileSync(file, 'utf8'));
    expect(ready.PID).toBe(s.child.pid);
    expect(w.stdout()).toBe(`split-sandbox at ${ready.ListeningBaseURL} is healthy\n`);
  });

  it('wait --ready-file exits 1 after its timeout naming the file that never came, or that is no ready file', async () => {
    const file = join(tmp, 'never.json');
    const w = spawnRun(['wait', '--ready-file', file, '--timeout', '300ms']);
    expect((await w.exited).code).toBe(1);
    expect(w.stderr()).toBe(`split-sandbox: no ready file within 0.3 s; last: ${file} does not exist yet\n`);
    const other = join(tmp, 'other.json');
    writeFileSync(other, '{"port": 8080}');
    // The first refusal is a real process; these two run in the session (their exit code and stderr are what is tested).
    const w2 = await session.run(['wait', '--ready-file', other, '--timeout', '300ms']);
    const both = await session.run(['wait', '--ready-file', other, '--base-url', 'http://127.0.0.1:1']);
    expect(w2.code).toBe(1);
    expect(w2.err).toBe(`split-sandbox: no ready file within 0.3 s; last: ${other} is not a ready file of split-sandbox start (no BaseURL in it)\n`);
    expect(both.code).not.toBe(0);
    expect(both.err).toMatch(/--ready-file.*cannot be used with.*--base-url/);
  });

  it('wait keeps trying while nothing healthy answers, and exits 0 once the sandbox is up', async () => {
    // Something on the port that hangs up on every connection, as a server still starting might.
    let tries = 0;
    let tried: () => void = () => {};
    const hangUp = createServer((socket) => {
      tries++;
      tried();
      socket.destroy();
    });
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const port = (hangUp.address() as AddressInfo).port;
    const w = spawnRun(['wait', '--base-url', `http://127.0.0.1:${port}`, '--timeout', '30s']);
    await new Promise<void>((resolve) => (tried = () => tries >= 2 && resolve()));
    await new Promise<void>((resolve) => hangUp.close(() => resolve()));
    expect(w.child.exitCode).toBeNull();
    await startIn(session, ['--port', String(port), '--db', ':memory:']);
    expect(await w.exited).toEqual({ code: 0, signal: null });
  });

  it('wait exits 1 after its timeout with a clear message when nothing healthy answers', async () => {
    const port = await freePort();
    const started = Date.now();
    const w = spawnRun(['wait', '--base-url', `http://127.0.0.1:${port}`, '--timeout', '500ms']);
    expect((await w.exited).code).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(w.stderr()).toMatch(new RegExp(`^split-sandbox: no healthy sandbox at http://127\\.0\\.0\\.1:${port} within 0\\.5 s; last: .*ECONNREFUSED`));
    expect(w.stderr()).not.toMatch(/\n\s+at /);

    // Something else answers there: not taken for a sandbox.
    const other = (await import('node:http')).createServer((_req, res) => res.end('{"ok": true}'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      // In the session: the first wait above is the real process.
      const w2 = await session.run(['wait', '--base-url', `http://127.0.0.1:${(other.address() as AddressInfo).port}`, '--timeout', '300ms']);
      expect(w2.code).toBe(1);
      expect(w2.err).toContain('answers, but is not a split-sandbox');
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  // Outputs for given arguments, in the session; start's refusal of --retain also as a real process, compared.
  it('wait --help explains the command with examples', async () => {
    const r = await session.run(['wait', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: split-sandbox wait/);
    expect(r.out).toMatch(/Examples?:\n\s+\$ split-sandbox/);
  });

  it('start refuses a bad --retain or --control-from, saying what it expects', async () => {
    const retain = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--retain', 'soon']);
    const from = await session.run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:'], { SANDBOX_CONTROL_FROM: 'private,10.0.0.0/99' });
    expect(retain.code).not.toBe(0);
    expect(retain.err).toMatch(/--retain.*expected a duration of at least a second, such as 7d/);
    const real = spawnRun(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--retain', 'soon']);
    expect({ code: (await real.exited).code, out: real.stdout(), err: real.stderr() }).toEqual(retain);
    expect(from.code).not.toBe(0);
    expect(from.err).toMatch(/SANDBOX_CONTROL_FROM.*"10\.0\.0\.0\/99" is not loopback, private, any, none/);
  });

  it('start --control-from says to whom the control API answers when it listens beyond loopback', async () => {
    const r = await session.run(['start', '--host', '0.0.0.0', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet', '--control-from', 'private']);
    expect(r.out).toMatch(/API {2}\S+\n/);
    expect(r.err).toContain('beyond loopback; the control API answers private without a token');
  });
});
