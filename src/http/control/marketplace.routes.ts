// A marketplace's own routes ({base_url}/_sandbox/merchants/{SiteID}/…): its reset and removal, its
// journal, fault rules and payments (own-payments.routes.ts). The guard lets in the control API's
// clients and the marketplace's own Basic credentials; what a route reaches is that marketplace alone.
import type { Request, Router } from 'express';
import { formatTimestamp } from '../../domain/time';
import { HttpError, notFound } from '../../errors/errors';
import { RealClock } from '../../scheduler/clock';
import { clockAdvanceRequest } from '../../schemas/control';
import { snapshotRequest } from '../../schemas/reproduce';
import { marketplaceOf, removeMarketplace, resetMarketplace } from '../../marketplaces/marketplace.service';
import { notificationPage } from '../../services/journal.service';
import { parseId } from '../../services/lookup';
import { type HttpContext, route, routeAsync } from '../pipeline';
import { checked, idParam, journalPaging, notificationFilter } from './control.routes';
import { mountOwnPaymentRoutes } from './own-payments.routes';

export function mountMarketplaceRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  /** The marketplace the path names: a 404 for an unknown one, a linked site or a plain number that is no marketplace. */
  const marketplace = (req: Request) => marketplaceOf(s, idParam(req, 'siteId', 'Merchant'));
  const siteOf = (req: Request): number => marketplace(req).siteId;
  const faults = () => {
    if (!s.faults) throw new HttpError(400, 'this sandbox runs without faults');
    return s.faults;
  };
  const faultId = (req: Request): number => {
    const n = parseId(String(req.params.id));
    if (n === null) throw notFound('Fault');
    return n;
  };

  /** The clock the marketplace's payments run on: its own (Own true), or the sandbox's. */
  const clockView = (site: number) => {
    const own = s.siteClocks?.get(site);
    const clock = own ?? s.clock;
    return {
      Mode: own || ctx.scheduler?.manual ? 'manual' : 'real',
      Own: own !== undefined,
      Now: formatTimestamp(clock.now()),
      NowMs: clock.now(),
      Speed: clock instanceof RealClock ? clock.speed : null,
    };
  };

  router.get('/_sandbox/merchants/:siteId/clock', route(ctx, 'message', (req) => ({ status: 200, body: clockView(siteOf(req)) })));

  router.post(
    '/_sandbox/merchants/:siteId/clock/advance',
    // As the sandbox's advance: every step of this marketplace due on the way runs, and its
    // notifications are delivered, before the answer. Nobody else's time moves.
    routeAsync(ctx, 'message', async (req, body) => {
      const site = siteOf(req);
      const { Seconds } = checked<{ Seconds: number }>(clockAdvanceRequest, body);
      if (!s.siteClocks?.get(site) || !ctx.scheduler) {
        throw new HttpError(400, `SiteID ${site} runs on the sandbox's clock: give it its own with PATCH /_sandbox/merchants/${site} {"Clock":"manual"}`);
      }
      await ctx.scheduler.advanceSite(site, Math.round(Seconds * 1000));
      return { status: 200, body: clockView(site) };
    }),
  );

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

  const snapshots = () => {
    if (!ctx.siteSnapshots) throw new HttpError(400, 'this sandbox keeps no snapshots');
    return ctx.siteSnapshots;
  };
  const snapshotName = (req: Request) => String(req.params.name);

  router.post(
    '/_sandbox/merchants/:siteId/snapshots',
    routeAsync(ctx, 'message', async (req, body) => {
      const site = siteOf(req);
      const { Name } = checked<{ Name: string }>(snapshotRequest, body);
      return { status: 201, body: { Snapshot: await snapshots().save(site, Name) } };
    }),
  );

  router.get('/_sandbox/merchants/:siteId/snapshots', route(ctx, 'message', (req) => ({ status: 200, body: { Snapshots: snapshots().list(siteOf(req)) } })));

  router.post(
    '/_sandbox/merchants/:siteId/snapshots/:name/restore',
    routeAsync(ctx, 'message', async (req) => {
      const site = siteOf(req);
      const restored = await snapshots().restore(site, snapshotName(req));
      return { status: 200, body: { Snapshot: restored, Clock: clockView(site) } };
    }),
  );

  router.delete(
    '/_sandbox/merchants/:siteId/snapshots/:name',
    route(ctx, 'message', (req) => {
      snapshots().remove(siteOf(req), snapshotName(req));
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

  mountOwnPaymentRoutes(router, ctx, marketplace);
}
