// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for the pages people use.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // No network but loopback here: keep Chromium from reaching out on its own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Screenshots for the README are written to docs/ when UPDATE_SCREENSHOTS=1. */
export const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
