// What the merchant dashboard needs besides the API's own services: sign-in with a form, one
// payment with everything known about it, provider events and redelivery scoped to the merchant.
import { type RequestEntry, requestView } from '../wire/requests';
import { timingSafeEqual } from 'node:crypto';
import type { PaymentEvent } from '../domain/payment.machine';
import { Status } from '../domain/statuses';
import { HttpError, Rejection, notFound } from '../errors/errors';
import { reason } from '../errors/reasons';
import { merchantPatchRequest } from '../schemas/control';
import { validate } from '../schemas/validator';
import type { FaultView } from '../faults/faults';
import type { CaptureRecord, DisputeRecord, MethodRecord, RefundRecord, SiteRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { ServiceContext } from './context';
import { applyPaymentEvent } from './events.service';
import { listNotifications, paymentStory, redeliverNotification as redeliver } from './journal.service';
import { loadAnyPayment, parseId } from './lookup';
import { type MerchantView, getMerchant, updateMerchant } from './merchants.service';
import { type Offers, offersFor } from './dashboard-offers.service';

/** The site whose SiteID and APIKey a sign-in form carries, or undefined (compared in constant time). */
export function signIn(ctx: ServiceContext, rawSiteId: string, apiKey: string): SiteRecord | undefined {
  if (!/^[0-9]{1,10}$/.test(rawSiteId.trim())) return undefined;
  const site = ctx.store.sites.get(Number(rawSiteId.trim()));
  if (!site || site.apiKey === null) return undefined;
  const given = Buffer.from(apiKey);
  const expected = Buffer.from(site.apiKey);
  return given.length === expected.length && timingSafeEqual(given, expected) ? site : undefined;
}

/** The site of a signed-in session (undefined once it is gone, e.g. after a reset). */
export function sessionSite(ctx: ServiceContext, siteId: number): SiteRecord | undefined {
  const site = ctx.store.sites.get(siteId);
  return site && site.apiKey !== null ? site : undefined;
}

/** Names the dashboard shows: methods, statuses, scenarios and sites. */
export interface Catalogue {
  methods: MethodRecord[];
  statuses: { id: number; name: string }[];
  scenarios: { name: string; description: string }[];
}

export function catalogue(ctx: ServiceContext): Catalogue {
  return {
    methods: ctx.store.methods.list(),
    statuses: Object.entries(Status).map(([name, id]) => ({ id, name })),
    scenarios: (ctx.scenarios?.list() ?? []).map((s) => ({ name: s.name, description: s.description })),
  };
}

export function siteName(ctx: ServiceContext, siteId: number): string {
  return ctx.store.sites.get(siteId)?.name ?? `Site ${siteId}`;
}

export interface PaymentDetail {
  view: PaymentView;
  method: MethodRecord | undefined;
  siteNames: Map<number, string>;
  refunds: RefundRecord[];
  story: ReturnType<typeof paymentStory>;
  notifications: ReturnType<typeof listNotifications>;
  /** The merchant's linked sites, for adding splits. */
  linkedSites: SiteRecord[];
  /** The fault rules that can act on this payment. */
  faults: FaultView[];
  /** A card payment's captures and disputes. */
  captures: CaptureRecord[];
  disputes: DisputeRecord[];
  /** The requests that named or made it, oldest first (none when the journal is off). */
  requests: RequestEntry[];
  /** What its page offers now, or why not. */
  offers: Offers;
}

/** How many of a payment's requests its page lists, and of a merchant's on its requests page. */
const PAYMENT_REQUESTS = 500;
export const RECENT_REQUESTS = 100;

/**
 * The newest of the merchant's own requests (its credentials', and its payer pages' presses), near
 * misses included, newest first: never another's, nor one that only claimed its SiteID.
 */
export function recentRequests(ctx: ServiceContext, site: SiteRecord): RequestEntry[] {
  if (!ctx.requests) return [];
  return ctx.requests.find({ owner: site.siteId }, { limit: RECENT_REQUESTS, offset: 0, descending: true }).map(requestView);
}

/** One payment of `site` (either address) with its splits, refunds, history, steps and notifications; 404 for another site's. */
export function paymentDetail(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentDetail {
  const view = loadAnyPayment(ctx, site, rawId);
  const id = view.payment.id;
  const siteNames = new Map<number, string>();
  for (const s of view.splits) siteNames.set(s.siteId, siteName(ctx, s.siteId));
  const method = view.payment.methodId === null ? undefined : ctx.store.methods.get(view.payment.methodId);
  const events = view.payment.surface === 'card' ? CARD_DASHBOARD_EVENTS : DASHBOARD_EVENTS;
  return {
    offers: offersFor(ctx, site, view, method?.flow ?? null, events),
    view,
    method,
    siteNames,
    refunds: ctx.store.refunds.ofPayment(id),
    story: paymentStory(ctx, id),
    notifications: listNotifications(ctx, { paymentId: id }),
    linkedSites: ctx.store.sites.linkedTo(site.siteId),
    faults: ctx.faults?.forPayment(site.siteId, id) ?? [],
    captures: ctx.store.captures.ofPayment(id),
    disputes: ctx.store.disputes.ofPayment(id),
    // Its own requests only: another marketplace's, refused on this payment, are not the merchant's to read.
    requests: ctx.requests?.find({ paymentId: id, owner: site.siteId }, { limit: PAYMENT_REQUESTS, offset: 0, descending: false }).map(requestView) ?? [],
  };
}

export const DASHBOARD_EVENTS: readonly PaymentEvent[] = ['authorize', 'succeed', 'fail', 'expire', 'settle'];
/** A card payment's: authorize stands for the card entered on the hosted form. */
export const CARD_DASHBOARD_EVENTS: readonly PaymentEvent[] = ['authorize', 'fail', 'expire', 'settle'];

/** A provider event on one of the merchant's own payments (the control API's event, scoped). */
export function dashboardEvent(ctx: ServiceContext, site: SiteRecord, rawId: string, event: string): PaymentView {
  return ctx.store.tx(() => {
    const view = loadAnyPayment(ctx, site, rawId);
    if (!(DASHBOARD_EVENTS as readonly string[]).includes(event)) {
      throw new HttpError(400, `Unknown event "${event}": expected one of ${DASHBOARD_EVENTS.join(', ')}`);
    }
    return applyPaymentEvent(ctx, view.payment.id, event as PaymentEvent);
  });
}

/** Sends a notification of one of the merchant's payments again (as `POST /_sandbox/notifications/{id}/redeliver`). */
export function redeliverNotification(ctx: ServiceContext, site: SiteRecord, rawPaymentId: string, rawNotificationId: string): void {
  const view = loadAnyPayment(ctx, site, rawPaymentId);
  const id = parseId(rawNotificationId);
  const n = id === null ? undefined : ctx.store.notifications.get(id);
  if (!n || n.paymentId !== view.payment.id) throw notFound('Notification');
  redeliver(ctx, n);
}

export function merchantSettings(ctx: ServiceContext, site: SiteRecord): MerchantView {
  return getMerchant(ctx, site.siteId);
}

/** Saves the settings form: an empty field clears the value. Checked before anything is written. */
export function saveSettings(ctx: ServiceContext, site: SiteRecord, form: { notificationUrl: string; defaultScenario: string }): MerchantView {
  const url = form.notificationUrl.trim();
  const scenario = form.defaultScenario.trim();
  const patch = { NotificationURL: url === '' ? null : url, DefaultScenario: scenario === '' ? null : scenario };
  if (patch.NotificationURL !== null && !isHttpUrl(patch.NotificationURL)) {
    throw new Rejection([
      reason(2, `NotificationURL is invalid: "${patch.NotificationURL}" is not an http:// or https:// address (such as https://shop.example/notify)`),
    ]);
  }
  const problems = validate(merchantPatchRequest, patch);
  if (problems.length > 0) throw new Rejection(problems);
  return updateMerchant(ctx, site.siteId, patch);
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(text)) return false;
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}
