// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for the pages people use:
// one Chromium for the whole jest run (chromium-server.cjs), each test file connected to it with its
// own contexts and pages.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { RUN_FOLDER, RUN_PID } from '../setup/run-folder';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/**
 * The run's Chromium, started by the first file that needs it. Closing what this returns closes the
 * file's contexts and its connection; the Chromium itself stops with the run (test/setup/run-folder.ts).
 */
export async function connect(): Promise<Browser> {
  const folder = process.env[RUN_FOLDER];
  const jestPid = process.env[RUN_PID];
  if (!folder || !jestPid || !existsSync(folder)) throw new Error(`no run folder (${RUN_FOLDER}): jest's globalSetup (test/setup/validators.ts) makes it`);
  const endpoint = join(folder, 'chromium.json');
  const failed = join(folder, 'chromium.error');
  // The first file to get here starts it; the others wait for its endpoint.
  if (!existsSync(endpoint) && claim(join(folder, 'chromium.lock'))) {
    const server = spawn(process.execPath, [join(__dirname, 'chromium-server.cjs'), folder, jestPid], { detached: true, stdio: 'ignore' });
    server.unref();
    writeFileSync(join(folder, 'chromium.pid'), String(server.pid));
  }
  for (const deadline = Date.now() + 60_000; !existsSync(endpoint); ) {
    if (existsSync(failed)) throw new Error(`Chromium did not start: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error('Chromium did not start within 60 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  const { wsEndpoint } = JSON.parse(readFileSync(endpoint, 'utf8')) as { wsEndpoint: string };
  return chromium.connect(wsEndpoint);
}

function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    return false;
  }
}

/** Screenshots for the README are written to docs/ when UPDATE_SCREENSHOTS=1. */
export const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
