// Headless Chromium (Debian's, chromium-start.ts says which) driven by playwright-core, for the pages people use:
// one Chromium for the whole jest run (chromium-server.cjs), each test file connected to it with its
// own contexts and pages.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { RUN_FOLDER, RUN_PID } from '../setup/run-folder';
import { startChromium } from './chromium-start';

export { CHROMIUM, HAVE_CHROMIUM } from './chromium-start';

/**
 * The run's Chromium, started with the run (chromium-start.ts) or else by the first file that needs it.
 * Closing what this returns closes the file's contexts and its connection; the Chromium itself stops
 * with the run (test/setup/run-folder.ts).
 */
export async function connect(): Promise<Browser> {
  const folder = process.env[RUN_FOLDER];
  const jestPid = process.env[RUN_PID];
  if (!folder || !jestPid || !existsSync(folder)) throw new Error(`no run folder (${RUN_FOLDER}): jest's globalSetup (test/setup/validators.ts) makes it`);
  const endpoint = join(folder, 'chromium.json');
  const failed = join(folder, 'chromium.error');
  // Unless the run started it, the first file to get here starts it; the others wait for its endpoint.
  startChromium(folder, jestPid);
  for (const deadline = Date.now() + 60_000; !existsSync(endpoint); ) {
    if (existsSync(failed)) throw new Error(`Chromium did not start: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error('Chromium did not start within 60 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  const { wsEndpoint } = JSON.parse(readFileSync(endpoint, 'utf8')) as { wsEndpoint: string };
  return chromium.connect(wsEndpoint);
}

/** Screenshots for the README are written to docs/ when UPDATE_SCREENSHOTS=1. */
export const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
