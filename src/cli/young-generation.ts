// Bounds V8's young generation in a server process started by the CLI, as --max-semi-space-size would.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';

/**
 * Each of the young generation's two semispaces grows to this many MiB, not to V8's 16: under load
 * every byte of both was resident, and the 16 MiB saved were a ninth of the server's memory after
 * a load, for no CPU per request that a run could tell apart.
 */
export const SEMI_SPACE_MIB = 8;

/** Requests between two looks at the young generation's size (a look costs some 2 µs). */
const LOOK_EVERY = 16;

/**
 * --max-semi-space-size is read only when the heap is made, before any of our code runs, and a
 * command-line flag would need a second process. The growth factor is read at each growth instead:
 * it stays V8's 2 while a doubling keeps a semispace within the bound, and drops to 1 (no growth)
 * once it does not. A GC that shrinks the young generation (V8 does when the allocation rate falls)
 * lets it grow again, to the bound or, from a size that is not a power of two, to under it.
 *
 * The size is looked at every LOOK_EVERY requests, and after each GC as Node reports it. That report
 * alone comes a turn of the event loop late, and under load one turn's requests grew the young
 * generation twice, past the bound; a growth needs more bytes to survive than a few requests keep.
 * A worker thread's start (the checkpointer's, a snapshot's copy) puts V8's factor back: a growth
 * between that and the next request (or, without requests, its 'online' event) can pass the bound once.
 * The flag is the process's (a worker thread's young generation grows by it too), so this is for a
 * process the CLI owns. Returns the function that stops it.
 */
export function boundYoungGeneration(semiSpaceMib = SEMI_SPACE_MIB): () => void {
  const bound = semiSpaceMib * 1024 * 1024;
  let factor = 0;
  const look = (): void => {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (young === undefined) return;
    // What a semispace holds (its size counts the second semispace only while that one is committed).
    const next = 2 * (young.space_used_size + young.space_available_size) <= bound ? 2 : 1;
    if (next === factor) return;
    factor = next;
    setFlagsFromString(`--semi-space-growth-factor=${next}`);
  };
  // A new isolate's heap set-up raises the factor to 2 again, process-wide, at a moment this thread
  // does not see: while a worker thread starts, the factor is set anew at each request (some 20 µs,
  // for the few requests of a thread's start), and once more when it is online (its heap made).
  let starting = 0;
  const again = (): void => {
    if (factor === 1) setFlagsFromString('--semi-space-growth-factor=1');
  };
  const onWorker = (message: unknown): void => {
    const worker = (message as { worker: Worker }).worker;
    starting++;
    let started = false;
    const up = (): void => {
      if (started) return;
      started = true;
      starting--;
      again();
    };
    worker.once('online', up);
    worker.once('exit', up);
  };
  let requests = 0;
  const onRequest = (): void => {
    if (starting > 0) again();
    else if (++requests % LOOK_EVERY === 0) look();
  };
  look();
  subscribe('http.server.request.start', onRequest);
  subscribe('worker_threads', onWorker);
  const observer = new PerformanceObserver(look);
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    unsubscribe('http.server.request.start', onRequest);
    unsubscribe('worker_threads', onWorker);
    if (factor !== 2) setFlagsFromString('--semi-space-growth-factor=2');
    factor = 2;
  };
}
