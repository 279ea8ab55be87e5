// Preapprovals (the recurring-payments API): create, read, list, close, the payments charged under
// one, and the one transition every change of a preapproval goes through (history and notification).
import {
  DEFAULT_PREAPPROVAL_SCENARIO,
  PREAPPROVAL_SCENARIOS,
  type PreapprovalEvent,
  PreapprovalStatus,
  applyPreapprovalEvent,
  preapprovalStatusInfo,
} from '../domain/preapproval.machine';
import { parseAmount } from '../domain/money';
import { HttpError, PreapprovalRejection, Rejection, notFound } from '../errors/errors';
import { type Reason, reason } from '../errors/reasons';
import { changePreapprovalRequest, createPreapprovalRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { Json, PreapprovalRecord, SiteRecord } from '../store/records';
import { completeAddress, completeCustomer } from '../wire/serializers';
import { recordPreapprovalStatus } from './changes';
import type { ServiceContext } from './context';
import { parseId } from './lookup';
import { unavailableMethod } from './methods.service';

interface PreapprovalInput {
  MerchantPreapprovalID: string;
  MethodID: number;
  MethodOptionID?: number | null;
  RecurringPeriod?: number | null;
  PreapprovedMaximumAmount?: number | string | null;
  Currency?: string | null;
  ReturnURL?: string | null;
  Description?: string | null;
  Customer?: Json | null;
  BillingAddress?: Json | null;
}

/** Default length of the preapproval list (docs-apm.nuvei.com "Get a list of preapprovals": 50 unless `limit` says). */
const LIST_DEFAULT = 50;
const LIST_MAX = 1000;

export function createPreapproval(ctx: ServiceContext, site: SiteRecord, body: unknown, opts: { scenario?: string | null } = {}): PreapprovalRecord {
  const schemaReasons = validateRequest(createPreapprovalRequest, body, ctx.settings.strictFields === true);
  if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
  const input = (body as { Preapproval: PreapprovalInput }).Preapproval;
  const reasons: Reason[] = [];
  if (input.MethodID === 0) reasons.push(reason(1, 'Preapproval.MethodID is missing'));
  else {
    const method = ctx.store.methods.get(input.MethodID);
    if (!method || method.flow === 'card') reasons.push(reason(5, `Preapproval.MethodID is invalid: ${input.MethodID} is not a method of this address`));
    else {
      const unavailable = unavailableMethod(site, input.MethodID, 'Preapproval.MethodID');
      if (unavailable) reasons.push(unavailable);
    }
  }
  const header = opts.scenario ?? null;
  if (header !== null && PREAPPROVAL_SCENARIOS[header] === undefined) {
    reasons.push(reason(2, `X-Sandbox-Scenario is invalid: no preapproval scenario "${header}" (known: ${Object.keys(PREAPPROVAL_SCENARIOS).join(', ')})`));
  }
  if (reasons.length > 0) throw new Rejection(reasons);
  const max = input.PreapprovedMaximumAmount === undefined || input.PreapprovedMaximumAmount === null ? 0n : parseAmount(input.PreapprovedMaximumAmount);
  const scenario = ctx.scenarios ? (header ?? DEFAULT_PREAPPROVAL_SCENARIO) : null;

  return ctx.store.tx(() => {
    if (ctx.store.preapprovals.merchantPreapprovalIdTaken(site.siteId, input.MerchantPreapprovalID)) {
      throw new Rejection([reason(20, `Preapproval.MerchantPreapprovalID is duplicated: ${input.MerchantPreapprovalID} was used before on site ${site.siteId}`)]);
    }
    const now = ctx.clock.now();
    const record: Omit<PreapprovalRecord, 'id'> = {
      ownerSiteId: site.siteId,
      merchantPreapprovalId: input.MerchantPreapprovalID,
      methodId: input.MethodID,
      methodOptionId: input.MethodOptionID ? input.MethodOptionID : null,
      recurringPeriod: input.RecurringPeriod ?? null,
      preapprovedMaximumAmount: max === null || max === 0n ? null : max,
      currency: input.Currency ? input.Currency : null,
      returnUrl: input.ReturnURL ?? null,
      description: input.Description ?? null,
      customer: input.Customer ? completeCustomer(input.Customer, ctx.store.counters.next('customer')) : null,
      billingAddress: input.BillingAddress ? completeAddress(input.BillingAddress, ctx.store.counters.next('address')) : null,
      token: ctx.ids.token(),
      statusId: PreapprovalStatus.Pending,
      createdAt: now,
      scenario,
    };
    const created: PreapprovalRecord = { id: ctx.store.preapprovals.insert(record), ...record };
    // Creation is not notified: the merchant has the answer.
    recordPreapprovalStatus(ctx, created, 'created', false);
    const steps = scenario === null ? [] : PREAPPROVAL_SCENARIOS[scenario]!;
    steps.forEach((step, i) => ctx.store.jobs.schedulePreapproval(created.id, i, step.event, now + step.afterMs));
    if (steps.length > 0) ctx.wake?.();
    return created;
  });
}

/** The site's preapproval, or 404 when it does not exist or belongs to another site. */
export function loadPreapproval(ctx: ServiceContext, site: SiteRecord, rawId: string): PreapprovalRecord {
  const id = parseId(rawId);
  const p = id === null ? undefined : ctx.store.preapprovals.get(id, site.siteId);
  if (!p) throw notFound('Preapproval');
  return p;
}

/** The site's preapprovals, newest first; `limit` (default 50) and `offset`. */
export function listPreapprovals(ctx: ServiceContext, site: SiteRecord, query: Record<string, unknown>): PreapprovalRecord[] {
  const limit = intParam(query, 'limit', LIST_DEFAULT, 1, LIST_MAX);
  const offset = intParam(query, 'offset', 0, 0, 2147483647);
  return ctx.store.preapprovals.list(site.siteId, limit, offset);
}

function intParam(query: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const key = Object.keys(query).find((k) => k.toLowerCase() === name);
  if (key === undefined) return fallback;
  const raw = query[key];
  const n = typeof raw === 'string' && /^[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new HttpError(400, `${name} is invalid: expected a whole number from ${min} to ${max}`);
  return n;
}

/** What a change sends of an object: its fields that are not null over the kept ones, the kept ID staying. */
function merged(kept: Json | null, sent: Json | null | undefined, complete: (o: Json) => Json | null): Json | null {
  if (sent === undefined || sent === null) return kept;
  const given = Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== null));
  return kept === null ? complete(given) : { ...kept, ...given };
}

/**
 * `PATCH /v1/preapprovals/{id}` (docs-apm.nuvei.com "Change a Preapproval"): new terms for a Pending or
 * Open preapproval, its status unchanged (so nothing is notified). What is left out, null, 0 or "" is
 * kept, as the .NET SDK sends 0 for RecurringPeriod and MethodOptionID it was not given. A closed one:
 * reason 12; another MethodID: reason 5.
 */
export function changePreapproval(ctx: ServiceContext, site: SiteRecord, rawId: string, body: unknown): PreapprovalRecord {
  const p = loadPreapproval(ctx, site, rawId);
  const schemaReasons = validateRequest(changePreapprovalRequest, body ?? {}, ctx.settings.strictFields === true);
  if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
  const input = (body as { Preapproval: Partial<PreapprovalInput> }).Preapproval;
  return ctx.store.tx(() => {
    const kept = ctx.store.preapprovals.getAny(p.id)!;
    if (kept.statusId !== PreapprovalStatus.Pending && kept.statusId !== PreapprovalStatus.Open) {
      throw new PreapprovalRejection([reason(12, `Preapproval is invalid: it is closed (${preapprovalStatusInfo(kept.statusId)}) and can no longer change`)], kept);
    }
    if (input.MethodID !== undefined && input.MethodID !== 0 && input.MethodID !== kept.methodId) {
      throw new PreapprovalRejection([reason(5, `Preapproval.MethodID is invalid: preapproval ${kept.id} is of method ${kept.methodId}; a change keeps its method`)], kept);
    }
    const mpid = input.MerchantPreapprovalID || kept.merchantPreapprovalId;
    if (mpid !== kept.merchantPreapprovalId && ctx.store.preapprovals.merchantPreapprovalIdTaken(site.siteId, mpid)) {
      throw new PreapprovalRejection([reason(20, `Preapproval.MerchantPreapprovalID is duplicated: ${mpid} was used before on site ${site.siteId}`)], kept);
    }
    const max = input.PreapprovedMaximumAmount === undefined || input.PreapprovedMaximumAmount === null ? 0n : parseAmount(input.PreapprovedMaximumAmount);
    const changed: PreapprovalRecord = {
      ...kept,
      merchantPreapprovalId: mpid,
      methodOptionId: input.MethodOptionID || kept.methodOptionId,
      recurringPeriod: input.RecurringPeriod || kept.recurringPeriod,
      preapprovedMaximumAmount: max === null || max === 0n ? kept.preapprovedMaximumAmount : max,
      currency: input.Currency || kept.currency,
      returnUrl: input.ReturnURL ?? kept.returnUrl,
      description: input.Description ?? kept.description,
      customer: merged(kept.customer, input.Customer, (c) => completeCustomer(c, ctx.store.counters.next('customer'))),
      billingAddress: merged(kept.billingAddress, input.BillingAddress, (a) => completeAddress(a, ctx.store.counters.next('address'))),
    };
    ctx.store.preapprovals.change(changed);
    return changed;
  });
}

/** `DELETE /v1/preapprovals/{id}`: the merchant closes it (ClosedByCustomer, 4), as the SDK's preapproval_close expects. */
export function closePreapproval(ctx: ServiceContext, site: SiteRecord, rawId: string): PreapprovalRecord {
  const p = loadPreapproval(ctx, site, rawId);
  return ctx.store.tx(() => applyPreapprovalEventTo(ctx, ctx.store.preapprovals.getAny(p.id)!, 'close', 'merchant closed it'));
}

/** An event on a preapproval (a scenario step, the control API, the payer page), or a refusal with reason 12. */
export function applyPreapprovalEventTo(ctx: ServiceContext, p: PreapprovalRecord, event: PreapprovalEvent, cause: string): PreapprovalRecord {
  const d = applyPreapprovalEvent(event, p.statusId);
  if (!d.ok) throw new PreapprovalRejection([reason(d.code as 12, d.info)], p);
  return movePreapproval(ctx, p, d.value, cause);
}

/**
 * The one transition of a preapproval: its status, the payer page's token (only a Pending one has
 * one), the history and the notification, in the caller's transaction.
 */
export function movePreapproval(ctx: ServiceContext, p: PreapprovalRecord, statusId: number, cause: string): PreapprovalRecord {
  const keepToken = statusId === PreapprovalStatus.Pending;
  ctx.store.preapprovals.setStatus(p.id, statusId, keepToken);
  const after: PreapprovalRecord = { ...p, statusId, token: keepToken ? p.token : null };
  recordPreapprovalStatus(ctx, after, cause);
  return after;
}

/** Control API: `POST /_sandbox/preapprovals/{id}/events`, as the provider or payer would. */
export function applyPreapprovalControlEvent(ctx: ServiceContext, rawId: string, event: PreapprovalEvent): PreapprovalRecord {
  const id = parseId(rawId);
  const p = id === null ? undefined : ctx.store.preapprovals.getAny(id);
  if (!p) throw notFound('Preapproval');
  return ctx.store.tx(() => {
    try {
      return applyPreapprovalEventTo(ctx, ctx.store.preapprovals.getAny(p.id)!, event, `provider event: ${event}`);
    } catch (e) {
      if (e instanceof Rejection) throw new HttpError(400, e.reasons.map((r) => r.Info).join('; '));
      throw e;
    }
  });
}

/** A due scenario step of a preapproval; a step that no longer fits (closed meanwhile) is skipped, with why. */
export function runPreapprovalStep(ctx: ServiceContext, preapprovalId: number, action: string): string {
  const p = ctx.store.preapprovals.getAny(preapprovalId);
  if (!p) throw new HttpError(400, `preapproval ${preapprovalId} is gone`);
  const d = applyPreapprovalEvent(action as PreapprovalEvent, p.statusId);
  if (!d.ok) throw new HttpError(400, d.info);
  return preapprovalStatusInfo(movePreapproval(ctx, p, d.value, `scenario ${p.scenario}: ${action}`).statusId);
}

/** The payer page's preapproval, by the token of its RedirectURL (`<32 hex>.<ID>`): unknown 404, no longer Pending 410. */
export function openPreapprovalPage(ctx: ServiceContext, token: string | undefined): PreapprovalRecord {
  const m = /^([0-9A-F]{32})\.([0-9]{1,16})$/.exec(token ?? '');
  const id = m ? parseId(m[2]!) : null;
  const p = id === null ? undefined : ctx.store.preapprovals.getAny(id);
  if (!m || !p || String(p.id) !== m[2]) throw new HttpError(404, 'This preapproval link is not known. It may have been mistyped.');
  if (p.token !== m[1]) {
    // Its token went when it stopped being Pending.
    if (p.statusId !== PreapprovalStatus.Pending) throw new HttpError(410, 'This preapproval has already been answered.');
    throw new HttpError(404, 'This preapproval link is not known. It may have been mistyped.');
  }
  return p;
}

/** A button of the payer page: approve (Open) or decline (Closed), once. */
export function pressPreapprovalButton(ctx: ServiceContext, token: string | undefined, action: string): PreapprovalRecord {
  const event: PreapprovalEvent | undefined = action === 'approve' ? 'open' : action === 'decline' ? 'decline' : undefined;
  if (!event) throw new HttpError(404, 'This page has no such button.');
  return ctx.store.tx(() => applyPreapprovalEventTo(ctx, openPreapprovalPage(ctx, token), event, `payer: ${action}`));
}
