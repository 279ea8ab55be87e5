// `split-sandbox drift`: a proxy in front of the real service with a shadow sandbox beside it, and
// `drift report`, which reads the report file a run wrote (for people and CI).
//
// Structure: registerDrift makes the `drift` command and its `report` subcommand. The proxy's own
// options (--upstream, --upstream-card, --port, --card-port, --merchants, --notify-to, --out…) and
// its action are added to the `drift` command in `configureDriftProxy` below; `report` stays a
// subcommand with its own options.
import { type Command, Option } from 'commander';
import { createLogger, silentLogger } from '../log';
import { CliError } from './client';
import { controlToken, httpUrl, port } from './options';
import { removeReadyFile, writeReadyFile } from './ready-file';
// The drift proxy and its report are loaded when the command runs: a `start` does not evaluate them
// (nor node:https, which the proxy's upstream requests load).
const proxy = () => import('../drift/proxy');
const reading = async () => ({ ...(await import('../drift/report-file')), ...(await import('../drift/print')) });

/** Exit codes of `drift report`: a kind asked for is present; the file or the kinds cannot be read. */
export const REPORT_FAILED = 1;
export const REPORT_UNREADABLE = 2;

export function registerDrift(program: Command): Command {
  const drift = program.command('drift').description('compare the sandbox with the real service, call by call, for your own integration');
  configureDriftProxy(drift);
  drift
    .command('report')
    .description('print the differences of a drift report file; exit 1 when one of the --fail-on kinds is present')
    .requiredOption('--in <file>', 'the report file (`drift --out <file>` writes it)')
    .option('--fail-on <kinds>', 'a comma list of kinds, or "any": exit 1 when one of them is present (http-status for "http status": no quotes needed)')
    .addHelpText(
      'after',
      `
Kinds: http status, status, reason, missing field, extra field, null, type, value, notification,
notification order, status path. A kind of two words may be written with a hyphen instead of the
space (http-status,missing-field), which needs no quotes in a shell.

Exit codes: 0 none of the kinds present, 1 one of them present, 2 the file or the kinds cannot be read.

Examples:
  $ split-sandbox drift report --in drift.json
  $ split-sandbox drift report --in drift.json --fail-on any
  $ split-sandbox drift report --in drift.json --fail-on "http status,status,reason,missing field,type"
  $ split-sandbox drift report --in drift.json --fail-on http-status,status,reason,missing-field,type`,
    )
    .action((o: { in: string; failOn?: string }) => report(o));
  return drift;
}

interface ProxyOptions {
  upstream?: string;
  upstreamCard?: string;
  port: number;
  cardPort: number;
  host: string;
  merchants?: string;
  notifyTo?: string;
  out?: string;
  stories?: string;
  controlToken?: string;
  readyFile?: string;
  logFormat: 'pretty' | 'json';
  quiet?: boolean;
}

/** The proxy's options and action, on the `drift` command itself. */
function configureDriftProxy(drift: Command): void {
  drift
    .option('--upstream <url>', "the real service's API address (its test host), e.g. https://paytest.example/api", httpUrl)
    .option('--upstream-card <url>', "the real service's card API address", httpUrl)
    .option('--port <n>', 'API port of the proxy: your integration calls it (0 picks a free one)', port, 8080)
    .option('--card-port <n>', 'card API port of the proxy (0 picks a free one)', port, 8081)
    .option('--host <address>', 'address to listen on (the notification hook must be reachable by the real service)', '127.0.0.1')
    .option('--merchants <file>', "a merchants fixture file ({\"Merchants\": [...]}) with your real account's SiteID, APIKey and linked sites, for the shadow sandbox")
    .option('--notify-to <url>', "your integration's notification URL: each real notification is relayed there unchanged", httpUrl)
    .option('--out <file>', 'keep the report in this file as the run goes (read it with `drift report`)')
    .option('--stories <dir>', 'when the proxy stops, write the story of each payment that differed there, drift-<payment ID>.json (replay it with `split-sandbox replay`)')
    .option('--control-token <token>', 'require Authorization: Bearer <token> on GET /_sandbox/drift and the Drift page (without it: this machine only)', controlToken)
    .option('--ready-file <path>', 'once both listeners are up, write {"BaseURL","CardBaseURL","ListeningBaseURL","ListeningCardBaseURL","PID"} there (removed on stop)')
    .addOption(new Option('--log-format <format>', 'pretty or json (one JSON object per line)').choices(['pretty', 'json']).default('pretty'))
    .option('--quiet', 'no log lines (the API and Card lines still print)')
    .addHelpText(
      'after',
      `
Each call goes to --upstream (--upstream-card) with its own credentials and the real answer comes
back unchanged; the same call runs on an in-memory shadow sandbox beside it, and their differences
are listed at GET /_sandbox/drift, on the Drift page (/_sandbox/dashboard/drift) and in --out.
Point the real account's notification URL at <proxy>/_drift/notify.

Examples:
  $ split-sandbox drift --upstream https://paytest.example/api --upstream-card https://securetest.example \\
      --merchants my-account.json --notify-to http://127.0.0.1:3000/payments/notify --out drift.json
  $ split-sandbox drift report --in drift.json --fail-on any`,
    )
    .action(async (o: ProxyOptions) => {
      if (o.upstream === undefined || o.upstreamCard === undefined) {
        throw new CliError('drift needs --upstream and --upstream-card (or a subcommand: drift report)');
      }
      const log = o.quiet ? silentLogger : createLogger('info', o.logFormat);
      const { startDrift } = await proxy();
      const running = await startDrift({
        upstream: o.upstream,
        upstreamCard: o.upstreamCard,
        port: o.port,
        cardPort: o.cardPort,
        host: o.host,
        merchants: o.merchants,
        notifyTo: o.notifyTo,
        out: o.out,
        stories: o.stories,
        controlToken: o.controlToken,
        log,
      }).catch((e: Error & { code?: string }) => {
        throw new CliError(e.code === 'EADDRINUSE' ? `${e.message}: the port is taken; choose another with --port/--card-port (0 picks a free one)` : e.message);
      });
      process.stdout.write(`API  ${running.apiUrl}\nCard ${running.cardUrl}\nListening on ${running.apiUrl} (API) and ${running.cardUrl} (card API)\nHook ${running.apiUrl}/_drift/notify\n`);
      if (o.readyFile !== undefined) {
        writeReadyFile(o.readyFile, { BaseURL: running.apiUrl, CardBaseURL: running.cardUrl, ListeningBaseURL: running.apiUrl, ListeningCardBaseURL: running.cardUrl, PID: process.pid });
      }
      const stop = () => {
        if (o.readyFile !== undefined) removeReadyFile(o.readyFile);
        void running.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

async function report(o: { in: string; failOn?: string }): Promise<void> {
  const { describeDifferences, parseKinds, readReportFile } = await reading();
  let kinds: ReadonlySet<string> | null = null;
  let diffs;
  try {
    if (o.failOn !== undefined) kinds = parseKinds(o.failOn);
    diffs = readReportFile(o.in);
  } catch (e) {
    process.stderr.write(`split-sandbox: ${(e as Error).message}\n`);
    process.exitCode = REPORT_UNREADABLE;
    return;
  }
  process.stdout.write(describeDifferences(diffs));
  if (kinds === null) return;
  const failing = diffs.filter((d) => kinds.has(d.Kind));
  if (failing.length > 0) {
    process.stdout.write(`Failing: ${failing.length} difference${failing.length === 1 ? '' : 's'} of the kinds asked for (${[...new Set(failing.map((d) => d.Kind))].join(', ')}).\n`);
    process.exitCode = REPORT_FAILED;
  }
}
