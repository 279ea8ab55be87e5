// One pipeline for every route: read the JSON body, run the handler, render errors in one place.
import type { FairTurns } from './fair-turns';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError, Rejection } from '../errors/errors';
import { reason } from '../errors/reasons';
import { MalformedJson, parseJsonBody } from '../schemas/json-body';
import { ignoredFields } from '../schemas/validator';
import { noteNearMiss } from '../requests/capture';
import { unreadFieldsNote } from '../requests/near-miss';
import type { Logger } from '../log';
import type { Scheduler } from '../scheduler/scheduler';
import type { Snapshots } from '../snapshots/snapshots';
import type { SiteSnapshots } from '../marketplaces/site-snapshots';
import type { ServiceContext } from '../services/context';
import { authenticate } from '../services/auth.service';
import { ListRejected } from '../services/list.service';
import { isStorageFailure } from '../store/failures';
import type { SiteRecord } from '../store/records';
import type { WireOptions } from '../wire/serializers';
import type { AnswerUrls } from './answer-urls';
import { type Envelope, listError, rejectionBody } from './envelopes';
import { sendJson, sendJsonText } from './reply';

export interface Reply {
  status: number;
  body?: unknown;
  /** The body already as JSON (a kept list page or payment, as its UTF-8 bytes). */
  json?: string | Buffer;
}

export interface HttpContext {
  services: ServiceContext;
  /** The sandbox's own addresses (public, else bound), known once both listeners are up. */
  urls: { baseUrl: string; cardBaseUrl: string };
  /**
   * The addresses answers name, per request (its Host header) where no public URL is set; absent,
   * answers name `urls`.
   */
  answerUrls?: AnswerUrls;
  log: Logger;
  /** When set, the control API needs `Authorization: Bearer <token>`; otherwise it answers loopback only. */
  controlToken?: string | undefined;
  /** The clients the control API answers without a token (`--control-from`); see control/guard.ts. */
  controlFrom?: readonly string[] | undefined;
  /** Time and notifications; absent in worlds where payments move only by events. */
  scheduler?: Scheduler;
  /** Turns shared fairly between marketplaces, by both addresses (made by the first app). */
  turns?: FairTurns;
  /** Named copies of the whole database; absent in worlds without a scheduler. */
  snapshots?: Snapshots;
  /** Each marketplace's own named copies of its data and clock. */
  siteSnapshots?: SiteSnapshots;
  /** How long a request waits for a restore under way before a 503 (restoring.middleware.ts). */
  restoreWaitMs?: number;
  /**
   * The OpenAPI document of an address, as `/_sandbox/openapi.json` serves it: handed in by whoever
   * builds the apps, since the document (which describes this layer) sits above it.
   */
  openApi: (surface: 'api' | 'card', serverUrl: string) => Record<string, unknown>;
}

/** The addresses an answer to `req` names (RedirectURL, BaseURL…). */
export const wireOf = (ctx: HttpContext, req: Request): WireOptions => (ctx.answerUrls === undefined ? ctx.urls : ctx.answerUrls.of(req));

// On the request itself, not in a WeakMap: an ephemeron per request in flight made every scavenge slower.
const SITE = Symbol('authenticated site');
type Authenticated = Request & { [SITE]?: SiteRecord };

/**
 * Authenticates every `/v1` request before its body is read: a request without valid credentials
 * is a 401 even when its body is malformed, as in the real (ASP.NET) service, whose authorization
 * runs before model binding.
 */
export function requireSite(ctx: HttpContext): RequestHandler {
  return (req, res, next) => {
    try {
      (req as Authenticated)[SITE] = authenticate(ctx.services, req.get('authorization'));
    } catch (e) {
      return renderError(ctx, 'message', e, undefined, res);
    }
    next();
  };
}

/** The site a request authenticated as, if it did. */
export const authenticatedSite = (req: Request): SiteRecord | undefined => (req as Authenticated)[SITE];

/** The site a request authenticated as (requireSite ran before the route). */
export function siteOf(req: Request): SiteRecord {
  const site = (req as Authenticated)[SITE];
  if (!site) throw new Error('route mounted without requireSite');
  return site;
}

/**
 * The services as the authenticated site's work sees them: its marketplace's own clock, when it has
 * one (requireSite ran before the route). A site with a key of its own linked to a marketplace (made
 * through the merchant sites API) works on that marketplace's clock.
 */
export function servicesOf(ctx: HttpContext, req: Request): ServiceContext {
  const site = siteOf(req);
  return ctx.services.forSite?.(site.marketplaceSiteId ?? site.siteId) ?? ctx.services;
}

/** The parsed body: undefined when the request has none (an empty POST is a valid capture or cancel). */
export function jsonBody(req: Request, kind: Envelope): unknown {
  const raw = req.body as unknown;
  // Reads take no body: whatever a GET carries is ignored, as the real service ignores it.
  if (req.method === 'GET' || typeof raw !== 'string' || raw.trim() === '') return undefined;
  return parseJsonBody(raw, kind !== 'message');
}

export function route(ctx: HttpContext, kind: Envelope, handler: (req: Request, body: unknown) => Reply): RequestHandler {
  return (req: Request, res: Response) => {
    let body: unknown;
    try {
      body = jsonBody(req, kind);
      const reply = handler(req, body);
      noteIgnored(res, body);
      send(res, reply);
    } catch (e) {
      noteIgnored(res, body);
      renderError(ctx, kind, e, body, res);
    }
  };
}

/** The same, for handlers that wait (clock advance, notification wait). */
export function routeAsync(ctx: HttpContext, kind: Envelope, handler: (req: Request, body: unknown, res: Response) => Promise<Reply | null>): RequestHandler {
  return async (req: Request, res: Response) => {
    let body: unknown;
    try {
      body = jsonBody(req, kind);
      const reply = await handler(req, body, res);
      noteIgnored(res, body);
      if (reply && !res.headersSent && !res.destroyed) send(res, reply);
    } catch (e) {
      noteIgnored(res, body);
      if (!res.headersSent) renderError(ctx, kind, e, body, res);
    }
  };
}

/** The members of the body the API ignored (not read; see validateRequest), as the journal's near miss. */
function noteIgnored(res: Response, body: unknown): void {
  const ignored = ignoredFields(body);
  if (ignored) noteNearMiss(res, unreadFieldsNote(ignored));
}

function send(res: Response, reply: Reply): void {
  if (reply.json !== undefined) sendJsonText(res, reply.status, reply.json);
  else if (reply.body === undefined) res.status(reply.status).end();
  else sendJson(res, reply.status, reply.body);
}

/** The answer when the database could not store a change (a full disk): nothing of it was kept. */
export const cannotSave = (e: Error) => ({ Message: `The change could not be saved: ${e.message}` });

export function renderError(ctx: HttpContext, kind: Envelope, e: unknown, body: unknown, res: Response): void {
  if (e instanceof MalformedJson) {
    e = new Rejection([reason(2, `The request body is not valid JSON: ${e.message}`)]);
  }
  if (e instanceof Rejection) {
    const id = ctx.services.ids.invalidRequestId();
    sendJson(res, 400, rejectionBody(kind, e, body, id, wireOf(ctx, res.req), res.req.params?.id as string | undefined));
  } else if (e instanceof ListRejected) {
    sendJson(res, 400, listError(e.message));
  } else if (e instanceof HttpError) {
    for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
    sendJson(res, e.status, { Message: e.message });
  } else if (isStorageFailure(e)) {
    sendJson(res, 503, cannotSave(e as Error));
  } else {
    ctx.log.error('unexpected error', { error: (e as Error)?.stack ?? String(e) });
    sendJson(res, 500, { Message: 'An error has occurred.' });
  }
}

/** Errors raised before a route runs (body too large, bad encoding): always `{"Message"}`. */
export function bodyErrors(ctx: HttpContext) {
  return (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const e = err as { type?: string; status?: number; message?: string };
    if (e.type === 'entity.too.large') return sendJson(res, 413, { Message: 'The request body is larger than 1 MiB.' });
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      return sendJson(res, e.status, { Message: e.message ?? 'The request could not be read.' });
    }
    if (isStorageFailure(err)) return sendJson(res, 503, cannotSave(err as Error));
    ctx.log.error('unexpected error', { error: (err as Error)?.stack ?? String(err) });
    return sendJson(res, 500, { Message: 'An error has occurred.' });
  };
}
