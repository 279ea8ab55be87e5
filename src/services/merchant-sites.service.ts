// The merchant sites API (/v1/merchantsites): a marketplace makes, changes, re-keys and deletes sites
// of its own. A site made so is linked to the marketplace (a split may name it) and authenticates
// with its own key at once; a site may also manage itself with that key, as the docs' examples do.
import { Rejection, notFound } from '../errors/errors';
import { reason } from '../errors/reasons';
import { merchantSiteRequest } from '../schemas/merchant-sites';
import { validateRequest } from '../schemas/validator';
import type { Json, SiteRecord } from '../store/records';
import type { SiteProfile } from '../store/sites.repo';
import type { ServiceContext } from './context';
import { checkNotificationUrl } from './merchants.service';
import { parseId } from './lookup';

interface MerchantSiteInput {
  URL?: string | null;
  Active?: boolean | null;
  NotificationURL?: string | null;
  Alias?: string | null;
  IPList?: string | null;
  Details?: Json | null;
}

export interface MerchantSiteView {
  site: SiteRecord;
  profile: SiteProfile | undefined;
}

const view = (ctx: ServiceContext, siteId: number): MerchantSiteView => ({ site: ctx.store.sites.get(siteId)!, profile: ctx.store.sites.profile(siteId) });

/** The sites `caller` may see and change: itself, and the sites linked to it; never a deleted one. */
function visible(ctx: ServiceContext, caller: SiteRecord, site: SiteRecord | undefined): site is SiteRecord {
  if (!site || ctx.store.sites.profile(site.siteId)?.deletedAt != null) return false;
  return site.siteId === caller.siteId || site.marketplaceSiteId === caller.siteId;
}

/** Another marketplace's site, a deleted one and an unknown one answer alike: 404. */
function load(ctx: ServiceContext, caller: SiteRecord, rawId: string): SiteRecord {
  const id = parseId(rawId);
  const site = id === null ? undefined : ctx.store.sites.get(id);
  if (!visible(ctx, caller, site)) throw notFound('MerchantSite');
  return site;
}

function input(ctx: ServiceContext, body: unknown): MerchantSiteInput {
  const reasons = validateRequest(merchantSiteRequest, body ?? {}, ctx.settings.strictFields === true);
  if (reasons.length > 0) throw new Rejection(reasons);
  return (body as { MerchantSite?: MerchantSiteInput }).MerchantSite ?? {};
}

/** Details as kept: the documented fields sent, strings (a numeric MCC as its digits). */
function details(sent: Json | null | undefined, before: Json | null): Json | null {
  if (sent === undefined || sent === null) return before;
  const out: Json = { ...(before ?? {}) };
  for (const [k, v] of Object.entries(sent)) {
    if (k === 'ID' || k === 'Info' || k === 'Reasons' || v === null) continue;
    out[k] = String(v);
  }
  return out;
}

/** The most sites one marketplace makes through `POST /v1/merchantsites`, deleted ones included. */
export const MADE_SITES_MAX = 100;

const nameOf = (i: MerchantSiteInput, fallback: string) => i.Alias || (typeof i.Details?.Name === 'string' && i.Details.Name) || fallback;

export function listMerchantSites(ctx: ServiceContext, caller: SiteRecord): MerchantSiteView[] {
  const ids = [caller.siteId, ...ctx.store.sites.linkedTo(caller.siteId).map((s) => s.siteId)].sort((a, b) => a - b);
  return ids.map((id) => view(ctx, id));
}

export function getMerchantSite(ctx: ServiceContext, caller: SiteRecord, rawId: string): MerchantSiteView {
  return view(ctx, load(ctx, caller, rawId).siteId);
}

/** `POST /v1/merchantsites`: a new site of the caller's marketplace, with a key of its own. */
export function createMerchantSite(ctx: ServiceContext, caller: SiteRecord, body: unknown): MerchantSiteView {
  const i = input(ctx, body);
  if (!i.URL) throw new Rejection([reason(1, 'MerchantSite.URL is missing')]);
  checkNotificationUrl(ctx, i.NotificationURL);
  const marketplace = ctx.store.sites.get(caller.marketplaceSiteId ?? caller.siteId)!;
  // A shared instance's rows are everybody's disk: one marketplace makes so many sites and no more.
  if (ctx.store.sites.madeFor(marketplace.siteId) >= MADE_SITES_MAX) {
    throw new Rejection([reason(11, `Action is invalid: marketplace ${marketplace.siteId} has made ${MADE_SITES_MAX} sites through this API (deleted ones count), the most a marketplace makes here`)]);
  }
  return ctx.store.tx(() => {
    const siteId = ctx.store.nextSiteId();
    ctx.store.sites.insert({
      siteId,
      apiKey: ctx.ids.apiKey(),
      name: nameOf(i, `Site ${siteId}`),
      marketplaceSiteId: marketplace.siteId,
      notificationUrl: i.NotificationURL || null,
      defaultScenario: null,
      // The marketplace's methods are its sites' methods.
      methods: marketplace.methods,
    });
    ctx.store.sites.saveProfile(siteId, {
      createdAt: ctx.clock.now(),
      url: i.URL ?? null,
      // Fidelity: "defaults to false if not sent" (docs-apm.nuvei.com "Create a Merchant Site").
      active: i.Active ?? false,
      alias: i.Alias ?? null,
      ipList: i.IPList ?? null,
      details: details(i.Details, null),
      deletedAt: null,
    });
    return view(ctx, siteId);
  });
}

/** `PATCH /v1/merchantsites/{siteId}`: what is sent (not null) replaces what was kept; Details field by field. */
export function changeMerchantSite(ctx: ServiceContext, caller: SiteRecord, rawId: string, body: unknown): MerchantSiteView {
  const site = load(ctx, caller, rawId);
  const i = input(ctx, body);
  checkNotificationUrl(ctx, i.NotificationURL);
  return ctx.store.tx(() => {
    const before = ctx.store.sites.profile(site.siteId) ?? { createdAt: null, url: null, active: true, alias: site.name, ipList: null, details: { Name: site.name }, deletedAt: null };
    ctx.store.sites.saveProfile(site.siteId, {
      ...before,
      url: i.URL ?? before.url,
      active: i.Active ?? before.active,
      alias: i.Alias ?? before.alias,
      ipList: i.IPList ?? before.ipList,
      details: details(i.Details, before.details),
    });
    if (i.NotificationURL !== undefined && i.NotificationURL !== null) ctx.store.sites.setNotificationUrl(site.siteId, i.NotificationURL || null);
    if (i.Alias) ctx.store.sites.setName(site.siteId, i.Alias);
    return view(ctx, site.siteId);
  });
}

/** `POST /v1/merchantsites/{siteId}/regenerateapikey`: a new key; the old one is refused from now on. */
export function regenerateMerchantSiteKey(ctx: ServiceContext, caller: SiteRecord, rawId: string): MerchantSiteView {
  const site = load(ctx, caller, rawId);
  return ctx.store.tx(() => {
    ctx.store.sites.setApiKey(site.siteId, ctx.ids.apiKey());
    return view(ctx, site.siteId);
  });
}

/**
 * `DELETE /v1/merchantsites/{siteId}`: answers the site as it was; from then on its key is refused, it
 * is in no list and no split may name it. Its payments stay its marketplace's. A marketplace itself is
 * removed through the control API, not here.
 */
export function deleteMerchantSite(ctx: ServiceContext, caller: SiteRecord, rawId: string): MerchantSiteView {
  const site = load(ctx, caller, rawId);
  if (site.marketplaceSiteId === null) {
    throw new Rejection([reason(11, `Action is invalid: site ${site.siteId} is a marketplace; remove it through the control API (DELETE /_sandbox/merchants/${site.siteId})`)]);
  }
  return ctx.store.tx(() => {
    const was = view(ctx, site.siteId);
    const before = was.profile ?? { createdAt: null, url: null, active: true, alias: site.name, ipList: null, details: { Name: site.name }, deletedAt: null };
    ctx.store.sites.saveProfile(site.siteId, { ...before, deletedAt: ctx.clock.now() });
    ctx.store.sites.setApiKey(site.siteId, null);
    return was;
  });
}
