// What GET /_sandbox/health says about the database: how many payments it holds and how big it is.
import type { ServiceContext } from './context';

export function databaseHealth(ctx: ServiceContext): { Payments: number; DatabaseBytes: number; DatabaseFreeBytes: number } {
  const s = ctx.store.retention.stats(ctx.store.changeStamp());
  return { Payments: s.payments, DatabaseBytes: s.bytes, DatabaseFreeBytes: s.freeBytes };
}
