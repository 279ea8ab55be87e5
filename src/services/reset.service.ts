// Resetting the sandbox: all data gone, the fixtures loaded again, the configuration kept.
import { type Fixtures, loadFixtures } from '../fixtures';
import type { ServiceContext } from './context';

export function resetSandbox(ctx: ServiceContext, fixtures: Fixtures): void {
  ctx.store.tx(() => {
    ctx.store.clear();
    loadFixtures(ctx.store, fixtures);
  });
  // What is held in memory about the old data (the notification worker's attempts on the wire, say)
  // is dropped by the holders themselves.
  ctx.store.dataReplaced('reset');
}
