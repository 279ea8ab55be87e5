// GET /_sandbox/health, the control API's first route: readiness checks and monitors ask it first,
// often before anything else, so it is made without the rest of the control API (app.ts).
import type { Router } from 'express';
import { databaseHealth } from '../../services/health.service';
import { type HttpContext, route, wireOf } from '../pipeline';

/** The marketplaces' snapshot and fault rule quotas (each marketplace's), and what they hold together. */
function quotaHealth(ctx: HttpContext) {
  const snapshots = ctx.siteSnapshots;
  const faults = ctx.services.faults;
  const used = snapshots?.usage() ?? { count: 0, bytes: 0 };
  return {
    MerchantSnapshots: { Count: used.count, Bytes: used.bytes, QuotaCount: snapshots?.quota.count ?? 0, QuotaBytes: snapshots?.quota.bytes ?? 0 },
    MerchantFaultRules: { Count: faults?.ownedByMarketplaces() ?? 0, Quota: faults?.perMarketplace ?? 0 },
  };
}

export function mountHealthRoute(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  router.get(
    '/_sandbox/health',
    route(ctx, 'message', (req) => {
      const urls = wireOf(ctx, req);
      return { status: 200, body: { Status: 'ok', BaseURL: urls.baseUrl, CardBaseURL: urls.cardBaseUrl ?? urls.baseUrl, PID: process.pid, ...databaseHealth(s), ...quotaHealth(ctx) } };
    }),
  );
}
