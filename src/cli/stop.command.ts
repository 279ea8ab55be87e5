// `split-sandbox stop`: ends a sandbox that `start` runs on this machine, by its ready file or its
// address, and waits until it is gone. A script's `kill $!` after `npx split-sandbox start &` ends only
// npm's wrapper (the server lives on), and a PID read from a stale file may be somebody else's by now:
// the sandbox answering at the address must say that it is that PID before anything is signalled.
import { readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, Option } from 'commander';
import { CliError, SandboxClient, controlTokenOption } from './client';
import { duration, httpUrl, seconds } from './options';
import { isRunning, readReadyFile } from './ready-file';

interface StopOptions {
  baseUrl?: string;
  readyFile?: string;
  timeout: number;
  controlToken?: string;
}

const POLL_MS = 50;

export function registerStop(program: Command): void {
  program
    .command('stop')
    .description('stop a sandbox that `start` (or a `drift` proxy) runs on this machine (by --ready-file or --base-url) and wait until it has ended')
    .addOption(new Option('--ready-file <path>', 'the file `start --ready-file` wrote: its PID is stopped, once the sandbox it names confirms it'))
    .addOption(new Option('--base-url <url>', 'the sandbox at this address (it must run on this machine)').argParser(httpUrl).conflicts('readyFile'))
    .addOption(new Option('--timeout <duration>', 'how long to wait for it to end (30s, 2m; a bare number is milliseconds)').argParser(duration).default(10_000, seconds(10_000)))
    .addOption(controlTokenOption())
    .addHelpText(
      'after',
      `
Examples:
  $ split-sandbox start --port 0 --ready-file /tmp/sandbox.json &
  $ split-sandbox stop --ready-file /tmp/sandbox.json
  $ split-sandbox stop --base-url http://127.0.0.1:8080`,
    )
    .action((opts: StopOptions) => stop(opts));
}

async function stop(opts: StopOptions): Promise<void> {
  if (opts.readyFile === undefined && opts.baseUrl === undefined) throw new CliError('say which sandbox to stop: --ready-file <path> or --base-url <url>');
  let base: string;
  let expected: number | undefined;
  if (opts.readyFile !== undefined) {
    const ready = readReadyFile(opts.readyFile);
    if ('missing' in ready) throw new CliError(`nothing to stop: ${ready.missing.replace(' yet', '')}`);
    if (ready.PID > 0 && !isRunning(ready.PID)) {
      removeIfStill(opts.readyFile, ready.PID);
      process.stdout.write(`split-sandbox PID ${ready.PID} had already ended; ${opts.readyFile} removed\n`);
      return;
    }
    base = ready.ListeningBaseURL;
    expected = ready.PID;
  } else {
    base = opts.baseUrl!;
  }
  const client = new SandboxClient(base, opts.controlToken);
  const health = await client.control<{ PID?: unknown }>('GET', '/_sandbox/health');
  const pid = health.PID;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) throw new CliError(`the sandbox at ${client.base} does not say its PID (is it a split-sandbox of this version?)`);
  if (expected !== undefined && expected !== pid) {
    throw new CliError(`${opts.readyFile} names PID ${expected}, but the sandbox at ${client.base} is PID ${pid}: the file is not that sandbox's; nothing was stopped`);
  }
  // The PID is the answering process's own: on another machine or in a container it would name some other process here.
  if (!isRunning(pid) || !isSandboxCommand(pid)) {
    throw new CliError(`the sandbox at ${client.base} is PID ${pid}, which is no split-sandbox process of this machine (in a container, or started by startSandbox() in a program of yours?): stop it where it runs; nothing was stopped`);
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + opts.timeout;
  while (isRunning(pid)) {
    if (Date.now() >= deadline) throw new CliError(`split-sandbox PID ${pid} at ${client.base} has not ended within ${opts.timeout / 1000} s of SIGTERM`);
    await sleep(POLL_MS);
  }
  // Removed by the sandbox itself on a clean stop; a file left anyway would mislead the next `wait`.
  if (opts.readyFile !== undefined) removeIfStill(opts.readyFile, pid);
  process.stdout.write(`split-sandbox PID ${pid} at ${client.base} stopped\n`);
}

/** Whether the process runs split-sandbox's server, `start` or the `drift` proxy (its command line names it), where the system tells. */
function isSandboxCommand(pid: number): boolean {
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    try {
      command = execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' });
    } catch {
      return false;
    }
  }
  return /split-sandbox/.test(command) && /\b(start|drift)\b/.test(command);
}

function removeIfStill(path: string, pid: number): void {
  const ready = readReadyFile(path);
  if (!('missing' in ready) && ready.PID === pid) rmSync(path, { force: true });
}
