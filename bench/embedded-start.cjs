'use strict';
// One embedded start, in a plain Node process: `node bench/embedded-start.cjs <root> <db>` loads the
// package's entry (dist/index.js under <root>), then times startSandbox() from its call to its resolved
// promise, and prints `EMBEDDED {"requireMs":…,"startMs":…}` before it stops the sandbox.
const path = require('node:path');

const [root, db] = process.argv.slice(2);
const t0 = performance.now();
const { startSandbox } = require(path.join(root, 'dist', 'index.js'));
const t1 = performance.now();
startSandbox({ db, port: 0, cardPort: 0, quiet: true }).then(async (sandbox) => {
  const t2 = performance.now();
  process.stdout.write(`EMBEDDED ${JSON.stringify({ requireMs: t1 - t0, startMs: t2 - t1 })}\n`);
  await sandbox.stop();
});
