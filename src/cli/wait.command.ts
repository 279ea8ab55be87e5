// `split-sandbox wait`: exits 0 once the sandbox at --base-url (or the one a --ready-file names)
// answers healthy, and 1 with the last reason after --timeout. For scripts and CI steps that start a
// sandbox in the background.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, Option } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { CliError, SandboxClient } from './client';
import { duration, httpUrl, seconds } from './options';
import { isRunning, readReadyFile } from './ready-file';

interface WaitOptions {
  baseUrl: string;
  readyFile?: string;
  timeout: number;
}

/** Between two tries. */
const POLL_MS = 100;
/** The longest one try waits for its answer: a sandbox answers its health in milliseconds, and a connection dropped unanswered can leave a try waiting until then. */
const TRY_MS = 1000;

export function registerWait(program: Command): void {
  program
    .command('wait')
    .description('wait until a sandbox answers healthy on /_sandbox/health; exit 1 with the reason after the timeout')
    .option('--base-url <url>', 'the sandbox to wait for', httpUrl, `http://${DEFAULT_CONFIG.host}:${DEFAULT_CONFIG.port}`)
    .addOption(
      new Option('--ready-file <path>', "wait for the file `start --ready-file` writes, then for the sandbox it names").conflicts('baseUrl'),
    )
    .addOption(new Option('--timeout <duration>', 'give up after (30s, 2m; a bare number is milliseconds)').argParser(duration).default(30_000, seconds(30_000)))
    .addHelpText(
      'after',
      `
Examples:
  $ split-sandbox start --port 0 --ready-file /tmp/sandbox.json &
  $ split-sandbox wait --ready-file /tmp/sandbox.json
  $ split-sandbox wait --base-url http://127.0.0.1:8080 --timeout 30s`,
    )
    .action((opts: WaitOptions) => waitForHealth(opts));
}

async function waitForHealth(opts: WaitOptions): Promise<void> {
  const deadline = Date.now() + opts.timeout;
  let client = new SandboxClient(opts.baseUrl);
  let last = 'nothing tried';
  for (;;) {
    if (opts.readyFile !== undefined) {
      // Read again on every try: a file left by an earlier sandbox is replaced when the new one is up.
      const at = readyAddress(opts.readyFile);
      if (typeof at !== 'string') {
        if (Date.now() + POLL_MS >= deadline) {
          throw new CliError(`${at.stale ? 'no running sandbox' : 'no ready file'} within ${opts.timeout / 1000} s; last: ${at.missing}`);
        }
        await sleep(POLL_MS);
        continue;
      }
      client = new SandboxClient(at);
    }
    try {
      const a = await client.call<{ Status?: unknown }>('GET', '/_sandbox/health', undefined, {}, Math.max(POLL_MS, Math.min(TRY_MS, deadline - Date.now())));
      if (a.status === 200 && a.body?.Status === 'ok') {
        process.stdout.write(`split-sandbox at ${client.base} is healthy\n`);
        return;
      }
      last =
        a.status === 200
          ? `the server at ${client.base} answers, but is not a split-sandbox`
          : `GET /_sandbox/health answered ${a.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() + POLL_MS >= deadline) {
      throw new CliError(`no healthy sandbox at ${client.base} within ${opts.timeout / 1000} s; last: ${last}`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * The address a ready file says the sandbox is bound to (where this machine reaches it, even when its
 * public address names another), or why there is none yet: a file whose PID is no longer running was
 * left by a sandbox that was killed, and says so rather than leave "connection refused" to explain it.
 */
function readyAddress(path: string): string | { missing: string; stale?: boolean } {
  const ready = readReadyFile(path);
  if ('missing' in ready) return ready;
  if (ready.PID > 0 && !isRunning(ready.PID)) {
    return { stale: true, missing: `${path} names PID ${ready.PID}, which is not running: the sandbox that wrote it has ended (killed, or stopped without removing its file)` };
  }
  return ready.ListeningBaseURL;
}
