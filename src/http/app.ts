// createApp: the Express app of one address ('api' or 'card'). It never listens: main.ts does.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { mountPaymentRoutes } from './api/payments.routes';
import { mountPreapprovalRoutes } from './api/preapprovals.routes';
import { mountMerchantSiteRoutes } from './api/merchant-sites.routes';
import { mountCardRoutes } from './card/card.routes';
import { mountMethodRoutes } from './methods/methods.routes';
import { mountPayerRoutes } from './payer/payer.routes';
import { mountPreapprovalPage } from './payer/preapproval.page';
import { controlGuard, refuseOwnRequests } from './control/guard';
import { type HttpContext, authenticatedSite, bodyErrors } from './pipeline';
import { answerAfterCommit, readCommitted } from './after-commit';
import { faultsOnRequests } from './faults.middleware';
import { answerReleased, nearMissOf, noteRequests, noteUnrouted } from '../requests/capture';
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
/** The dashboard's paths, likewise. */
const DASHBOARD_PATH = /^\/dashboard(\/|$)/i;

/**
 * A part of the app in a router of its own, entered only by a path of `paths`, and made (its modules
 * loaded, its routes compiled) at the first request it gets: most sandboxes of a process (each test's)
 * never open the dashboard, and many never call the control API. Its routes stay listed where a walk of
 * the app's routers looks for them (a handler's `stack`), made on that walk if not yet.
 */
function partOnFirstUse(paths: RegExp, make: (router: Router) => void): RequestHandler {
  let part: Router | undefined;
  const made = (): Router => {
    if (part === undefined) {
      // Kept only once whole: a part whose making failed is made again by the next request.
      const router = express.Router({ caseSensitive: false, strict: false });
      make(router);
      part = router;
    }
    return part;
  };
  const enter = (req: Request, res: Response, next: NextFunction) => (paths.test(req.path) ? made()(req, res, next) : next());
  return Object.defineProperty(enter, 'stack', { get: () => made().stack, enumerable: true });
}

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

  // The control API's sixty routes in a router of their own, entered only by a path under /_sandbox,
  // and mounted after the address's own routes: none of theirs takes a path under /_sandbox
  // (test/api/routing-layers.test.ts), so no request reaches another route than it would first, and
  // theirs do not go through this part's layer on their way.
  const controlPart = partOnFirstUse(CONTROL_PATH, (control) => {
    control.use('/_sandbox', controlGuard(ctx.controlToken, ctx.controlFrom, ctx.services));
    /* eslint-disable @typescript-eslint/no-require-imports */
    (require('./control/health.routes') as typeof import('./control/health.routes')).mountHealthRoute(control, ctx);
    // The rest after health, in a part of its own: a readiness check's first request (health, the
    // first route) makes only the guard and health, and the rest is made at the first request health
    // does not answer. No other route's path can match health's, so the order of routes is as it was.
    control.use(
      partOnFirstUse(CONTROL_PATH, (rest) => {
        (require('./control/control.routes') as typeof import('./control/control.routes')).mountControlRoutes(rest, ctx);
        (require('./control/marketplace.routes') as typeof import('./control/marketplace.routes')).mountMarketplaceRoutes(rest, ctx);
        (require('./control/reproduce.routes') as typeof import('./control/reproduce.routes')).mountReproduceRoutes(rest, ctx);
        const requests = require('./control/requests.routes') as typeof import('./control/requests.routes');
        requests.mountRequestRoutes(rest, ctx);
        // A marketplace's own journal, behind the guard of its own routes.
        requests.mountScopedRequestRoutes(rest, ctx);
        (require('./control/preapprovals.control') as typeof import('./control/preapprovals.control')).mountPreapprovalControlRoutes(rest, ctx);
      }),
    );
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  // The routes on the app's own router, after the chain: in a router of their own, every request would
  // go through one more router's walk (its set-up, a layer and a parsed path more, the restoring of the
  // request on the way out) before its route.
  const router = app.router;
  if (surface === 'api') {
    mountPaymentRoutes(router, ctx);
    mountPreapprovalRoutes(router, ctx);
    mountMerchantSiteRoutes(router, ctx);
    mountMethodRoutes(router, ctx);
    mountPayerRoutes(router, ctx);
    mountPreapprovalPage(router, ctx);
    router.use(controlPart);
    // Last, as before: no route above answers a path under /dashboard.
    router.use(
      partOnFirstUse(DASHBOARD_PATH, (dashboard) =>
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require('./dashboard/dashboard.routes') as typeof import('./dashboard/dashboard.routes')).mountDashboardRoutes(dashboard, ctx),
      ),
    );
  } else {
    mountCardRoutes(router, ctx);
    router.use(controlPart);
  }

  // Fidelity: the real service is ASP.NET Web API; its unmatched routes answer with this text.
  const notFound = (req: Request, res: Response) => {
    noteUnrouted(res);
    sendJson(res, 404, { Message: `No HTTP resource was found that matches the request URI '${req.originalUrl}'.` });
  };
  let routesAlone: Router | undefined;
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'OPTIONS') return notFound(req, res);
    // A router answers an OPTIONS request none of its routes answered with the methods of those whose
    // path matches, once it has gone through all its layers. This handler is a layer of the router that
    // holds the routes, so the answer is asked of a router holding only its routes (none answers
    // OPTIONS, and no middleware runs twice); what none matches is answered 404 as any other method.
    routesAlone ??= Object.assign(express.Router(), { stack: router.stack.filter((layer: { route?: unknown }) => layer.route !== undefined) });
    routesAlone(req, res, (err?: unknown) => (err === undefined || err === null ? notFound(req, res) : next(err)));
  });
  app.use(bodyErrors(ctx));
  return app;
}
