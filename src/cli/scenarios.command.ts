// `split-sandbox scenarios`: lists the scenarios payments can follow, one line each.
import type { Command } from 'commander';
import { SHIPPED_SCENARIOS_DIR, ScenarioCatalogue } from '../scenarios/loader';
import { collect } from './options';

export function registerScenarios(program: Command): void {
  program
    .command('scenarios')
    .description('list the shipped scenarios (and your own with --scenarios)')
    .option('--scenarios <dir>', 'a folder of your own scenario files (repeatable)', collect, [])
    .addHelpText('after', '\nExample:\n  $ split-sandbox scenarios --scenarios ./my-scenarios')
    .action((opts: { scenarios: string[] }) => {
      try {
        const cat = ScenarioCatalogue.load([SHIPPED_SCENARIOS_DIR, ...opts.scenarios]);
        const width = Math.max(...cat.list().map((s) => s.name.length));
        for (const s of cat.list()) process.stdout.write(`${s.name.padEnd(width)}  ${s.description}\n`);
      } catch (e) {
        process.stderr.write(`split-sandbox: ${(e as Error).message}\n`);
        process.exit(1);
      }
    });
}
