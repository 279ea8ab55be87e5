// Merchants as the control API shows them: top-level sites with their linked sites and credentials.
import type { ServiceContext } from './context';

export interface MerchantView {
  SiteID: number;
  APIKey: string;
  Name: string;
  LinkedSiteIDs: number[];
  NotificationURL: string | null;
  DefaultScenario: string | null;
}

export function listMerchants(ctx: ServiceContext): MerchantView[] {
  const sites = ctx.store.sites.list();
  return sites
    .filter((s) => s.marketplaceSiteId === null && s.apiKey !== null)
    .map((s) => ({
      SiteID: s.siteId,
      APIKey: s.apiKey!,
      Name: s.name,
      LinkedSiteIDs: sites.filter((l) => l.marketplaceSiteId === s.siteId).map((l) => l.siteId),
      NotificationURL: s.notificationUrl,
      DefaultScenario: s.defaultScenario,
    }));
}
