// The commander program: one file per command. Failures end as one line on stderr, never a stack trace.
import { Command, CommanderError } from 'commander';
import { CliError } from './client';

type Register = (program: Command) => void;

/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * Each command's module, loaded when the program is built with it: a start evaluates its own alone,
 * not the modules of the others (the drift proxy, the OpenAPI document, the clients of the control API).
 */
const COMMANDS: Record<string, () => Register> = {
  start: () => (require('./start.command') as typeof import('./start.command')).registerStart,
  scenarios: () => (require('./scenarios.command') as typeof import('./scenarios.command')).registerScenarios,
  openapi: () => (require('./openapi.command') as typeof import('./openapi.command')).registerOpenApi,
  reset: () => (require('./reset.command') as typeof import('./reset.command')).registerReset,
  trigger: () => (require('./trigger.command') as typeof import('./trigger.command')).registerTrigger,
  snapshot: () => (require('./snapshot.command') as typeof import('./snapshot.command')).registerSnapshot,
  story: () => (require('./story.command') as typeof import('./story.command')).registerStory,
  replay: () => (require('./replay.command') as typeof import('./replay.command')).registerReplay,
  wait: () => (require('./wait.command') as typeof import('./wait.command')).registerWait,
  stop: () => (require('./stop.command') as typeof import('./stop.command')).registerStop,
  drift: () => (require('./drift.command') as typeof import('./drift.command')).registerDrift,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The program with every command, or, given the command line of one of them, with that one alone:
 * what it parses, answers and refuses is the same, as a command's help and errors are its own.
 */
export function buildProgram(argv?: readonly string[]): Command {
  const program = new Command('split-sandbox')
    .description('A stateful sandbox of the marketplace split-payments REST API')
    .version(require('../../package.json').version as string);
  const named = argv?.[2];
  const names = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  for (const name of names) COMMANDS[name]!()(program);
  return program;
}

/** Output piped into a reader that stopped reading (`split-sandbox openapi | head`) is not an error. */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}

export async function run(argv: string[]): Promise<void> {
  quietOnClosedPipe();
  try {
    await buildProgram(argv).parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) throw e;
    const message = e instanceof CliError ? e.message : `${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`split-sandbox: ${message}\n`);
    process.exitCode = 1;
  }
}
