// The commander program: one file per command. Failures end as one line on stderr, never a stack trace.
import { Command, CommanderError } from 'commander';
import { CliError } from './client';
import { registerOpenApi } from './openapi.command';
import { registerReset } from './reset.command';
import { registerScenarios } from './scenarios.command';
import { registerTrigger } from './trigger.command';
import { registerStart } from './start.command';
import { registerSnapshot } from './snapshot.command';
import { registerReplay } from './replay.command';
import { registerStop } from './stop.command';
import { registerStory } from './story.command';
import { registerWait } from './wait.command';
import { registerDrift } from './drift.command';

export function buildProgram(): Command {
  const program = new Command('split-sandbox')
    .description('A stateful sandbox of the marketplace split-payments REST API')
    .version(require('../../package.json').version as string);
  registerStart(program);
  registerScenarios(program);
  registerOpenApi(program);
  registerReset(program);
  registerTrigger(program);
  registerSnapshot(program);
  registerStory(program);
  registerReplay(program);
  registerWait(program);
  registerStop(program);
  registerDrift(program);
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
    await buildProgram().parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) throw e;
    const message = e instanceof CliError ? e.message : `${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`split-sandbox: ${message}\n`);
    process.exitCode = 1;
  }
}
