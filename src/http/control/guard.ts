// Who may use the control API: whoever sends `Authorization: Bearer <token>` when there is a token,
// and the clients `--control-from` names without one (by default: this machine, loopback, when there
// is no token; nobody when there is). Health stays open for readiness checks.
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { sendJson } from '../reply';
import { clientTest } from './networks';

/** The control path anyone may call: health, for readiness checks (the document marks it open). */
export const UNGUARDED_CONTROL_PATH = /^\/_sandbox\/health\/?$/i;

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function controlGuard(token: string | undefined, from?: readonly string[]) {
  const trusted = clientTest(from ?? (token === undefined ? ['loopback'] : []));
  return (req: Request, res: Response, next: NextFunction) => {
    if (UNGUARDED_CONTROL_PATH.test(req.baseUrl + req.path)) return next();
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
