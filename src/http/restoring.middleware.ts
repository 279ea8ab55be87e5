// While a snapshot is restored, requests wait for it (a bounded time) instead of reading data half
// replaced or failing to write; health answers at once, for readiness checks and monitors.
import type { NextFunction, Request, Response } from 'express';
import type { HttpContext } from './pipeline';
import { sendJson } from './reply';

/** How long a request waits for a restore under way before it is answered 503. */
export const RESTORE_WAIT_MS = 10_000;
/** What Retry-After says then, in seconds. */
const RETRY_AFTER_S = 2;

const HEALTH = /^\/_sandbox\/health\/?$/i;

export function waitWhileRestoring(ctx: HttpContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const restoring = ctx.snapshots?.restoring;
    if (!restoring || HEALTH.test(req.path)) return next();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ctx.restoreWaitMs ?? RESTORE_WAIT_MS)));
    void Promise.race([restoring.then(() => true as const), late]).then((done) => {
      clearTimeout(timer);
      if (done) return next();
      res.setHeader('Retry-After', String(RETRY_AFTER_S));
      sendJson(res, 503, { Message: 'A snapshot is being restored; try again in a moment.' });
    });
  };
}
