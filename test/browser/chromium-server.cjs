'use strict';
// One headless Chromium for a whole jest run, served over playwright's websocket; the test files
// connect to it (test/browser/browser.ts). Usage: node chromium-server.cjs <run folder> <jest's pid>
// <Chromium> (chromium-start.ts says which).
// It writes its endpoint to <run folder>/chromium.json and stops, with its Chromium, on SIGTERM (the
// run's globalTeardown, test/setup/run-folder.ts) or as soon as jest itself is gone (a run killed).
const { renameSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { chromium } = require('playwright-core');

const [folder, jestPid, CHROMIUM] = process.argv.slice(2);
// No network but loopback here: keep Chromium from reaching out on its own.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function main() {
  // Chromium itself, through chromium-features.sh: a few more of its features off (it says which and why).
  const server = await chromium.launchServer({
    executablePath: join(__dirname, 'chromium-features.sh'),
    env: { ...process.env, SPLIT_SANDBOX_CHROMIUM: CHROMIUM },
    args: ARGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  let stopping = false;
  const stop = (orphaned) => {
    if (stopping) return;
    stopping = true;
    server.close().finally(() => {
      // A run that ended without its globalTeardown leaves its folder to no one else.
      if (orphaned) rmSync(folder, { recursive: true, force: true });
      process.exit(0);
    });
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(false));
  setInterval(() => {
    try {
      process.kill(Number(jestPid), 0);
    } catch {
      stop(true);
    }
  }, 500);
  const file = join(folder, 'chromium.json');
  writeFileSync(`${file}.${process.pid}`, JSON.stringify({ wsEndpoint: server.wsEndpoint(), pid: process.pid }));
  renameSync(`${file}.${process.pid}`, file);
}

main().catch((e) => {
  writeFileSync(join(folder, 'chromium.error'), String(e && e.stack ? e.stack : e));
  process.exit(1);
});
