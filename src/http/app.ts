// createApp: the Express app of one address ('api' or 'card'). It never listens: main.ts does.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { mountPaymentRoutes } from './api/payments.routes';
import { mountPreapprovalRoutes } from './api/preapprovals.routes';
import { mountMerchantSiteRoutes } from './api/merchant-sites.routes';
import { mountCardRoutes } from './card/card.routes';
import { mountMethodRoutes } from './methods/methods.routes';
import { mountPayerRoutes } from './payer/payer.routes';
import { mountPreapprovalPage } from './payer/preapproval.page';
import { mountDashboardRoutes } from './dashboard/dashboard.routes';
import { mountControlRoutes } from './control/control.routes';
import { mountReproduceRoutes } from './control/reproduce.routes';
import { mountPreapprovalControlRoutes } from './control/preapprovals.control';
import { mountMarketplaceRoutes } from './control/marketplace.routes';
import { controlGuard, refuseOwnRequests } from './control/guard';
import { type HttpContext, authenticatedSite, bodyErrors } from './pipeline';
import { answerAfterCommit, readCommitted } from './after-commit';
import { faultsOnRequests } from './faults.middleware';
import { answerReleased, nearMissOf, noteRequests, noteUnrouted } from '../requests/capture';
import { mountRequestRoutes, mountScopedRequestRoutes } from './control/requests.routes';
import { readBody } from './body';
import { maskUrl } from '../domain/card-data';
import { waitWhileRestoring } from './restoring.middleware';
import { sendJson } from './reply';
import { FairTurns, fairTurns } from './fair-turns';
import { siteOf } from '../services/auth.service';
import { compileRoutesOnce } from './route-matchers';
import { chain } from './chain';

export type Surface = 'api' | 'card';

/** Whose turn a request takes: the marketplace its credentials are of ('' for none that hold). */
function marketplaceKey(ctx: HttpContext, req: Request): string {
  const site = siteOf(ctx.services, req.headers.authorization);
  return site === undefined ? '' : String(site.marketplaceSiteId ?? site.siteId);
}

export const BODY_LIMIT = 1024 * 1024;

/** The control API's paths (the router matches paths in any case, with or without a trailing slash). */
const CONTROL_PATH = /^\/_sandbox(\/|$)/i;

export function createApp(ctx: HttpContext, surface: Surface): Express {
  compileRoutesOnce();
  const app = express();
  // Which address this app serves, for whoever holds the app (the tests pick the document by it).
  app.locals.surface = surface;
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  const journal = ctx.services.requests;
  // What every request goes through before the routes, in this order, as one layer of the app (chain.ts).
  const before: RequestHandler[] = [];
  // Before all: a notification the sandbox sent to itself reaches no route, and no journal.
  before.push(refuseOwnRequests);
  // The journal before all: it sees the answers of faults and of a restore's wait too, and those that never leave.
  if (journal) before.push(noteRequests(journal, ctx.services, surface, authenticatedSite));
  before.push(waitWhileRestoring(ctx));
  // Faults first (after a restore under way): a delayed or lost answer is shaped once answerAfterCommit has seen it committed.
  before.push(faultsOnRequests(ctx, surface));
  before.push(answerAfterCommit(ctx.services.store, journal && answerReleased()));
  if (ctx.log.enabled('info')) {
    before.push((req: Request, res: Response, next) => {
      const started = performance.now();
      res.on('finish', () => {
        const ms = Number((performance.now() - started).toFixed(1));
        ctx.log.info(`${req.method} ${maskUrl(req.originalUrl)} ${res.statusCode}`, { address: surface, ms, reason: res.locals.refusal as string | undefined, nearMiss: nearMissOf(res) });
      });
      next();
    });
  }
  // Bodies are read as text whatever their content type, and parsed by the route, so that a
  // malformed body is answered in the envelope of the resource the route serves.
  before.push(readBody(BODY_LIMIT));
  before.push(readCommitted(ctx.services.store));
  // A marketplace's requests wait their turn while another's are sending (fair-turns.ts); after the
  // body is read, so that what waits is the handling, and before anything is done with the request.
  before.push(fairTurns((ctx.turns ??= new FairTurns()), (req) => marketplaceKey(ctx, req)));
  app.use(chain(before));

  const router = express.Router({ caseSensitive: false, strict: false });
  // The control API's sixty routes in a router of their own, entered only by a path under /_sandbox:
  // an API request would otherwise be matched against each of them before reaching its own.
  const control = express.Router({ caseSensitive: false, strict: false });
  control.use('/_sandbox', controlGuard(ctx.controlToken, ctx.controlFrom, ctx.services));
  mountControlRoutes(control, ctx);
  mountMarketplaceRoutes(control, ctx);
  mountReproduceRoutes(control, ctx);
  mountRequestRoutes(control, ctx);
  // A marketplace's own journal, behind the guard of its own routes.
  mountScopedRequestRoutes(control, ctx);
  mountPreapprovalControlRoutes(control, ctx);
  const enterControl = (req: Request, res: Response, next: NextFunction) => (CONTROL_PATH.test(req.path) ? control(req, res, next) : next());
  // Its routes stay listed where a walk of the app's routers looks for them (a handler's `stack`).
  router.use(Object.assign(enterControl, { stack: control.stack }));
  if (surface === 'api') {
    mountPaymentRoutes(router, ctx);
    mountPreapprovalRoutes(router, ctx);
    mountMerchantSiteRoutes(router, ctx);
    mountMethodRoutes(router, ctx);
    mountPayerRoutes(router, ctx);
    mountPreapprovalPage(router, ctx);
    mountDashboardRoutes(router, ctx);
  }
  else mountCardRoutes(router, ctx);
  app.use(router);

  // Fidelity: the real service is ASP.NET Web API; its unmatched routes answer with this text.
  app.use((req: Request, res: Response) => {
    noteUnrouted(res);
    sendJson(res, 404, { Message: `No HTTP resource was found that matches the request URI '${req.originalUrl}'.` });
  });
  app.use(bodyErrors(ctx));
  return app;
}
