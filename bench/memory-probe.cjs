'use strict';
// Loaded into a server by bench/cpu.cjs (node -r): on SIGUSR2 it writes the process's memory, split as
// V8 and Node count it, to the file MEMORY_PROBE names, so that an RSS can be told apart; and the
// resident pages as /proc/self/smaps maps them (the node binary's, other files', malloc's and the
// anonymous rest, where V8's heap and the threads' stacks and arenas are), with the count of threads.
const fs = require('node:fs');
const v8 = require('node:v8');

function resident() {
  const kb = { binary: 0, files: 0, heap: 0, anon: 0 };
  let into = 'anon';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const map = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (map) {
      const name = map[1];
      into = name === process.execPath ? 'binary' : name === '[heap]' ? 'heap' : name.startsWith('/') ? 'files' : 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[into] += Number(rss[1]);
  }
  const threads = Number(/Threads:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
  return { ...Object.fromEntries(Object.entries(kb).map(([k, v]) => [k, Math.round(v / 102.4) / 10])), threads };
}

process.on('SIGUSR2', () => {
  const mb = (bytes) => Math.round(bytes / 104857.6) / 10;
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().filter((s) => s.space_size > 0).map((s) => [s.space_name, mb(s.space_size)]));
  fs.writeFileSync(
    process.env.MEMORY_PROBE,
    JSON.stringify({ rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), spaces, resident: resident() }),
  );
});
