// Starting the run's one Chromium (chromium-server.cjs), by jest's globalSetup when the run holds a
// browser test file, or else by the first such file to connect (browser.ts); without playwright, so
// that a run with no browser test loads none of it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Chromium's headless shell when it is installed (Debian's chromium-headless-shell, what playwright
 * itself runs headless): the same Blink, V8 and Skia laying out, drawing and running the pages, without
 * the browser's own window, tabs and toolbar drawn around them, which were three quarters of what a
 * page cost Chromium. Else the browser itself; CHROMIUM_PATH names another.
 */
export function chromiumPath(env: NodeJS.ProcessEnv, exists: (path: string) => boolean): string {
  return env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find(exists) ?? '/usr/bin/chromium';
}

export const CHROMIUM = chromiumPath(process.env, existsSync);
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** Set by the sequencer (test/setup/slow-first.cjs) when a test file of test/browser/ is in the run. */
export const RUN_HAS_BROWSER_FILES = 'SPLIT_SANDBOX_TEST_RUN_BROWSER';

/** Starts the run's Chromium unless it is started already; its endpoint appears in `<folder>/chromium.json`. */
export function startChromium(folder: string, jestPid: string): void {
  if (existsSync(join(folder, 'chromium.json')) || !claim(join(folder, 'chromium.lock'))) return;
  const server = spawn(process.execPath, [join(__dirname, 'chromium-server.cjs'), folder, jestPid, CHROMIUM], { detached: true, stdio: 'ignore' });
  server.unref();
  writeFileSync(join(folder, 'chromium.pid'), String(server.pid));
}

function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    return false;
  }
}
