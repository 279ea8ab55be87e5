// The commander program: one file per command.
import { Command } from 'commander';
import { registerOpenApi } from './openapi.command';
import { registerReset } from './reset.command';
import { registerScenarios } from './scenarios.command';
import { registerTrigger } from './trigger.command';
import { registerStart } from './start.command';

export function buildProgram(): Command {
  const program = new Command('split-sandbox')
    .description('A stateful sandbox of the marketplace split-payments REST API')
    .version(require('../../package.json').version as string);
  registerStart(program);
  registerScenarios(program);
  registerOpenApi(program);
  registerReset(program);
  registerTrigger(program);
  return program;
}

export async function run(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
