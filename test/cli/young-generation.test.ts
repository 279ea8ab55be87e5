// The young generation of a process the CLI starts stays within its bound, a worker thread's start included.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './process';

const MIB = 1024 * 1024;

/**
 * What one semispace holds (MiB) after a fresh process, bounded at `bound` MiB or not, churned through
 * objects that survive a few collections, a worker thread started and online half-way through.
 */
function semispaceAfterChurn(bound: number | null): number {
  const script = `
    const v8 = require('node:v8');
    const { Worker } = require('node:worker_threads');
    const { boundYoungGeneration } = require(${JSON.stringify(join(ROOT, 'dist', 'cli', 'young-generation.js'))});
    if (${bound} !== null) boundYoungGeneration(${bound});
    const semispace = () => {
      const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
      return s.space_used_size + s.space_available_size;
    };
    let keep = [];
    const churn = () => {
      for (let i = 0; i < 20000; i++) {
        keep.push({ a: i, b: 'x' + i });
        if (keep.length > 100000) keep = keep.slice(50000);
      }
    };
    // Node reports a GC in the turn after it: two turns between rounds (of about a MiB each, less than
    // a growth needs to survive) let the bound see each one. Thirty rounds each side of the worker's
    // start take an unbounded semispace to V8's 16 MiB, and a bound blind to the worker's start past
    // its 2 (as do ten); more rounds show nothing more.
    const turns = async () => {
      await new Promise(setImmediate);
      await new Promise(setImmediate);
    };
    (async () => {
      for (let i = 0; i < 30; i++) { churn(); await turns(); }
      const worker = new Worker('', { eval: true });
      await new Promise((resolve) => worker.once('online', resolve));
      await turns();
      for (let i = 0; i < 30; i++) { churn(); await turns(); }
      process.stdout.write('SEMISPACE ' + semispace() + '\\n');
      await worker.terminate();
    })();
  `;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  return Number(/^SEMISPACE (\d+)$/m.exec(out)![1]) / MIB;
}

describe('the young generation of a started process', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('grows under V8 alone past 2 MiB a semispace, with the same churn', () => {
    expect(semispaceAfterChurn(null)).toBeGreaterThan(2);
  });

  it('stays within its bound, after a worker thread (whose heap set-up resets the growth factor) came up too', () => {
    const semispace = semispaceAfterChurn(2);
    expect(semispace).toBeLessThanOrEqual(2);
    expect(semispace).toBeGreaterThan(1);
  });
});
