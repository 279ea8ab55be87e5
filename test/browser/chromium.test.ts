// Which Chromium a run starts, and the run’s one Chromium (chromium-server.cjs) as it was started: playwright's switches, and the
// features chromium-features.sh turns off added to playwright's rather than put in their place.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { RUN_FOLDER } from '../setup/run-folder';
import { HAVE_CHROMIUM, connect } from './browser';
import { chromiumPath } from './chromium-start';

const maybe = HAVE_CHROMIUM && process.platform === 'linux' ? describe : describe.skip;

/** The command line of the run's Chromium, read from /proc: the child of the run's server that playwright drives. */
function chromiumArguments(): string[] {
  const { pid } = JSON.parse(readFileSync(join(process.env[RUN_FOLDER]!, 'chromium.json'), 'utf8')) as { pid: number };
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ');
  const lines = children.map((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0'));
  const found = lines.filter((args) => args.includes('--remote-debugging-pipe'));
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('which Chromium a run starts', () => {
  const installed = (...paths: string[]) => (path: string) => paths.includes(path);

  it('the headless shell when it is installed, else the browser, and CHROMIUM_PATH over both', () => {
    expect(chromiumPath({}, installed('/usr/bin/chromium', '/usr/bin/chromium-headless-shell'))).toBe('/usr/bin/chromium-headless-shell');
    expect(chromiumPath({}, installed('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chromium/chrome' }, installed('/usr/bin/chromium', '/usr/bin/chromium-headless-shell'))).toBe('/opt/chromium/chrome');
    // Neither: the browser's path, which the browser tests find missing and skip.
    expect(chromiumPath({}, installed())).toBe('/usr/bin/chromium');
  });
});

maybe('the run’s Chromium', () => {
  let browser: Browser;
  beforeAll(async () => (browser = await connect()), 60_000);
  afterAll(async () => browser?.close());

  it('has RenderDocument off, and every feature playwright turns off still off', () => {
    expect(browser.isConnected()).toBe(true);
    const args = chromiumArguments();
    // Chromium reads only the last of these switches.
    const disabled = args.filter((a) => a.startsWith('--disable-features=')).at(-1)!.slice('--disable-features='.length).split(',');
    expect(disabled).toContain('RenderDocument');
    // Some of playwright's own: HTTP kept HTTP, paints not held back.
    expect(disabled).toEqual(expect.arrayContaining(['HttpsUpgrades', 'PaintHolding', 'MediaRouter']));
    expect(args).toEqual(expect.arrayContaining(['--headless', '--disable-gpu', '--no-sandbox']));
  });
});
