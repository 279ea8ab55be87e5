// `split-sandbox wait`: exits 0 once the sandbox at --base-url answers healthy, and 1 with the last
// reason after --timeout. For scripts and CI steps that start a sandbox in the background.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { CliError, SandboxClient } from './client';
import { duration, httpUrl } from './options';

interface WaitOptions {
  baseUrl: string;
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
    .option('--timeout <duration>', 'give up after (30s, 2m; a bare number is milliseconds)', duration, 30_000)
    .addHelpText(
      'after',
      `
Examples:
  $ split-sandbox start --port 0 --ready-file /tmp/sandbox.json &
  $ split-sandbox wait --base-url http://127.0.0.1:8080 --timeout 30s
  $ split-sandbox wait --base-url "$(node -p 'require("/tmp/sandbox.json").BaseURL')"`,
    )
    .action((opts: WaitOptions) => waitForHealth(opts));
}

async function waitForHealth(opts: WaitOptions): Promise<void> {
  const client = new SandboxClient(opts.baseUrl);
  const deadline = Date.now() + opts.timeout;
  let last = 'nothing tried';
  for (;;) {
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
