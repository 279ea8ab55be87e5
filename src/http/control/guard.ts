// Who may use the control API: whoever sends `Authorization: Bearer <token>` when there is a token,
// and the clients `--control-from` names without one (by default: this machine, loopback, when there
// is no token; nobody when there is). Health stays open for readiness checks. A marketplace's own
// routes (`/_sandbox/merchants/{SiteID}/…`) also answer that marketplace's Basic credentials.
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { sendJson } from '../reply';
import { authenticate } from '../../services/auth.service';
import type { ServiceContext } from '../../services/context';
import { madeByThisProcess } from '../../notifications/own-listeners';
import { clientTest } from './networks';
import { UNGUARDED_CONTROL_PATH } from '../../routes/unguarded';


function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The SiteID a path of a marketplace's own routes names (`/_sandbox/merchants/30201/reset`), or null. */
export function ownRouteSite(path: string): string | null {
  return /^\/_sandbox\/merchants\/([^/]+)(?:\/|$)/i.exec(path)?.[1] ?? null;
}

/**
 * Basic credentials on a marketplace's own route decide alone, whoever the client is: its own
 * credentials pass, any others are a 404 as if the marketplace did not exist (never its data, nor
 * a hint that it exists).
 */
function byOwnCredentials(services: ServiceContext, siteText: string, header: string): boolean {
  try {
    const site = authenticate(services, header);
    return String(site.siteId) === siteText && site.marketplaceSiteId === null;
  } catch {
    return false;
  }
}

/**
 * Every route, `/v1` and the control API alike: a request the sandbox made itself (a notification
 * pointed at its own address) is nobody's. Its address is this machine's and it carries a merchant's
 * credentials, but it is no client's: answered 403, before anything reads it.
 */
export function refuseOwnRequests(req: Request, res: Response, next: NextFunction): void {
  if (!madeByThisProcess(req.socket)) return next();
  sendJson(res, 403, { Message: 'The sandbox does not answer requests it made itself (a notification sent to its own address).' });
}

export function controlGuard(token: string | undefined, from?: readonly string[], services?: ServiceContext) {
  const trusted = clientTest(from ?? (token === undefined ? ['loopback'] : []));
  return (req: Request, res: Response, next: NextFunction) => {
    if (UNGUARDED_CONTROL_PATH.test(req.baseUrl + req.path)) return next();
    const own = services ? ownRouteSite(req.baseUrl + req.path) : null;
    const authorization = req.get('authorization') ?? '';
    if (own !== null && /^Basic /i.test(authorization)) {
      if (byOwnCredentials(services!, own, authorization)) return next();
      sendJson(res, 404, { Message: 'Merchant not found.' });
      return;
    }
    if (trusted(req.socket.remoteAddress)) return next();
    if (token !== undefined) {
      const m = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
      if (m && sameText(m[1]!, token)) return next();
      res.setHeader('WWW-Authenticate', 'Bearer');
      sendJson(res, 401, { Message: 'The control API needs Authorization: Bearer <control token>.' });
      return;
    }
    sendJson(res, 403, {
      Message:
        'The control API does not answer this client; start the sandbox with --control-token (or --control-from naming a trusted network) to use it from elsewhere.',
    });
  };
}
