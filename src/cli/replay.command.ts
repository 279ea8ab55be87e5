// `split-sandbox replay <file>`: sends a story to a running sandbox, which creates a new payment and
// drives it through the same statuses, amounts and notifications.
import type { Command } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { CliError, SandboxClient, controlTokenOption } from './client';
import { httpUrl } from './options';
import { readStoryFile, span } from './story-file';

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .argument('<file>', 'a story file (GET /_sandbox/payments/{id}/story, or split-sandbox story <id>)')
    .description('replay a story on a running sandbox: a new payment goes through the same statuses, amounts and notifications')
    .option('--base-url <url>', 'the running sandbox', httpUrl, `http://${DEFAULT_CONFIG.host}:${DEFAULT_CONFIG.port}`)
    .addOption(controlTokenOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ split-sandbox replay story-3005042.json\n  $ split-sandbox replay ./bug-1234/story-3005042.json --base-url http://127.0.0.1:9090\n  $ split-sandbox trigger story-3005042.json   (replays it and prints each state as it happens)',
    )
    .action(async (file: string, o: { baseUrl: string; controlToken?: string }) => {
      const story = readStoryFile(file);
      if (story.Request === undefined) {
        throw new CliError(`${file} is a scenario file, not a story (it has no Request): run it with split-sandbox trigger ${file}`);
      }
      const api = new SandboxClient(o.baseUrl, o.controlToken);
      const { PaymentID } = await api.control<{ PaymentID: number }>('POST', '/_sandbox/replay', story);
      const from = typeof story.Story?.PaymentID === 'number' ? ` (the story of payment ${story.Story.PaymentID})` : '';
      process.stdout.write(`payment ${PaymentID} created from ${file}${from}: ${span(story)}\n`);
    });
}
