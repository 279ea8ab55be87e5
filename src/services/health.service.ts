// What GET /_sandbox/health says about the database: how many payments it holds and how big it is,
// and the request journal's file, entries and quotas.
import type { ServiceContext } from './context';

export function databaseHealth(ctx: ServiceContext) {
  const s = ctx.store.retention.stats(ctx.store.changeStamp());
  return { Payments: s.payments, DatabaseBytes: s.bytes, DatabaseFreeBytes: s.freeBytes, RequestJournal: ctx.requests?.health() ?? null };
}
