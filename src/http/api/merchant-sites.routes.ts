// The merchant sites API on {base_url}/v1/merchantsites (mounted after the payment routes, whose /v1
// guard authenticates these too).
import type { Request, Router } from 'express';
import {
  type MerchantSiteView,
  changeMerchantSite,
  createMerchantSite,
  deleteMerchantSite,
  getMerchantSite,
  listMerchantSites,
  regenerateMerchantSiteKey,
} from '../../services/merchant-sites.service';
import { merchantSiteToWire } from '../../wire/merchant-sites';
import { type HttpContext, route, siteOf } from '../pipeline';

const param = (req: Request, name: string) => String(req.params[name]);
const one = (v: MerchantSiteView) => ({ MerchantSite: merchantSiteToWire(v.site, v.profile) });

export function mountMerchantSiteRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  router.get(
    '/v1/merchantsites',
    route(ctx, 'merchant-site', (req) => ({ status: 200, body: { MerchantSites: listMerchantSites(s, siteOf(req)).map((v) => merchantSiteToWire(v.site, v.profile)) } })),
  );
  router.post('/v1/merchantsites', route(ctx, 'merchant-site', (req, body) => ({ status: 201, body: one(createMerchantSite(s, siteOf(req), body)) })));
  router.get('/v1/merchantsites/:siteId', route(ctx, 'merchant-site', (req) => ({ status: 200, body: one(getMerchantSite(s, siteOf(req), param(req, 'siteId'))) })));
  router.patch(
    '/v1/merchantsites/:siteId',
    route(ctx, 'merchant-site', (req, body) => ({ status: 200, body: one(changeMerchantSite(s, siteOf(req), param(req, 'siteId'), body)) })),
  );
  router.post(
    '/v1/merchantsites/:siteId/regenerateapikey',
    route(ctx, 'merchant-site', (req) => ({ status: 200, body: one(regenerateMerchantSiteKey(s, siteOf(req), param(req, 'siteId'))) })),
  );
  router.delete('/v1/merchantsites/:siteId', route(ctx, 'merchant-site', (req) => ({ status: 200, body: one(deleteMerchantSite(s, siteOf(req), param(req, 'siteId'))) })));
}
