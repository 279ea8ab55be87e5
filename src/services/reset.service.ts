// Resetting the sandbox: all data gone, the fixtures loaded again, the configuration kept.
import { type Fixtures, loadFixtures } from '../fixtures';
import type { ServiceContext } from './context';

export function resetSandbox(ctx: ServiceContext, fixtures: Fixtures): void {
  ctx.store.tx(() => {
    ctx.store.clear();
    loadFixtures(ctx.store, fixtures);
  });
  // The fault rules went with the data.
  ctx.faults?.reload();
}
