// Capturing requests into the journal: one middleware notes a request's start, answerAfterCommit
// hands over each answer as it is released (before a fault can lose it), and the entry is written once
// the answer leaves (after its write committed, with the answer that left: a 503 if the commit failed),
// or when its connection closes with no answer leaving (a lost answer, a reset).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { maskCardData, maskQuery } from '../domain/card-data';
import { siteOf as credentialsSite } from '../services/auth.service';
import type { Surface } from '../store/records';
import type { SiteRecord } from '../store/records';
import type { ServiceContext } from '../services/context';
import { BODY_CAP, type RequestJournal } from './journal';
import { type CredentialsFinding, type RouteEntry, bodyAddressNote, credentialsNote, noRouteNote, notAnIdNote, notYoursNote, otherAddressNote, routeOf } from './near-miss';

/** The requests kept: the API of both addresses (the card form is under it) and the payment page's buttons. */
const API_PATH = /^\/v1(\/|$)/i;
const PAYER_BUTTON = /^\/home\//i;
const kept = (method: string, path: string) => API_PATH.test(path) || (method === 'POST' && PAYER_BUTTON.test(path));
/**
 * Outside those, a request is kept only if no route takes it in (a wrong base path, `/v2/payments/5`):
 * never the control API's, the dashboard's or the payment page's, which are people's and the sandbox's
 * own, nor the icon a browser asks every host for.
 */
const NOT_STRAY = /^\/(_sandbox|dashboard|home)(\/|$)|^\/favicon\.ico$/i;

/** What one address's requests are captured with (the same for each of them). */
interface Capture {
  journal: RequestJournal;
  services: ServiceContext;
  surface: Surface;
  siteOf: SiteOf;
}

interface Pending {
  cx: Capture;
  req: Request;
  /** The response's own end, which endNoting calls. */
  end: Response['end'];
  /** Makes its entry (journal.later): makeEntry. */
  make: (this: Pending) => void;
  surface: Surface;
  started: number;
  /** When its answer left, or its connection closed without one (the entry is made later). */
  ended?: number;
  at: number;
  wallAt: number;
  fault: string | null;
  paymentId: number | null;
  siteId: number | null;
  /** The answer was released (status, body, route and params are its). */
  answered: boolean;
  status: number;
  body: string | Buffer | null;
  route: string | null;
  params: Record<string, string> | null;
  written: boolean;
  /** Its entry is to be made after this turn (journal.later): once is enough. */
  queued: boolean;
  nearMiss: string | null;
  /** Off the API's paths: written only once the app's last handler says no route took it in. */
  stray: boolean;
  unrouted: boolean;
}

// On the response itself, not in a WeakMap: an ephemeron per request in flight made every scavenge slower.
const PENDING = Symbol('journal entry');
type Noted = Response & { [PENDING]?: Pending };
const pendingOf = (res: Response): Pending | undefined => (res as Noted)[PENDING];

/** The site a request authenticated as, when it did (set by the pipeline). */
export type SiteOf = (req: Request) => SiteRecord | undefined;

/** The routes a request is matched against for near misses, per address: the API, the card form, the payment page. */
const ROUTES = new Map<Surface, RouteEntry[]>();
function routesOf(surface: Surface): RouteEntry[] {
  let routes = ROUTES.get(surface);
  if (!routes) {
    // Loaded on the first request that needs the list (a start answers without the catalogue).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { operations } = require('../routes/catalogue') as typeof import('../routes/catalogue');
    routes = operations(surface)
      .filter((op) => kept(op.method.toUpperCase(), op.path))
      .map((op) => ({ method: op.method.toUpperCase(), path: op.path }));
    ROUTES.set(surface, routes);
  }
  return routes;
}

/** Mount first of all: it notes the start, and catches answers that never reach answerAfterCommit. */
export function noteRequests(journal: RequestJournal, services: ServiceContext, surface: Surface, siteOf: SiteOf): RequestHandler {
  const cx: Capture = { journal, services, surface, siteOf };
  // A request costs its Pending alone: the functions it is ended, closed and written with are the same
  // for all (three closures a request, and their contexts, were some of the young generation's garbage).
  return (req: Request, res: Response, next: NextFunction) => {
    const stray = !kept(req.method, req.path);
    if (stray && NOT_STRAY.test(req.path)) return next();
    const p: Pending = {
      cx,
      req,
      end: res.end,
      make: makeEntry,
      surface,
      started: performance.now(),
      at: journal.clock.now(),
      wallAt: Date.now(),
      fault: null,
      paymentId: null,
      siteId: null,
      answered: false,
      status: 0,
      body: null,
      route: null,
      params: null,
      written: false,
      queued: false,
      nearMiss: null,
      stray,
      unrouted: false,
    };
    (res as Noted)[PENDING] = p;
    res.end = endNoting as Response['end'];
    next();
    // An answer that left during next() (a read answered at once) has its entry on the way: only one
    // still to come needs to hear of its connection closing first. Node emits 'close' in a later tick,
    // so a connection lost during next() is still heard. (A listener for every request was a sixth of
    // what a read's entry cost: the emitter's work on both sides.)
    if (p.ended === undefined) res.on('close', closed);
  };
}

/** The answer leaves here (the response's end), unless a fault lost it: its entry is written once it is on its way. */
function endNoting(this: Noted): Response {
  const p = this[PENDING]!;
  note(p.req, this, p, arguments[0], true);
  const out = (p.end as (...a: unknown[]) => Response).apply(this, arguments as unknown as unknown[]);
  p.ended = performance.now();
  // An answer the API gave (a 2xx, 3xx) is made into its entry after this turn, off its request's
  // path; a refusal's at once, so that its near miss is known to the log line at 'finish'.
  if (p.status >= 400) write(p);
  else if (!p.queued) {
    p.queued = true;
    p.cx.journal.later(p);
  }
  return out;
}

/**
 * The connection closed: an answer that left has its entry on the way already (a second one queued per
 * request was a turn's work for nothing; writing twice is refused by `written` anyway), one that did
 * not (lost, reset) has it made now.
 */
function closed(this: Noted): void {
  const p = this[PENDING]!;
  p.ended ??= performance.now();
  if (p.written || p.queued) return;
  p.queued = true;
  p.cx.journal.later(p);
}

function makeEntry(this: Pending): void {
  write(this);
}

/** answerAfterCommit's hook: the answer is released, to leave once its write commits (unless a fault loses it). */
export function answerReleased() {
  return (req: Request, res: Response, chunk: unknown): void => {
    const p = pendingOf(res);
    if (p) note(req, res, p, chunk);
  };
}

/** A fault shaped this request's answer (the faults middleware says which). */
export function noteFault(res: Response, text: string): void {
  const p = pendingOf(res);
  if (p) p.fault = text;
}

/** What the request came near to, found by its route (a body member the API does not read). */
export function noteNearMiss(res: Response, text: string): void {
  const p = pendingOf(res);
  if (p) p.nearMiss = text;
}

/** No route took the request in (the app's last handler, before its 404). */
export function noteUnrouted(res: Response): void {
  const p = pendingOf(res);
  if (p) p.unrouted = true;
}

/** The payment a request without an ID in its path acted on (the payer's buttons), and its site. */
export function notePayment(res: Response, paymentId: number, siteId: number): void {
  const p = pendingOf(res);
  if (p) {
    p.paymentId = paymentId;
    p.siteId = siteId;
  }
}

/** What the request came nearest to, for the log line (known once its entry is written). */
export function nearMissOf(res: Response): string | undefined {
  return pendingOf(res)?.nearMiss ?? undefined;
}

/** The answer: as released, then (`leaving`) as it leaves, which a failed commit turned into a 503. */
function note(req: Request, res: Response, p: Pending, chunk: unknown, leaving = false): void {
  if (p.answered && !leaving) return;
  const body = chunk === undefined || chunk === null ? null : typeof chunk === 'string' || Buffer.isBuffer(chunk) ? chunk : String(chunk);
  p.status = res.statusCode;
  p.body = body;
  if (p.answered) return;
  p.answered = true;
  const route = req.route as { path?: unknown } | undefined;
  p.route = typeof route?.path === 'string' ? templateOf(req.baseUrl + route.path) : null;
  // The object itself: a router that moves on gives req.params a new one rather than changing it.
  p.params = req.params as Record<string, string>;
}

/** Express's `/v1/payments/:id/capture` as the document writes it, `/v1/payments/{id}/capture` (the routes are few: kept). */
const TEMPLATES = new Map<string, string>();
function templateOf(path: string): string {
  let t = TEMPLATES.get(path);
  if (t === undefined) {
    t = path.replace(/:(\w+)/g, '{$1}');
    if (TEMPLATES.size < 1000) TEMPLATES.set(path, t);
  }
  return t;
}

/** A body up to the cap (a character cut in two at the cap becomes U+FFFD, as decoding its first bytes gives). */
function capped(body: string | Buffer, bytes: number): string | Buffer {
  if (bytes <= BODY_CAP) return body;
  const all: Buffer = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return all.subarray(0, BODY_CAP).toString('utf8');
}

const byteLength = (body: string | Buffer) => (typeof body === 'string' ? Buffer.byteLength(body) : body.length);

/** The path parameters that name something by a whole number. */
const ID_PARAMS = ['id', 'refundId', 'splitId', 'captureId', 'methodId'] as const;

function idParam(v: string | undefined): number | null {
  return v !== undefined && /^[0-9]{1,15}$/.test(v) ? Number(v) : null;
}

function write(p: Pending): void {
  const { req, cx } = p;
  const { journal, services, siteOf } = cx;
  if (p.written) return;
  p.written = true;
  if (p.stray && !p.unrouted) {
    p.body = null;
    p.params = null;
    return;
  }
  try {
    const queryAt = req.originalUrl.indexOf('?');
    const path = queryAt < 0 ? req.originalUrl : req.originalUrl.slice(0, queryAt);
    const method = req.method.toUpperCase();
    const status = p.answered ? p.status : null;
    // A request no route took in was never authenticated: its credentials still say whose it is.
    const site = siteOf(req) ?? (p.route === null ? credentialsSite(services, req.get('authorization')) : undefined);
    const params = p.params ?? {};
    let route = p.route;
    let siteId = site?.siteId ?? p.siteId;
    let nearMiss: string | null = p.nearMiss;
    if (status === 401 && !site) {
      const finding = explainCredentials(services, req.get('authorization'));
      if ('siteId' in finding) siteId = finding.siteId;
      nearMiss = credentialsNote(finding);
      route ??= routeOf(routesOf(p.surface), method, path)?.path ?? null;
    } else if (status === 404 && route === null && p.fault === null) {
      nearMiss = noRouteNote(method, path, p.surface, routesOf(p.surface), routesOf(p.surface === 'api' ? 'card' : 'api'));
    }
    // `{id}` is a payment's on the payment routes only (a method's on /v1/methods/{id}).
    let paymentId = (route?.startsWith('/v1/payments/') ? idParam(params.id) : null) ?? p.paymentId;
    let refundId = idParam(params.refundId);
    let splitId = idParam(params.splitId);
    if (status === 404 && route !== null && p.fault === null) {
      const notId = ID_PARAMS.find((name) => params[name] !== undefined && idParam(params[name]) === null);
      if (notId !== undefined) nearMiss = notAnIdNote(method, path, route, notId, params[notId]!);
      else if (paymentId !== null && site && route.startsWith('/v1/payments/')) {
        const payment = services.store.payments.getAny(paymentId);
        if (payment && payment.ownerSiteId === site.siteId) {
          if (payment.surface !== p.surface) nearMiss = otherAddressNote(method, path, p.surface, payment.surface);
        } else nearMiss = notYoursNote(method, path, paymentId);
      }
    }
    // A create body sent to the other address: read only when refused, or when it carried a card the API ignored.
    if (method === 'POST' && route === '/v1/payments' && (status === 400 || (status === 201 && nearMiss?.includes('Payment.Card') === true))) {
      nearMiss = bodyAddressNote(method, path, p.surface, req.body) ?? nearMiss;
    }
    // The journal keeps no key: the merchant sites API's answers carry them, kept here as "…".
    const answer = p.body !== null && route !== null && route.startsWith('/v1/merchantsites') ? withoutApiKeys(p.body.toString()) : p.body;
    let reasons: number[] = [];
    // Only what makes something (201) or refuses (4xx, 5xx) is read: a read's answer never is, and a
    // created payment's or refund's ID is read off the front of its answer without parsing it.
    const made = status === 201 && answer !== null ? MADE.exec(typeof answer === 'string' ? answer : answer.toString('latin1', 0, 64)) : null;
    if (made) {
      if (made[1] === 'Payment') paymentId ??= Number(made[2]);
      else refundId ??= Number(made[2]);
    } else if (answer !== null && status !== null && (status >= 400 || (method === 'POST' && status === 201))) {
      const found = fromAnswer(answer.toString());
      reasons = found.reasons;
      paymentId ??= found.paymentId;
      refundId ??= found.refundId;
      splitId ??= found.splitId;
    }
    const { sent: sentMasked, sentBytes, query, answer: kept, answerBytes } = withoutCardData(req.body, queryAt < 0 ? null : req.originalUrl.slice(queryAt + 1), answer, status);
    const sent = sentMasked !== null && route !== null && route.startsWith('/v1/merchantsites') ? withoutApiKeys(sentMasked) : sentMasked;
    p.nearMiss = nearMiss;
    // Whose it is: the credentials' marketplace, or a payer press's payment's; a refused claim is no one's.
    const ownerSiteId = site ? marketplaceOf(site) : p.siteId === null ? null : marketplaceOf(services.store.sites.get(p.siteId));
    // Its time is its marketplace's, as its payments' are: on the marketplace's own clock when it has one.
    const ownClock = ownerSiteId === null ? undefined : services.siteClocks?.get(ownerSiteId);
    journal.add({
      at: ownClock ? ownClock.now() : p.at,
      wallAt: p.wallAt,
      address: p.surface,
      method,
      path,
      query,
      route,
      siteId,
      authenticated: site !== undefined,
      paymentId,
      refundId,
      splitId,
      status,
      reasons,
      durationMs: Math.round(((p.ended ?? performance.now()) - p.started) * 10) / 10,
      fault: p.fault,
      nearMiss,
      requestBody: sent === null ? null : capped(sent, sentBytes),
      requestBytes: sentBytes,
      responseBody: kept === null ? null : capped(kept, answerBytes),
      responseBytes: answerBytes,
      ownerSiteId,
    });
  } catch {
    // The journal never costs a request its answer. A write it failed with (a full disk) fails the
    // commit group the request's own write is in, and that answer says so.
  } finally {
    // Let go at once: the response (and with it p) stays reachable long enough after its answer for
    // the young generation to move what p holds to the old one. Held, a create's answer body and
    // params were promoted with it: 0.8 KB more a create, and three times as many full collections.
    p.body = null;
    p.params = null;
  }
}

/** The front of a created payment's or refund's answer (the serializers write the ID first). */
const MADE = /^\{"(Payment|Refund)":\{"ID":([0-9]{1,15})[,}]/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** The reason codes of an answer, and the payment, refund or split it made. */
function fromAnswer(text: string): { reasons: number[]; paymentId: number | null; refundId: number | null; splitId: number | null } {
  const out = { reasons: [] as number[], paymentId: null as number | null, refundId: null as number | null, splitId: null as number | null };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return out;
  }
  if (!isObj(v)) return out;
  const codes = (list: unknown) => {
    if (Array.isArray(list)) for (const r of list) if (isObj(r) && num(r.Code) !== null) out.reasons.push(r.Code as number);
  };
  codes(v.Reasons);
  if (isObj(v.Payment)) {
    out.paymentId = num(v.Payment.ID);
    if (isObj(v.Payment.Status)) codes(v.Payment.Status.Reasons);
  }
  if (isObj(v.Refund)) {
    out.refundId = num(v.Refund.ID);
    out.paymentId = num(v.Refund.InitialPaymentID);
    if (isObj(v.Refund.Status)) codes(v.Refund.Status.Reasons);
  }
  if (Array.isArray(v.Splits) && v.Splits.length === 1 && isObj(v.Splits[0])) out.splitId = num(v.Splits[0].ID);
  return out;
}

/** Every `"ApiKey":"…"` value of a merchant site replaced (keys are base64: no quote or backslash in one). */
function withoutApiKeys(text: string): string {
  return text.replace(/"ApiKey":"[^"\\]*"/g, '"ApiKey":"…"');
}

/**
 * What an entry keeps of the request and its answer, and their sizes as sent: card numbers masked and
 * security codes replaced (domain/card-data.ts) in the body, whatever its type and shape, and in the
 * query string. An answer is read only when it refused (4xx, 5xx) or never left: those can echo what
 * was sent (a 400's card, a 404's URI); the card API's other answers mask a card themselves.
 */
function withoutCardData(body: unknown, query: string | null, answer: string | Buffer | null, status: number | null) {
  const text = typeof body === 'string' && body !== '' ? body : null;
  const refused = answer !== null && (status === null || status >= 400);
  return {
    sent: text === null ? null : maskCardData(keptPart(text)),
    sentBytes: text === null ? 0 : Buffer.byteLength(text),
    query: query === null ? null : maskQuery(query),
    answer: refused ? maskCardData(keptPart(answer.toString())) : answer,
    answerBytes: answer === null ? 0 : byteLength(answer),
  };
}

/**
 * The front of a text that the cap keeps, and some: only that is read for card data (a body of a
 * megabyte took milliseconds). The extra characters hold a card number cut by the cap whole, even
 * written with JSON escapes (19 digits of 6 characters and their separators).
 */
function keptPart(text: string): string {
  return text.length > BODY_CAP + 256 ? text.slice(0, BODY_CAP + 256) : text;
}

/** The marketplace a site is or belongs to (null for no site). */
const marketplaceOf = (site: SiteRecord | undefined): number | null => (site === undefined ? null : (site.marketplaceSiteId ?? site.siteId));

/** Why credentials failed, without the key. */
export function explainCredentials(services: ServiceContext, header: string | undefined): CredentialsFinding {
  if (header === undefined) return { kind: 'missing' };
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return { kind: /^Basic\b/i.test(header) ? 'malformed' : 'not-basic' };
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = colon < 1 ? '' : decoded.slice(0, colon);
  if (!/^[0-9]{1,10}$/.test(id)) return { kind: 'malformed' };
  const siteId = Number(id);
  const site = services.store.sites.get(siteId);
  if (!site) return { kind: 'no-such-site', siteId };
  if (site.apiKey === null) return { kind: 'no-key', siteId };
  return { kind: 'wrong-key', siteId };
}
