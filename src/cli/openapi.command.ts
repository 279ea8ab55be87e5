// `split-sandbox openapi`: prints the OpenAPI 3.1 document of one address.
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { openApiDocument } from '../openapi/document';
import { httpUrl } from './options';

export function registerOpenApi(program: Command): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the API (or of the card API)')
    .option(
      '--surface <name>',
      'api or card',
      (v: string) => {
        if (v !== 'api' && v !== 'card') throw new InvalidArgumentError('expected api or card');
        return v;
      },
      'api',
    )
    .option('--base-url <url>', 'server URL written into the document', httpUrl)
    .addHelpText('after', '\nExamples:\n  $ split-sandbox openapi > openapi.json\n  $ split-sandbox openapi --surface card')
    .action((opts: { surface: 'api' | 'card'; baseUrl?: string }) => {
      const port = opts.surface === 'api' ? DEFAULT_CONFIG.port : DEFAULT_CONFIG.cardPort;
      const url = opts.baseUrl ?? `http://${DEFAULT_CONFIG.host}:${port}`;
      process.stdout.write(JSON.stringify(openApiDocument(opts.surface, url), null, 2) + '\n');
    });
}
