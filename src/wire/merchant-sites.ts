// The wire form of a merchant site (docs-apm.nuvei.com "Create a Merchant Site", "Get information on
// an existing Website"): every key present, Details with every field and Reasons null.
import { formatTimestamp } from '../domain/time';
import type { SiteProfile } from '../store/sites.repo';
import type { SiteRecord } from '../store/records';

/** The company and bank details of a site, as the API answers them (each kept as sent). */
export const MERCHANT_SITE_DETAILS = ['Name', 'Country', 'City', 'Email', 'Address', 'BankName', 'AccountIBAN', 'AccountSWIFT', 'BankSWIFTID', 'BankCode', 'VATNumber', 'RegistrationNumber', 'MCC', 'MainBusiness'] as const;

export function merchantSiteToWire(site: SiteRecord, profile: SiteProfile | undefined) {
  const details = (profile?.details ?? { Name: site.name }) as Record<string, unknown>;
  return {
    MerchantID: site.marketplaceSiteId ?? site.siteId,
    ID: site.siteId,
    Created: profile?.createdAt == null ? null : formatTimestamp(profile.createdAt),
    URL: profile?.url ?? null,
    // A site made otherwise (fixtures, the control API) is an active one.
    Active: profile ? profile.active : true,
    NotificationURL: site.notificationUrl,
    ApiKey: site.apiKey,
    Alias: profile ? profile.alias : site.name,
    IPList: profile?.ipList ?? null,
    Details: {
      Reasons: null,
      ...Object.fromEntries(MERCHANT_SITE_DETAILS.map((k) => [k, details[k] === undefined || details[k] === null ? null : String(details[k])])),
    },
  };
}
