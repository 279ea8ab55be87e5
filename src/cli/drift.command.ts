// `split-sandbox drift`: a proxy in front of the real service with a shadow sandbox beside it, and
// `drift report`, which reads the report file a run wrote (for people and CI).
//
// Structure: registerDrift makes the `drift` command and its `report` subcommand. The proxy's own
// options (--upstream, --upstream-card, --port, --card-port, --merchants, --notify-to, --out…) and
// its action are added to the `drift` command in `configureDriftProxy` below; `report` stays a
// subcommand with its own options.
import { type Command } from 'commander';
import { readReportFile } from '../drift/report-file';
import { describeDifferences, parseKinds } from '../drift/print';

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
    .option('--fail-on <kinds>', 'a comma list of kinds, or "any": exit 1 when one of them is present')
    .addHelpText(
      'after',
      `
Kinds: http status, status, reason, missing field, extra field, null, type, value, notification,
notification order, status path.

Exit codes: 0 none of the kinds present, 1 one of them present, 2 the file or the kinds cannot be read.

Examples:
  $ split-sandbox drift report --in drift.json
  $ split-sandbox drift report --in drift.json --fail-on any
  $ split-sandbox drift report --in drift.json --fail-on "http status,status,reason,missing field,type"`,
    )
    .action((o: { in: string; failOn?: string }) => report(o));
  return drift;
}

/** The proxy's options and action, on the `drift` command itself. */
function configureDriftProxy(_drift: Command): void {}

function report(o: { in: string; failOn?: string }): void {
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
