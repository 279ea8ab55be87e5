// `split-sandbox start`: runs the sandbox until Ctrl-C or SIGTERM.
import { type Command } from 'commander';
import { DEFAULT_CONFIG, type Config } from '../config';
import { startSandbox } from '../main';
import { MAX_PAGE_SIZE } from '../services/list.service';
import { clockMode, collect, duration, httpUrl, port, positiveInt, startTime } from './options';

interface StartOptions {
  port: number;
  cardPort: number;
  host: string;
  db: string;
  fixtures: string;
  pageSize: number;
  cancelOpen: boolean;
  scenario?: string;
  scenarios: string[];
  clock: 'real' | 'manual';
  startTime?: number;
  seed?: number;
  notifyUrl?: string;
  notifyTimeout: number;
  notifyRetries: number;
  notifyBackoff: number;
  quiet?: boolean;
}

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('start the sandbox: the API and the card API, over a SQLite file')
    .option('--port <n>', 'API port (0 picks a free one)', port, DEFAULT_CONFIG.port)
    .option('--card-port <n>', 'card API port (0 picks a free one)', port, DEFAULT_CONFIG.cardPort)
    .option('--host <address>', 'address to listen on', DEFAULT_CONFIG.host)
    .option('--db <file>', "SQLite file (':memory:' keeps nothing)", DEFAULT_CONFIG.db)
    .option('--fixtures <dir>', 'folder with merchants.json and methods.json, loaded into an empty database', DEFAULT_CONFIG.fixtures)
    .option('--page-size <n>', 'list page size when a request names none', positiveInt(MAX_PAGE_SIZE), DEFAULT_CONFIG.pageSize)
    .option('--no-cancel-open', 'let merchants cancel only Authorized payments, not Open ones')
    .option('--scenario <name>', 'scenario of payments that no header, magic amount or merchant default chooses')
    .option('--scenarios <dir>', 'a folder of your own scenario files (repeatable)', collect, [])
    .option('--clock <mode>', "'real', or 'manual': time moves only by POST /_sandbox/clock/advance", clockMode, DEFAULT_CONFIG.clock)
    .option('--start-time <time>', 'manual clock start, yyyyMMddHHmmss (UTC) or ISO 8601', startTime)
    .option('--seed <n>', 'seed for tokens and InvalidRequestIDs, for reproducible runs', positiveInt(2 ** 31))
    .option('--notify-url <url>', 'notification URL of merchants that have none', httpUrl)
    .option('--notify-timeout <duration>', 'how long a notification waits for its 204', duration, DEFAULT_CONFIG.notifyTimeoutMs)
    .option('--notify-retries <n>', 'attempts per notification before it is given up', positiveInt(1000), DEFAULT_CONFIG.retry.maxAttempts)
    .option('--notify-backoff <duration>', 'first retry delay; it doubles after each failure, up to 60 s', duration, DEFAULT_CONFIG.retry.baseMs)
    .option('--quiet', 'no log lines')
    .addHelpText(
      'after',
      `
Examples:
  $ split-sandbox start
  $ split-sandbox start --port 0 --card-port 0 --db :memory:
  $ split-sandbox start --scenario two-step --notify-url http://127.0.0.1:9999/hook
  $ split-sandbox start --clock manual --start-time 20260101000000 --seed 42`,
    )
    .action(async (opts: StartOptions) => {
      const config: Partial<Config> = {
        port: opts.port,
        cardPort: opts.cardPort,
        host: opts.host,
        db: opts.db,
        fixtures: opts.fixtures,
        pageSize: opts.pageSize,
        cancelOpen: opts.cancelOpen,
        scenarioDirs: opts.scenarios,
        clock: opts.clock,
        notifyTimeoutMs: opts.notifyTimeout,
        retry: { ...DEFAULT_CONFIG.retry, maxAttempts: opts.notifyRetries, baseMs: opts.notifyBackoff },
        quiet: opts.quiet ?? false,
      };
      if (opts.scenario !== undefined) config.scenario = opts.scenario;
      if (opts.startTime !== undefined) config.startTime = opts.startTime;
      if (opts.seed !== undefined) config.seed = opts.seed;
      if (opts.notifyUrl !== undefined) config.notifyUrl = opts.notifyUrl;
      const sandbox = await startSandbox(config).catch((e: Error & { code?: string }) => {
        const why =
          e.code === 'EADDRINUSE'
            ? `${e.message}: the port is taken; choose another with --port/--card-port (0 picks a free one)`
            : e.message;
        process.stderr.write(`split-sandbox: ${why}\n`);
        process.exit(1);
      });
      process.stdout.write(`API  ${sandbox.baseUrl}\nCard ${sandbox.cardBaseUrl}\n`);
      const stop = () => {
        void sandbox.stop().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
