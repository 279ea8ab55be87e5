// Merchants as the control API shows them: top-level sites with their linked sites and credentials.
import { HttpError, notFound } from '../errors/errors';
import type { ServiceContext } from './context';
import { checkAssignable } from './methods.service';

export interface MerchantView {
  SiteID: number;
  APIKey: string;
  Name: string;
  LinkedSiteIDs: number[];
  NotificationURL: string | null;
  DefaultScenario: string | null;
  /** Status IDs the merchant is notified of; null for all. */
  NotifyStatuses: number[] | null;
  /** Method IDs assigned to the merchant; null for every method of the catalogue. */
  Methods: number[] | null;
  /** What applies to the merchant's payments, and where it comes from: its own setting or the sandbox's default. */
  InEffect: InEffect;
}

export interface InEffect {
  /** Where its notifications go: its own URL, else the sandbox's `--notify-url`; none: journaled as no-url. */
  NotificationURL: { Value: string | null; From: 'merchant' | 'sandbox' | 'none'; SandboxDefault: string | null };
  /** The scenario of payments no header or magic amount chooses one for: its own, else the sandbox's `--scenario`, else the method's flow. */
  DefaultScenario: { Value: string | null; From: 'merchant' | 'sandbox' | 'method'; SandboxDefault: string | null };
}

function inEffect(ctx: ServiceContext, own: { notificationUrl: string | null; defaultScenario: string | null }): InEffect {
  const url = ctx.settings.defaultNotificationUrl ?? null;
  const scenario = ctx.settings.defaultScenario ?? null;
  return {
    NotificationURL:
      own.notificationUrl !== null
        ? { Value: own.notificationUrl, From: 'merchant', SandboxDefault: url }
        : { Value: url, From: url !== null ? 'sandbox' : 'none', SandboxDefault: url },
    DefaultScenario:
      own.defaultScenario !== null
        ? { Value: own.defaultScenario, From: 'merchant', SandboxDefault: scenario }
        : { Value: scenario, From: scenario !== null ? 'sandbox' : 'method', SandboxDefault: scenario },
  };
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
      NotifyStatuses: s.notifyStatuses,
      Methods: s.methods,
      InEffect: inEffect(ctx, s),
    }));
}

/** Sets a merchant's notification URL and default scenario (control API and dashboard). */
export function updateMerchant(
  ctx: ServiceContext,
  siteId: number,
  patch: { NotificationURL?: string | null; DefaultScenario?: string | null; NotifyStatuses?: number[] | null; Methods?: number[] | null },
): MerchantView {
  return ctx.store.tx(() => {
    const site = ctx.store.sites.get(siteId);
    if (!site || site.marketplaceSiteId !== null || site.apiKey === null) throw notFound('Merchant');
    if (patch.DefaultScenario !== undefined && patch.DefaultScenario !== null && !ctx.scenarios?.has(patch.DefaultScenario)) {
      throw new HttpError(400, `DefaultScenario: no scenario "${patch.DefaultScenario}"`);
    }
    if (patch.NotificationURL !== undefined) ctx.store.sites.setNotificationUrl(siteId, patch.NotificationURL);
    if (patch.DefaultScenario !== undefined) ctx.store.sites.setDefaultScenario(siteId, patch.DefaultScenario);
    if (patch.NotifyStatuses !== undefined) ctx.store.sites.setNotifyStatuses(siteId, patch.NotifyStatuses);
    if (patch.Methods !== undefined) {
      checkAssignable(ctx, patch.Methods);
      ctx.store.sites.setMethods(siteId, patch.Methods);
    }
    return listMerchants(ctx).find((m) => m.SiteID === siteId)!;
  });
}

export interface NewMerchant {
  Name?: string;
  /** How many split sites to link to the new marketplace (0 makes a plain site). */
  LinkedSites?: number;
  NotificationURL?: string | null;
  DefaultScenario?: string | null;
  NotifyStatuses?: number[] | null;
  /** The methods the new merchant may use; every method when absent or null. */
  Methods?: number[] | null;
}

/**
 * A new marketplace with its linked sites and generated credentials, for a test that wants a
 * merchant of its own. SiteIDs follow the highest one in use.
 */
export function createMerchant(ctx: ServiceContext, input: NewMerchant): MerchantView {
  return ctx.store.tx(() => {
    if (input.DefaultScenario && !ctx.scenarios?.has(input.DefaultScenario)) {
      throw new HttpError(400, `DefaultScenario: no scenario "${input.DefaultScenario}"`);
    }
    checkAssignable(ctx, input.Methods);
    const next = Math.max(0, ...ctx.store.sites.list().map((s) => s.siteId)) + 1;
    const linked = input.LinkedSites ?? 3;
    ctx.store.sites.insert({
      siteId: next,
      apiKey: ctx.ids.apiKey(),
      name: input.Name ?? `Marketplace ${next}`,
      marketplaceSiteId: null,
      notificationUrl: input.NotificationURL ?? null,
      defaultScenario: input.DefaultScenario ?? null,
      notifyStatuses: input.NotifyStatuses ?? null,
      methods: input.Methods ?? null,
    });
    for (let i = 1; i <= linked; i++) {
      ctx.store.sites.insert({
        siteId: next + i,
        apiKey: null,
        name: `Seller ${i} of ${input.Name ?? `Marketplace ${next}`}`,
        marketplaceSiteId: next,
        notificationUrl: null,
        defaultScenario: null,
      });
    }
    return getMerchant(ctx, next);
  });
}

export function getMerchant(ctx: ServiceContext, siteId: number): MerchantView {
  const m = listMerchants(ctx).find((x) => x.SiteID === siteId);
  if (!m) throw notFound('Merchant');
  return m;
}
