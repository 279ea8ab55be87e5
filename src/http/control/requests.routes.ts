// The request journal on the control API (`/_sandbox/requests`), and the same scoped to one
// marketplace (`/_sandbox/merchants/{SiteID}/requests`) as a router to mount behind whoever guards it.
import type { Request, Router } from 'express';
import { HttpError, notFound } from '../../errors/errors';
import type { HttpContext } from '../pipeline';
import { route } from '../pipeline';
import { journalPaging } from './control.routes';
import { type JournalPaging, checkedPaging } from '../../services/journal.service';
import type { RequestFilter } from '../../store/requests.repo';
import { marketplaceOf } from '../../marketplaces/marketplace.service';
import { type RequestEntry, type RequestJournal, type RequestQuery, filterOf, requestView } from '../../requests/journal';
import { ownerNote } from '../../requests/near-miss';
import type { RequestRecord } from '../../store/requests.repo';

/** The query names the journal is filtered by (any case), and how each is read. */
const INTEGERS = ['SiteID', 'PaymentID', 'RefundID', 'Status', 'ReasonCode'] as const;
const TEXTS = ['Method', 'Route', 'Path', 'Since', 'Until', 'Address'] as const;

function queryValue(req: Request, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(req.query)) if (k.toLowerCase() === lower && typeof v === 'string') return v;
  return undefined;
}

/** The filter a request's query names; a value of the wrong kind is a 400 naming it. */
export function requestQuery(req: Request): RequestQuery {
  const q: Record<string, unknown> = {};
  for (const name of INTEGERS) {
    const v = queryValue(req, name);
    if (v === undefined) continue;
    if (!/^[0-9]{1,15}$/.test(v)) throw new HttpError(400, `${name} must be a whole number`);
    q[name] = Number(v);
  }
  for (const name of TEXTS) {
    const v = queryValue(req, name);
    if (v !== undefined) q[name] = v;
  }
  for (const name of ['NearMiss', 'Unauthenticated'] as const) {
    const v = queryValue(req, name)?.toLowerCase();
    if (v === undefined) continue;
    if (v !== 'true' && v !== 'false') throw new HttpError(400, `${name} must be true or false`);
    q[name] = v === 'true';
  }
  return q as RequestQuery;
}

/** One page of entries in the notification journal's envelope: newest first unless asked otherwise. */
export function requestPage(journal: RequestJournal, f: RequestFilter, paging: JournalPaging = {}, view: (r: RequestRecord) => RequestEntry = requestView) {
  const p = checkedPaging(paging);
  const items = journal.find(f, { limit: p.PageSize, offset: (p.PageIndex - 1) * p.PageSize, descending: p.SortDirection === 'desc' });
  const total = journal.count(f);
  return {
    Requests: items.map((r) => view(r)),
    Count: items.length,
    TotalPages: Math.ceil(total / p.PageSize),
    TotalCount: total,
    PageIndex: p.PageIndex,
    PageSize: p.PageSize,
    SortDirection: p.SortDirection,
  };
}

function journalOf(ctx: HttpContext): RequestJournal {
  const journal = ctx.services.requests;
  if (!journal) throw new HttpError(400, 'the request journal is off: start the sandbox with --request-journal <n> above 0');
  return journal;
}

function entryId(req: Request): number {
  const v = String(req.params.requestId);
  if (!/^[0-9]{1,15}$/.test(v)) throw notFound('Request');
  return Number(v);
}

/** A marketplace, and its sites (itself and its linked ones). */
interface Scope {
  marketplace: number;
  sites: readonly number[];
}

/**
 * What a marketplace may see: its own entries, or (`unauthenticated`) the unauthenticated pool's
 * that claimed one of its sites; never the one among the other.
 */
function scoped(f: RequestFilter, scope: Scope): RequestFilter {
  if (f.unowned === true) return { ...f, siteIds: f.siteIds ? f.siteIds.filter((s) => scope.sites.includes(s)) : scope.sites };
  const own: RequestFilter = { ...f, owner: scope.marketplace };
  delete own.unowned;
  return own;
}

/**
 * The four journal routes under `prefix`, every filter narrowed by `scope` (the marketplace a caller
 * may see, or none for the whole journal).
 */
function mountJournal(router: Router, ctx: HttpContext, prefix: string, scope: (req: Request) => Scope | undefined): void {
  // The whole sandbox's journal may say whose a payment refused as "not yours" is; a marketplace's never does.
  const view = (req: Request) => (scope(req) === undefined ? (r: RequestRecord) => wholeView(ctx, r) : requestView);
  const filter = (req: Request): RequestFilter => {
    const f = filterOf(requestQuery(req));
    const s = scope(req);
    return s ? scoped(f, s) : f;
  };
  router.get(`${prefix}/requests`, route(ctx, 'message', (req) => ({ status: 200, body: requestPage(journalOf(ctx), filter(req), journalPaging(req), view(req)) })));
  router.get(`${prefix}/requests/count`, route(ctx, 'message', (req) => ({ status: 200, body: { Count: journalOf(ctx).count(filter(req)) } })));
  router.get(
    `${prefix}/requests/:requestId`,
    route(ctx, 'message', (req) => {
      const s = scope(req);
      const id = entryId(req);
      const unauthenticated = requestQuery(req).Unauthenticated === true;
      const [entry] = journalOf(ctx).find(s ? scoped({ id, ...(unauthenticated ? { unowned: true } : {}) }, s) : { id }, { limit: 1, offset: 0, descending: false });
      if (!entry) throw notFound('Request');
      return { status: 200, body: { Request: view(req)(entry) } };
    }),
  );
  router.delete(
    `${prefix}/requests`,
    route(ctx, 'message', (req) => {
      const s = scope(req);
      // A marketplace empties its own entries only: the pool is no one's to empty but the whole sandbox's.
      journalOf(ctx).clear(s ? { owner: s.marketplace } : {});
      return { status: 204 };
    }),
  );
}

/** An entry as the whole sandbox's journal shows it: a refused read of a payment names its owner. */
function wholeView(ctx: HttpContext, r: RequestRecord): RequestEntry {
  const entry = requestView(r);
  if (entry.NearMiss === null || entry.PaymentID === null || !entry.NearMiss.endsWith(' of yours')) return entry;
  const payment = ctx.services.store.payments.getAny(entry.PaymentID);
  return { ...entry, NearMiss: ownerNote(entry.NearMiss, entry.PaymentID, payment) };
}

/** `/_sandbox/requests`: the whole journal (behind the control guard). */
export function mountRequestRoutes(router: Router, ctx: HttpContext): void {
  mountJournal(router, ctx, '/_sandbox', () => undefined);
}

/**
 * `{prefix}/requests…` of one marketplace (`prefix` names it by `:siteId`): the entries that are the
 * marketplace's own (its credentials authenticated them, or its payer pages' presses), with the same
 * filters; with `Unauthenticated=true`, instead, those of the unauthenticated pool that claimed one of
 * its sites. A site that is not a marketplace's own is
 * a 404, as if it did not exist. Whoever may call them is decided in front of them (the control
 * guard lets in the control API's clients and the marketplace's own Basic credentials).
 */
export function mountScopedRequestRoutes(router: Router, ctx: HttpContext, prefix = '/_sandbox/merchants/:siteId'): void {
  const scopeOf = (req: Request): Scope => {
    const id = String(req.params.siteId);
    if (!/^[0-9]{1,10}$/.test(id)) throw notFound('Merchant');
    const site = marketplaceOf(ctx.services, Number(id));
    return { marketplace: site.siteId, sites: [site.siteId, ...ctx.services.store.sites.linkedTo(site.siteId).map((s) => s.siteId)] };
  };
  mountJournal(router, ctx, prefix, scopeOf);
}
