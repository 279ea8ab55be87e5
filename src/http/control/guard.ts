// Who may use the control API: with a token, whoever sends `Authorization: Bearer <token>`;
// without one, only clients on this machine (loopback). Health stays open for readiness checks.
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { sendJson } from '../reply';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function controlGuard(token: string | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (/^\/_sandbox\/health\/?$/i.test(req.baseUrl + req.path)) return next();
    if (token !== undefined) {
      const m = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
      if (m && sameText(m[1]!, token)) return next();
      res.setHeader('WWW-Authenticate', 'Bearer');
      sendJson(res, 401, { Message: 'The control API needs Authorization: Bearer <control token>.' });
      return;
    }
    if (LOOPBACK.test(req.socket.remoteAddress ?? '')) return next();
    sendJson(res, 403, { Message: 'The control API answers only on this machine; start the sandbox with --control-token to use it from elsewhere.' });
  };
}
