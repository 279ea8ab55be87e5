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
  /** manual: its own manual clock; sandbox: the sandbox's. */
  Clock: 'manual' | 'sandbox';
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
      // Those a split may name: sites deleted through the merchant sites API are not.
      LinkedSiteIDs: ctx.store.sites.linkedTo(s.siteId).map((l) => l.siteId),
      NotificationURL: s.notificationUrl,
      DefaultScenario: s.defaultScenario,
      NotifyStatuses: s.notifyStatuses,
      Methods: s.methods,
      Clock: ctx.siteClocks?.get(s.siteId) ? 'manual' : 'sandbox',
      InEffect: inEffect(ctx, s),
    }));
}

/** Refuses a notification URL that reaches the sandbox's own listeners: a notification sent there would call its own routes. */
export function checkNotificationUrl(ctx: ServiceContext, url: string | null | undefined): void {
  if (url === undefined || url === null) return;
  const why = ctx.ownListener?.(url);
  if (why) throw new HttpError(400, `NotificationURL: ${why}`);
}

/** Sets a merchant's notification URL and default scenario (control API and dashboard). */
export function updateMerchant(
  ctx: ServiceContext,
  siteId: number,
  patch: { NotificationURL?: string | null; DefaultScenario?: string | null; NotifyStatuses?: number[] | null; Methods?: number[] | null; Clock?: 'manual' | 'sandbox' },
): MerchantView {
  return ctx.store.tx(() => {
    const site = ctx.store.sites.get(siteId);
    if (!site || site.marketplaceSiteId !== null || site.apiKey === null) throw notFound('Merchant');
    if (patch.DefaultScenario !== undefined && patch.DefaultScenario !== null && !ctx.scenarios?.has(patch.DefaultScenario)) {
      throw new HttpError(400, `DefaultScenario: no scenario "${patch.DefaultScenario}"`);
    }
    checkNotificationUrl(ctx, patch.NotificationURL);
    if (patch.NotificationURL !== undefined) ctx.store.sites.setNotificationUrl(siteId, patch.NotificationURL);
    if (patch.DefaultScenario !== undefined) ctx.store.sites.setDefaultScenario(siteId, patch.DefaultScenario);
    if (patch.NotifyStatuses !== undefined) ctx.store.sites.setNotifyStatuses(siteId, patch.NotifyStatuses);
    if (patch.Methods !== undefined) {
      checkAssignable(ctx, patch.Methods);
      ctx.store.sites.setMethods(siteId, patch.Methods);
    }
    if (patch.Clock !== undefined) setClock(ctx, siteId, patch.Clock);
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
  /** manual: a clock of its own, starting at the sandbox's time. */
  Clock?: 'manual' | 'sandbox';
}

/** Gives the marketplace its own manual clock at the sandbox's time, or puts it back on the sandbox's. Inside a transaction. */
function setClock(ctx: ServiceContext, siteId: number, clock: 'manual' | 'sandbox'): void {
  if (!ctx.siteClocks) throw new HttpError(400, 'Clock: this sandbox keeps no clocks of marketplaces');
  ctx.siteClocks.set(siteId, clock === 'manual' ? ctx.clock.now() : null);
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
    checkNotificationUrl(ctx, input.NotificationURL);
    const linked = input.LinkedSites ?? 3;
    // The marketplace and its linked sites take consecutive SiteIDs, never one handed out before.
    const next = ctx.store.nextSiteId();
    for (let i = 0; i < linked; i++) ctx.store.nextSiteId();
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
    if (input.Clock !== undefined) setClock(ctx, next, input.Clock);
    return getMerchant(ctx, next);
  });
}

export function getMerchant(ctx: ServiceContext, siteId: number): MerchantView {
  const m = listMerchants(ctx).find((x) => x.SiteID === siteId);
  if (!m) throw notFound('Merchant');
  return m;
}
