// `split-sandbox start`: runs the sandbox until Ctrl-C or SIGTERM.
import { type Command } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { startSandbox } from '../main';
import { MAX_PAGE_SIZE } from '../services/list.service';
import { port, positiveInt } from './options';

interface StartOptions {
  port: number;
  cardPort: number;
  host: string;
  db: string;
  fixtures: string;
  pageSize: number;
  cancelOpen: boolean;
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
    .addHelpText(
      'after',
      `
Examples:
  $ split-sandbox start
  $ split-sandbox start --port 0 --card-port 0 --db :memory:
  $ split-sandbox start --db ./ci.db --page-size 50`,
    )
    .action(async (opts: StartOptions) => {
      const sandbox = await startSandbox({
        port: opts.port,
        cardPort: opts.cardPort,
        host: opts.host,
        db: opts.db,
        fixtures: opts.fixtures,
        pageSize: opts.pageSize,
        cancelOpen: opts.cancelOpen,
      }).catch((e: Error & { code?: string }) => {
        const why = e.code === 'EADDRINUSE' ? `${e.message}: the port is taken; choose another with --port/--card-port (0 picks a free one)` : e.message;
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
