// `split-sandbox stop`, as processes: it ends the sandbox its ready file (or address) names and waits
// for it, only once that sandbox says it is the PID to be signalled; and `wait` says when a ready
// file's sandbox is no longer running.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Run, appears, run, sessionForTests, startIn } from './process';

/** The PID of a process that has ended (a shell's, which ends at once: a Node process costs a tenth of a second of a core). */
function endedPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile('sh', ['-c', ':'], () => resolve(child.pid!));
  });
}

describe('split-sandbox stop (built code)', () => {
  let tmp: string;
  const running: Run[] = [];
  // The sandbox nothing may stop, and the refusals read once they end, run in one Node process (the CLI
  // session); the sandboxes that are stopped or killed, and the stops that end them, are real processes.
  const session = sessionForTests();
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-stop-'))));
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
  const started = async () => {
    const file = join(tmp, 'ready.json');
    const s = spawnRun(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet', '--ready-file', file]);
    await appears(file, s);
    return { file, s, ready: JSON.parse(readFileSync(file, 'utf8')) as { BaseURL: string; PID: number } };
  };

  it('--ready-file ends the sandbox, waits until it has ended and leaves no file', async () => {
    const { file, s, ready } = await started();
    const stop = spawnRun(['stop', '--ready-file', file]);
    expect(await stop.exited).toEqual({ code: 0, signal: null });
    expect(stop.stdout()).toBe(`split-sandbox PID ${ready.PID} at ${ready.BaseURL} stopped\n`);
    // Ended before stop returned: its exit is already there to collect, and nothing answers.
    expect(s.child.exitCode ?? s.child.signalCode).not.toBeNull();
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(file)).toBe(false);
    await expect(fetch(`${ready.BaseURL}/_sandbox/health`)).rejects.toThrow();
  });

  it('--base-url ends the sandbox at that address', async () => {
    const { s, ready } = await started();
    const stop = spawnRun(['stop', '--base-url', ready.BaseURL]);
    expect((await stop.exited).code).toBe(0);
    expect(await s.exited).toEqual({ code: 0, signal: null });
  });

  it('signals nothing when the sandbox at the address is not the PID the file names', async () => {
    const file = join(tmp, 'ready.json');
    await startIn(session, ['--db', ':memory:', '--ready-file', file]);
    const ready = JSON.parse(readFileSync(file, 'utf8')) as { BaseURL: string; PID: number };
    expect(ready.PID).toBe(session.pid);
    const forged = join(tmp, 'forged.json');
    // This test's own PID: a stale file whose PID was reused by another program.
    writeFileSync(forged, JSON.stringify({ ...ready, PID: process.pid }));
    const stop = spawnRun(['stop', '--ready-file', forged]);
    expect((await stop.exited).code).toBe(1);
    expect(stop.stderr()).toBe(`split-sandbox: ${forged} names PID ${process.pid}, but the sandbox at ${ready.BaseURL} is PID ${ready.PID}: the file is not that sandbox's; nothing was stopped\n`);
    expect((await request(ready.BaseURL).get('/_sandbox/health')).status).toBe(200);
  });

  it('a file whose sandbox has ended is removed, and said so; no file at all is an error', async () => {
    const gone = await endedPid();
    const file = join(tmp, 'stale.json');
    writeFileSync(file, JSON.stringify({ BaseURL: 'http://127.0.0.1:1', CardBaseURL: 'http://127.0.0.1:2', ListeningBaseURL: 'http://127.0.0.1:1', ListeningCardBaseURL: 'http://127.0.0.1:2', PID: gone }));
    const stop = spawnRun(['stop', '--ready-file', file]);
    expect(await stop.exited).toEqual({ code: 0, signal: null });
    expect(stop.stdout()).toBe(`split-sandbox PID ${gone} had already ended; ${file} removed\n`);
    expect(existsSync(file)).toBe(false);
    const none = await session.run(['stop', '--ready-file', file]);
    expect(none.code).toBe(1);
    expect(none.err).toBe(`split-sandbox: nothing to stop: ${file} does not exist\n`);
  });

  it('wait --ready-file says that the PID in the file is not running (a sandbox that was killed)', async () => {
    const { file, s } = await started();
    s.child.kill('SIGKILL');
    await s.exited;
    const w = await session.run(['wait', '--ready-file', file, '--timeout', '300ms']);
    expect(w.code).toBe(1);
    expect(w.err).toBe(
      `split-sandbox: no running sandbox within 0.3 s; last: ${file} names PID ${s.child.pid}, which is not running: the sandbox that wrote it has ended (killed, or stopped without removing its file)\n`,
    );
  });
});
