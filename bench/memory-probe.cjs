'use strict';
// Loaded into a server by bench/cpu.cjs (node -r): on SIGUSR2 it writes the process's memory, split as
// V8 and Node count it, to the file MEMORY_PROBE names, so that an RSS can be told apart.
const fs = require('node:fs');
const v8 = require('node:v8');

process.on('SIGUSR2', () => {
  const mb = (bytes) => Math.round(bytes / 104857.6) / 10;
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().filter((s) => s.space_size > 0).map((s) => [s.space_name, mb(s.space_size)]));
  fs.writeFileSync(process.env.MEMORY_PROBE, JSON.stringify({ rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), spaces }));
});
