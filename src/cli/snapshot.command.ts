// `split-sandbox snapshot save|restore|list|rm`: named copies of a running sandbox's whole state, or
// with a marketplace's credentials of that marketplace alone (its data and its clock).
import type { Command } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { type ClientOptions, type SandboxClient, clientOf, controlTokenOption, withSiteCredentials } from './client';
import { httpUrl } from './options';

interface SnapshotInfo {
  Name: string;
  Created: string | null;
  Payments: number;
}

const when = (stamp: string | null) =>
  stamp === null ? 'no sandbox time' : `sandbox time ${stamp.replace(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3 $4:$5:$6')}`;
const describe = (s: SnapshotInfo) => `${s.Payments} payment${s.Payments === 1 ? '' : 's'}, ${when(s.Created)}`;

export function registerSnapshot(program: Command): void {
  const snapshot = program
    .command('snapshot')
    .description(
      "save, restore, list or remove named snapshots of a running sandbox (every payment, step, notification, setting and the clock); with --site-id and --api-key, a marketplace's own (its data and its clock alone)",
    )
    .addHelpText(
      'after',
      `
Examples:
  $ split-sandbox snapshot save before-refund
  $ split-sandbox snapshot restore before-refund
  $ split-sandbox snapshot list --base-url http://127.0.0.1:9090
  $ split-sandbox snapshot rm before-refund
  $ split-sandbox snapshot save before-refund --site-id 30201 --api-key "$API_KEY"   (that marketplace's own)`,
    );

  const withClient = (cmd: Command) =>
    withSiteCredentials(cmd.option('--base-url <url>', 'the running sandbox', httpUrl, `http://${DEFAULT_CONFIG.host}:${DEFAULT_CONFIG.port}`).addOption(controlTokenOption()));
  const client = clientOf;
  /** The snapshots the client reaches: the sandbox's, or the marketplace's own. */
  const snapshots = (c: SandboxClient) => (c.site ? `/_sandbox/merchants/${c.site.siteId}/snapshots` : '/_sandbox/snapshots');
  const whose = (c: SandboxClient) => (c.site ? ` of SiteID ${c.site.siteId}` : '');
  const say = (line: string): void => void process.stdout.write(line + '\n');

  withClient(snapshot.command('save'))
    .argument('<name>', "1 to 64 letters, digits, '.', '_' or '-'")
    .description('copy the whole sandbox under a name (a snapshot of that name is replaced)')
    .addHelpText('after', '\nExamples:\n  $ split-sandbox snapshot save checkout-ready\n  $ split-sandbox snapshot save ci-1 --base-url http://127.0.0.1:9090 --control-token s3cret')
    .action(async (name: string, o: ClientOptions) => {
      const c = client(o);
      const { Snapshot } = await c.control<{ Snapshot: SnapshotInfo }>('POST', snapshots(c), { Name: name });
      say(`snapshot ${Snapshot.Name}${whose(c)} saved: ${describe(Snapshot)}`);
    });

  withClient(snapshot.command('restore'))
    .argument('<name>', 'a saved snapshot')
    .description('bring the sandbox back to a snapshot: its data, its pending steps and notifications, its clock')
    .addHelpText('after', '\nExamples:\n  $ split-sandbox snapshot restore checkout-ready')
    .action(async (name: string, o: ClientOptions) => {
      const c = client(o);
      const { Snapshot } = await c.control<{ Snapshot: SnapshotInfo }>('POST', `${snapshots(c)}/${encodeURIComponent(name)}/restore`);
      say(`snapshot ${Snapshot.Name}${whose(c)} restored: ${describe(Snapshot)}`);
    });

  withClient(snapshot.command('list'))
    .description('list the saved snapshots, oldest sandbox time first')
    .addHelpText('after', '\nExamples:\n  $ split-sandbox snapshot list')
    .action(async (o: ClientOptions) => {
      const c = client(o);
      const { Snapshots } = await c.control<{ Snapshots: SnapshotInfo[] }>('GET', snapshots(c));
      if (Snapshots.length === 0) return say('no snapshots');
      const width = Math.max(...Snapshots.map((s) => s.Name.length));
      for (const s of Snapshots) say(`${s.Name.padEnd(width)}  ${describe(s)}`);
    });

  withClient(snapshot.command('rm'))
    .argument('<name>', 'a saved snapshot')
    .description('remove a snapshot')
    .addHelpText('after', '\nExamples:\n  $ split-sandbox snapshot rm checkout-ready')
    .action(async (name: string, o: ClientOptions) => {
      const c = client(o);
      await c.control('DELETE', `${snapshots(c)}/${encodeURIComponent(name)}`);
      say(`snapshot ${name}${whose(c)} removed`);
    });
}
