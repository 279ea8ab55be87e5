// A marketplace's own routes ({base_url}/_sandbox/merchants/{SiteID}/…): its reset and removal, its
// journal and fault rules. The guard lets in the control API's clients and the marketplace's own
// Basic credentials; what a route reaches is that marketplace alone.
import type { Request, Router } from 'express';
import { HttpError, notFound } from '../../errors/errors';
import { marketplaceOf, removeMarketplace, resetMarketplace } from '../../marketplaces/marketplace.service';
import { notificationPage } from '../../services/journal.service';
import { parseId } from '../../services/lookup';
import { type HttpContext, route } from '../pipeline';
import { idParam, journalPaging, notificationFilter } from './control.routes';

export function mountMarketplaceRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  /** The marketplace the path names: a 404 for an unknown one, a linked site or a plain number that is no marketplace. */
  const siteOf = (req: Request): number => marketplaceOf(s, idParam(req, 'siteId', 'Merchant')).siteId;
  const faults = () => {
    if (!s.faults) throw new HttpError(400, 'this sandbox runs without faults');
    return s.faults;
  };
  const faultId = (req: Request): number => {
    const n = parseId(String(req.params.id));
    if (n === null) throw notFound('Fault');
    return n;
  };

  router.post(
    '/_sandbox/merchants/:siteId/reset',
    route(ctx, 'message', (req) => {
      const site = siteOf(req);
      resetMarketplace(s, site);
      return { status: 200, body: { Status: 'reset', SiteID: site } };
    }),
  );

  router.delete(
    '/_sandbox/merchants/:siteId',
    route(ctx, 'message', (req) => {
      removeMarketplace(s, siteOf(req));
      return { status: 204 };
    }),
  );

  router.get(
    '/_sandbox/merchants/:siteId/notifications',
    route(ctx, 'message', (req) => {
      const site = siteOf(req);
      return { status: 200, body: notificationPage(s, { ...notificationFilter(req), siteId: site }, journalPaging(req)) };
    }),
  );

  router.post(
    '/_sandbox/merchants/:siteId/faults',
    route(ctx, 'message', (req, body) => {
      const site = siteOf(req);
      return { status: 201, body: { Fault: faults().add(body, site) } };
    }),
  );

  router.get('/_sandbox/merchants/:siteId/faults', route(ctx, 'message', (req) => ({ status: 200, body: { Faults: faults().list(siteOf(req)) } })));

  router.delete(
    '/_sandbox/merchants/:siteId/faults',
    route(ctx, 'message', (req) => {
      faults().clear(siteOf(req));
      return { status: 204 };
    }),
  );

  router.delete(
    '/_sandbox/merchants/:siteId/faults/:id',
    route(ctx, 'message', (req) => {
      if (!faults().remove(faultId(req), siteOf(req))) throw notFound('Fault');
      return { status: 204 };
    }),
  );
}
