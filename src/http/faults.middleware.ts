// Faults on the API channel: the one middleware that decides, before any route runs, whether a /v1
// request of either address is answered with an error status, reset, answered late or loses its
// answer, from the fault rules or from the request's own X-Sandbox-Fault header. With no rule and no
// header it costs one count and one header lookup.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Effect, RuleRefused, describeEffect, parseFaultHeader, requestFacts } from '../faults/rules';
import { noteFault } from '../requests/capture';
import { sleepUntil } from '../scheduler/clock';
import { authenticate } from '../services/auth.service';
import { answerLater, loseAnswer } from './after-commit';
import type { HttpContext } from './pipeline';
import { sendJson } from './reply';
import { maskUrl } from '../domain/card-data';

const API_PATH = /^\/v1(\/|$)/i;

/** Fidelity: the real service is ASP.NET Web API, whose unhandled errors answer with this text. */
const SERVER_ERROR = { Message: 'An error has occurred.' };
const STATUS_BODIES: Record<number, { Message: string }> = {
  429: { Message: 'Too many requests: retry after 1 second.' },
  408: { Message: 'The request timed out.' },
};

/** Mount before answerAfterCommit: Delay and LoseAnswer act on the answer once it is committed. */
export function faultsOnRequests(ctx: HttpContext, surface: string): RequestHandler {
  const faults = ctx.services.faults;
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers['x-sandbox-fault'];
    if ((faults === undefined || faults.apiRules === 0) && header === undefined) return next();
    if (!API_PATH.test(req.path)) return next();
    let effect: Effect;
    let by: string;
    let faultId: number | null = null;
    if (header !== undefined) {
      // The request's own fault: it needs no control access, and no rule is looked at.
      try {
        effect = parseFaultHeader(header as string);
      } catch (e) {
        if (!(e instanceof RuleRefused)) throw e;
        return sendJson(res, 400, { Message: e.message });
      }
      by = 'by X-Sandbox-Fault';
    } else {
      const rule = faults!.matchRequest(requestFacts(req.method, req.path), () => {
        try {
          return authenticate(ctx.services, req.get('authorization')).siteId;
        } catch {
          return null;
        }
      });
      if (!rule) return next();
      effect = rule.effect;
      faultId = rule.id;
      by = `by fault ${rule.id}`;
    }
    ctx.log.info(`${req.method} ${maskUrl(req.originalUrl)} ${describeEffect(effect)} ${by}`, { address: surface, fault: faultId ?? undefined });
    noteFault(res, `${describeEffect(effect)} ${by}`);
    faults?.told({ FaultID: faultId, Channel: 'api', Effect: describeEffect(effect), Target: `${req.method} ${req.path}` });
    switch (effect.kind) {
      case 'status':
        if (effect.status === 429) res.setHeader('Retry-After', '1');
        // A server that timed a request out does not keep its connection.
        if (effect.status === 408) res.setHeader('Connection', 'close');
        return sendJson(res, effect.status, STATUS_BODIES[effect.status] ?? SERVER_ERROR);
      case 'reset':
        req.socket.destroy();
        return;
      case 'lose-answer':
        loseAnswer(res);
        return next();
      case 'delay':
        answerLater(res, sleepUntil(ctx.services.clock, ctx.services.clock.now() + effect.ms));
        return next();
      default:
        return next();
    }
  };
}
