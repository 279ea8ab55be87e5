// `split-sandbox reset`: empties a sandbox database file and loads the fixtures again.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { readFixtures } from '../fixtures';
import { createIds } from '../ids';
import { RealClock } from '../scheduler/clock';
import { resetSandbox } from '../services/reset.service';
import { runningMarkHeld } from '../store/running-mark';
import { Store } from '../store/store';

export function registerReset(program: Command): void {
  program
    .command('reset')
    .description('empty a sandbox database file and load the fixtures again (refused while a sandbox runs on it: stop it first, or POST /_sandbox/reset)')
    .option('--db <file>', 'the SQLite file', DEFAULT_CONFIG.db)
    .option('--fixtures <dir>', 'folder with merchants.json and methods.json', DEFAULT_CONFIG.fixtures)
    .addHelpText('after', '\nExamples:\n  $ split-sandbox reset\n  $ split-sandbox reset --db ./ci.db --fixtures ./my-fixtures')
    .action((opts: { db: string; fixtures: string }) => {
      if (opts.db === ':memory:' || !existsSync(opts.db)) {
        process.stderr.write(`split-sandbox: no database file ${opts.db} to reset\n`);
        process.exit(1);
      }
      if (runningMarkHeld(opts.db)) {
        process.stderr.write(
          `split-sandbox: a running sandbox holds ${opts.db}; stop it first (split-sandbox stop --ready-file <file> or --base-url <url>), or reset it while it runs with POST /_sandbox/reset\n`,
        );
        process.exit(1);
      }
      let store: Store | undefined;
      try {
        store = Store.open(opts.db);
        const fixtures = readFixtures(opts.fixtures);
        resetSandbox({ store, clock: new RealClock(), ids: createIds(), settings: { cancelOpen: true, pageSize: 10 } }, fixtures);
        process.stdout.write(`reset ${opts.db}: ${fixtures.merchants.length} merchants, ${fixtures.methods.length} methods loaded\n`);
      } catch (e) {
        process.stderr.write(`split-sandbox: ${(e as Error).message}\n`);
        process.exitCode = 1;
      } finally {
        store?.close();
      }
    });
}
