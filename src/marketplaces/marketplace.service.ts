// A marketplace on its own: its reset and its removal, which touch no other marketplace.
import { notFound } from '../errors/errors';
import type { ServiceContext } from '../services/context';
import type { SiteRecord } from '../store/records';

/** The marketplace `siteId` names (a site with credentials, not a linked one), or a 404 as for any unknown one. */
export function marketplaceOf(ctx: ServiceContext, siteId: number): SiteRecord {
  const site = ctx.store.sites.get(siteId);
  if (!site || site.marketplaceSiteId !== null || site.apiKey === null) throw notFound('Merchant');
  return site;
}

/**
 * Deletes the marketplace's payments with everything of them (splits, refunds, history, steps,
 * notifications) and its fault rules; its credentials, settings and clock stay. IDs go on.
 */
export function resetMarketplace(ctx: ServiceContext, siteId: number): void {
  marketplaceOf(ctx, siteId);
  ctx.store.tx(() => ctx.store.clearSite(siteId));
  ctx.store.siteReplaced(siteId, 'reset');
}

/** Removes the marketplace whole: its data, its clock, its linked sites and itself. Its SiteIDs are never given again. */
export function removeMarketplace(ctx: ServiceContext, siteId: number): void {
  marketplaceOf(ctx, siteId);
  ctx.store.tx(() => ctx.store.clearSite(siteId, true));
  ctx.store.siteReplaced(siteId, 'remove');
}
