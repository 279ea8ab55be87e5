// `split-sandbox start`: runs the sandbox until Ctrl-C or SIGTERM. Every option can also come from a
// SANDBOX_* environment variable or a JSON config file; the command line wins, then the environment,
// then the file, then the defaults.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { DEFAULT_CONFIG, type Config } from '../config';
import { LOG_LEVELS } from '../log';
import { startSandbox } from '../main';
import { MAX_PAGE_SIZE } from '../services/list.service';
import { byteSize, choice, clockMode, collect, controlToken, duration, httpUrl, networks, port, positiveInt, retention, seconds, speed, startTime, mebibytes, wholeNumber } from './options';
import { removeReadyFile, writeReadyFile } from './ready-file';

interface StartOptions {
  port: number;
  cardPort: number;
  host: string;
  db: string;
  fixtures: string;
  pageSize: number;
  cancelOpen: boolean;
  strictFields?: boolean;
  scenario?: string;
  scenarios: string[];
  clock: 'real' | 'manual';
  speed: number;
  startTime?: number;
  seed?: number;
  notifyUrl?: string;
  notifyTimeout: number;
  notifyRetries: number;
  notifyBackoff: number;
  publicUrl?: string;
  publicCardUrl?: string;
  controlToken?: string;
  controlFrom?: string[];
  retain?: number;
  requestJournal: number;
  requestJournalBytes: number;
  requestJournalUnauthenticated: number;
  requestJournalUnauthenticatedBytes: number;
  requestJournalFileBytes: number;
  merchantSnapshots: number;
  merchantSnapshotBytes: number;
  merchantFaultRules: number;
  readyFile?: string;
  logLevel: Config['logLevel'];
  logFormat: Config['logFormat'];
  quiet?: boolean;
  config?: string;
}

/**
 * Option, its parser and default; the environment variable is SANDBOX_ + the name in upper snake case.
 * `shown` is the default as the help and docs/configuration.md write it (30s, not 30000).
 */
function opt(flags: string, description: string, parse?: (v: string, prev: never) => unknown, fallback?: unknown, shown?: string): Option {
  const o = new Option(flags, description);
  const long = o.long!.replace(/^--(no-)?/, '');
  o.env(`SANDBOX_${long.toUpperCase().replace(/-/g, '_')}`);
  if (parse) o.argParser(parse as never);
  if (fallback !== undefined) o.default(fallback, shown);
  return o;
}


export function registerStart(program: Command): void {
  const cmd = program
    .command('start')
    .description('start the sandbox: the API and the card API, over a SQLite file')
    .addOption(opt('--port <n>', 'API port (0 picks a free one)', port, DEFAULT_CONFIG.port))
    .addOption(opt('--card-port <n>', 'card API port (0 picks a free one)', port, DEFAULT_CONFIG.cardPort))
    .addOption(opt('--host <address>', 'address to listen on', undefined, DEFAULT_CONFIG.host))
    .addOption(opt('--db <file>', "SQLite file (':memory:' keeps nothing)", undefined, DEFAULT_CONFIG.db))
    .addOption(opt('--fixtures <dir>', 'folder with merchants.json and methods.json, loaded into an empty database', undefined, DEFAULT_CONFIG.fixtures, "the package's fixtures/"))
    .addOption(opt('--page-size <n>', 'list page size when a request names none', positiveInt(MAX_PAGE_SIZE), DEFAULT_CONFIG.pageSize))
    .addOption(opt('--no-cancel-open', 'let merchants cancel only Authorized payments, not Open ones'))
    .addOption(opt('--strict-fields', 'refuse request fields the API does not read (400, Reason 2) instead of ignoring them and noting a near miss'))
    .addOption(opt('--scenario <name>', 'scenario of payments that no header, magic amount or merchant default chooses'))
    .addOption(opt('--scenarios <dir>', 'a folder of your own scenario files (repeatable)', collect, [], 'none'))
    .addOption(opt('--clock <mode>', "'real', or 'manual': time moves only by POST /_sandbox/clock/advance", clockMode, DEFAULT_CONFIG.clock))
    .addOption(opt('--speed <n>', 'real clock: sandbox time runs n times as fast (at 60, a step due after 2 s comes after 33 ms)', speed, DEFAULT_CONFIG.speed))
    .addOption(opt('--start-time <time>', 'manual clock start of a database without a sandbox time, yyyyMMddHHmmss (UTC) or ISO 8601 (default: now)', startTime))
    .addOption(opt('--seed <n>', 'seed for tokens and InvalidRequestIDs: the same requests give the same responses', positiveInt(2 ** 31)))
    .addOption(opt('--notify-url <url>', 'notification URL of merchants that have none', httpUrl))
    .addOption(opt('--notify-timeout <duration>', 'how long a notification waits for its 204', duration, DEFAULT_CONFIG.notifyTimeoutMs, seconds(DEFAULT_CONFIG.notifyTimeoutMs)))
    .addOption(opt('--notify-retries <n>', 'attempts per notification before it is given up', positiveInt(1000), DEFAULT_CONFIG.retry.maxAttempts))
    .addOption(opt('--notify-backoff <duration>', 'first retry delay; it doubles after each failure, up to 60 s', duration, DEFAULT_CONFIG.retry.baseMs, seconds(DEFAULT_CONFIG.retry.baseMs)))
    .addOption(opt('--public-url <url>', 'the API address as clients reach it (RedirectURL), behind a proxy or in a container (default: the address each request came in on)', httpUrl))
    .addOption(opt('--public-card-url <url>', 'the card API address as clients reach it (default: the address each request came in on)', httpUrl))
    .addOption(opt('--control-token <token>', 'require Authorization: Bearer <token> on the control API (without it: loopback only)', controlToken))
    .addOption(opt('--control-from <networks>', 'clients the control API answers without a token: loopback, private, any, none, addresses, CIDR ranges (comma-separated) (default: loopback; none with a token)', networks))
    .addOption(opt('--retain <duration>', 'delete payments unchanged for this long in sandbox time (e.g. 7d), with all that hangs off them', retention))
    .addOption(opt('--request-journal <n>', "requests the request journal (GET /_sandbox/requests) keeps of each marketplace, its own oldest dropped first; 0 keeps none", wholeNumber(100_000_000), DEFAULT_CONFIG.requestJournal))
    .addOption(opt('--request-journal-bytes <size>', "bytes of entries the journal keeps of each marketplace (e.g. 64MiB), its own oldest dropped first", byteSize(1), DEFAULT_CONFIG.requestJournalBytes, mebibytes(DEFAULT_CONFIG.requestJournalBytes)))
    .addOption(opt('--request-journal-unauthenticated <n>', 'requests the journal keeps whose credentials failed (they belong to no marketplace); 0 keeps none', wholeNumber(100_000_000), DEFAULT_CONFIG.requestJournalUnauthenticated))
    .addOption(opt('--request-journal-unauthenticated-bytes <size>', 'bytes of those entries it keeps', byteSize(0), DEFAULT_CONFIG.requestJournalUnauthenticatedBytes, mebibytes(DEFAULT_CONFIG.requestJournalUnauthenticatedBytes)))
    .addOption(opt('--request-journal-file-bytes <size>', 'bytes of entries it keeps in all, its file’s bound: past it, the owner holding the most gives way', byteSize(1), DEFAULT_CONFIG.requestJournalFileBytes, mebibytes(DEFAULT_CONFIG.requestJournalFileBytes)))
    .addOption(opt('--merchant-snapshots <n>', "each marketplace's quota of its own snapshots: how many it may keep", positiveInt(10_000), DEFAULT_CONFIG.merchantSnapshots))
    .addOption(
      opt('--merchant-snapshot-bytes <size>', "each marketplace's quota of its own snapshots: the bytes their files may hold together (e.g. 256MiB)", byteSize(1), DEFAULT_CONFIG.merchantSnapshotBytes, mebibytes(DEFAULT_CONFIG.merchantSnapshotBytes)),
    )
    .addOption(opt('--merchant-fault-rules <n>', "each marketplace's quota of fault rules it may have at once", positiveInt(100_000), DEFAULT_CONFIG.merchantFaultRules))
    .addOption(opt('--ready-file <path>', 'once both listeners are up, write {"BaseURL","CardBaseURL","ListeningBaseURL","ListeningCardBaseURL","PID"} there (removed on stop)'))
    .addOption(opt('--log-level <level>', LOG_LEVELS.join(', '), choice(LOG_LEVELS), DEFAULT_CONFIG.logLevel))
    .addOption(opt('--log-format <format>', 'pretty or json (one JSON object per line)', choice(['pretty', 'json'] as const), DEFAULT_CONFIG.logFormat))
    .addOption(opt('--quiet', 'no log lines (the API, Card and Listening on lines still print: scripts read them)'))
    .addOption(opt('--config <file>', 'a JSON file of option values, e.g. {"port": 9090, "scenario": "two-step"}'))
    .addHelpText(
      'after',
      `
Every option can also be set as an environment variable: SANDBOX_PORT, SANDBOX_SCENARIO,
SANDBOX_NOTIFY_URL, … (the command line wins, then the environment, then --config, then defaults).

Examples:
  $ split-sandbox start
  $ split-sandbox start --port 0 --card-port 0 --db :memory:
  $ split-sandbox start --scenario two-step --notify-url http://127.0.0.1:9999/hook
  $ split-sandbox start --clock manual --start-time 20260101000000 --seed 42
  $ split-sandbox start --clock real --speed 60
  $ split-sandbox start --port 0 --card-port 0 --public-url http://sandbox.test --public-card-url http://card.sandbox.test --seed 42 --clock manual --start-time 20260101000000
  $ SANDBOX_PORT=9090 split-sandbox start --config sandbox.json --log-format json
  $ split-sandbox start --host 0.0.0.0 --control-from private --retain 7d --ready-file /tmp/sandbox.json`,
    );
  cmd.hook('preAction', (command) => applyConfigFile(command));
  cmd.action(async (opts: StartOptions) => {
    const config: Partial<Config> = {
      port: opts.port,
      cardPort: opts.cardPort,
      host: opts.host,
      db: opts.db,
      fixtures: opts.fixtures,
      pageSize: opts.pageSize,
      cancelOpen: opts.cancelOpen,
      strictFields: opts.strictFields ?? false,
      scenarioDirs: opts.scenarios,
      clock: opts.clock,
      speed: opts.speed,
      notifyTimeoutMs: opts.notifyTimeout,
      retry: { ...DEFAULT_CONFIG.retry, maxAttempts: opts.notifyRetries, baseMs: opts.notifyBackoff },
      logLevel: opts.logLevel,
      logFormat: opts.logFormat,
      quiet: opts.quiet ?? false,
      requestJournal: opts.requestJournal,
      requestJournalBytes: opts.requestJournalBytes,
      requestJournalUnauthenticated: opts.requestJournalUnauthenticated,
      requestJournalUnauthenticatedBytes: opts.requestJournalUnauthenticatedBytes,
      requestJournalFileBytes: opts.requestJournalFileBytes,
      merchantSnapshots: opts.merchantSnapshots,
      merchantSnapshotBytes: opts.merchantSnapshotBytes,
      merchantFaultRules: opts.merchantFaultRules,
    };
    if (opts.scenario !== undefined) config.scenario = opts.scenario;
    if (opts.startTime !== undefined) config.startTime = opts.startTime;
    if (opts.seed !== undefined) config.seed = opts.seed;
    if (opts.notifyUrl !== undefined) config.notifyUrl = opts.notifyUrl;
    if (opts.publicUrl !== undefined) config.publicUrl = opts.publicUrl;
    if (opts.publicCardUrl !== undefined) config.publicCardUrl = opts.publicCardUrl;
    if (opts.controlToken !== undefined) config.controlToken = opts.controlToken;
    if (opts.controlFrom !== undefined) config.controlFrom = opts.controlFrom;
    if (opts.retain !== undefined) config.retainMs = opts.retain;
    if (!['127.0.0.1', 'localhost', '::1'].includes(opts.host)) {
      const open = (opts.controlFrom ?? []).filter((e) => !['loopback', 'none'].includes(e.toLowerCase()));
      process.stderr.write(
        open.length > 0
          ? `split-sandbox: listening on ${opts.host}, beyond loopback; the control API answers ${open.join(', ')} without a token\n`
          : opts.controlToken === undefined
            ? `split-sandbox: listening on ${opts.host}, beyond loopback; the control API answers only on this machine (--control-token or --control-from opens it to others)\n`
            : `split-sandbox: listening on ${opts.host}, beyond loopback; the control API needs its token\n`,
      );
    }
    // Before anything listens: a start that prints "Listening on" and then fails on its file misleads whoever reads the lines.
    if (opts.readyFile !== undefined) {
      const problem = readyFolderProblem(opts.readyFile);
      if (problem) {
        process.stderr.write(`split-sandbox: cannot write --ready-file ${opts.readyFile}: ${problem}\n`);
        process.exit(1);
      }
    }
    const sandbox = await startSandbox(config).catch((e: Error & { code?: string }) => {
      const why =
        e.code === 'EADDRINUSE'
          ? `${e.message}: the port is taken; choose another with --port/--card-port (0 picks a free one)`
          : e.message;
      process.stderr.write(`split-sandbox: ${why}\n`);
      process.exit(1);
    });
    // The addresses clients use first (tests and people parse these two lines), then where the
    // listeners are bound: with --public-url they differ, and with --port 0 only this line says the port.
    process.stdout.write(
      `API  ${sandbox.baseUrl}\nCard ${sandbox.cardBaseUrl}\nListening on ${sandbox.listening.baseUrl} (API) and ${sandbox.listening.cardBaseUrl} (card API)\n`,
    );
    // This process is the server's alone: its heap can be tuned for it.
    boundYoungGenerationAfterFirstAnswer();
    if (opts.readyFile !== undefined) readyFileOrExit(
        opts.readyFile,
        {
          BaseURL: sandbox.baseUrl,
          CardBaseURL: sandbox.cardBaseUrl,
          ListeningBaseURL: sandbox.listening.baseUrl,
          ListeningCardBaseURL: sandbox.listening.cardBaseUrl,
          PID: process.pid,
        },
        sandbox,
      );
    const stop = () => {
      if (opts.readyFile !== undefined) removeReadyFile(opts.readyFile);
      void sandbox.stop().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/**
 * Bounds the young generation (young-generation.ts) once the first request is answered: its module and
 * the built-ins it reads the heap with (node:v8, node:perf_hooks) load off the way to that answer, and
 * one request cannot grow the young generation past the bound.
 */
function boundYoungGenerationAfterFirstAnswer(): void {
  const first = (): void => {
    unsubscribe('http.server.request.start', first);
    // After the handler that answers it: an immediate runs once this turn's callbacks are done.
    setImmediate(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('./young-generation') as typeof import('./young-generation')).boundYoungGeneration();
    });
  };
  subscribe('http.server.request.start', first);
}

/** Why the ready file's folder cannot take it, if it cannot. */
function readyFolderProblem(path: string): string | undefined {
  const folder = dirname(resolve(path));
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  } catch {
    return `the folder ${folder} does not exist`;
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return `the folder ${folder} is not writable`;
  }
  return undefined;
}

/** A ready file that cannot be written is a failed start: whoever waits for it would wait forever. */
function readyFileOrExit(path: string, ready: Parameters<typeof writeReadyFile>[1], sandbox: { stop(): Promise<void> }): void {
  try {
    writeReadyFile(path, ready);
  } catch (e) {
    process.stderr.write(`split-sandbox: cannot write --ready-file ${path}: ${(e as Error).message}\n`);
    void sandbox.stop().then(() => process.exit(1));
  }
}

/** Fills the options still at their default from the --config file, through their own parsers. */
function applyConfigFile(command: Command): void {
  const file = command.getOptionValue('config') as string | undefined;
  if (!file) return;
  let values: Record<string, unknown>;
  try {
    values = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    command.error(`split-sandbox: cannot read --config ${file}: ${(e as Error).message}`);
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values)) command.error(`split-sandbox: --config ${file} must hold a JSON object`);
  for (const [key, value] of Object.entries(values)) {
    const option = command.options.find((o) => o.attributeName() === key);
    if (!option || key === 'config') command.error(`split-sandbox: --config ${file}: unknown option "${key}"`);
    const source = command.getOptionValueSource(key);
    if (source === 'cli' || source === 'env') continue;
    const list = Array.isArray(value) ? value : [value];
    let parsed: unknown = Array.isArray(value) ? [] : undefined;
    for (const v of list) {
      try {
        const flag = !option.required && !option.optional; // takes no value: true or false in the file
        parsed = flag ? v === true : option.parseArg ? option.parseArg(String(v), parsed as never) : String(v);
      } catch (e) {
        command.error(`split-sandbox: --config ${file}: ${key}: ${(e as Error).message}`);
      }
    }
    command.setOptionValueWithSource(key, parsed, 'config');
  }
}
