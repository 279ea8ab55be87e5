// `split-sandbox story <paymentId>`: writes what happened to a payment as a story file, to attach to a
// bug report and replay elsewhere.
import { writeFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { type ClientOptions, clientOf, controlTokenOption, withSiteCredentials } from './client';
import { httpUrl } from './options';
import { span, storyFileName } from './story-file';

export function registerStory(program: Command): void {
  const command = program
    .command('story')
    .argument('<paymentId>', 'the payment', (v: string) => {
      if (!/^[0-9]{1,16}$/.test(v)) throw new InvalidArgumentError('expected a payment ID');
      return v;
    })
    .description('write the story of a payment (what happened to it, as a scenario file with its create request) to a file')
    .option('--out <file>', 'where to write it ("-" for standard output)', undefined)
    .option('--base-url <url>', 'the running sandbox', httpUrl, `http://${DEFAULT_CONFIG.host}:${DEFAULT_CONFIG.port}`)
    .addOption(controlTokenOption());
  withSiteCredentials(command)
    .addHelpText(
      'after',
      '\nExamples:\n  $ split-sandbox story 3005042                 (writes story-3005042.json)\n  $ split-sandbox story 3005042 --out - | less\n  $ split-sandbox story 3005042 --site-id 30201 --api-key "$API_KEY"   (a payment of that marketplace)',
    )
    .action(async (id: string, o: ClientOptions & { out?: string }) => {
      const client = clientOf(o);
      const path = client.site ? `/_sandbox/merchants/${client.site.siteId}/payments/${id}/story` : `/_sandbox/payments/${id}/story`;
      const story = await client.control<{ Name: string; Steps: unknown[] }>('GET', path);
      const text = JSON.stringify(story, null, 2) + '\n';
      if (o.out === '-') return void process.stdout.write(text);
      const file = o.out ?? storyFileName(story.Name, id);
      writeFileSync(file, text);
      process.stdout.write(`${file}: the story of payment ${id}, ${span(story)}\n`);
    });
}
