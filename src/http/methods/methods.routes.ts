// The methods API ({base_url}/v1/methods…), what shop plugins call besides creating payments, and the
// method logos its LogoURLs point to ({base_url}/images/methods/…, open to anyone, as images are).
import type { Router } from 'express';
import { assignedMethods, getMethod, listMethods, methodsQuery } from '../../services/methods.service';
import { methodToWire } from '../../wire/methods';
import { type HttpContext, requireSite, route, siteOf, wireOf } from '../pipeline';
import { sendJson, sendSvg } from '../reply';
import { logoSvg } from './logos';

/** Mounted after the payment routes, so that payment requests do not walk past these. */
export function mountMethodRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  router.use('/v1/methods', requireSite(ctx));

  router.get(
    '/v1/methods',
    route(ctx, 'message', (req) => {
      const q = methodsQuery(req.query as Record<string, unknown>);
      return { status: 200, body: { Methods: listMethods(s, q).map((m) => methodToWire(m, wireOf(ctx, req).baseUrl, q.details)) } };
    }),
  );

  router.get(
    '/v1/methods/assigned',
    route(ctx, 'message', (req) => {
      const q = methodsQuery(req.query as Record<string, unknown>);
      return { status: 200, body: { Methods: assignedMethods(s, siteOf(req), q).map((m) => methodToWire(m, wireOf(ctx, req).baseUrl, q.details)) } };
    }),
  );

  router.get(
    '/v1/methods/:id',
    route(ctx, 'message', (req) => ({ status: 200, body: { Method: methodToWire(getMethod(s, String(req.params.id)), wireOf(ctx, req).baseUrl, true) } })),
  );

  router.get('/images/methods/:file', (req, res) => {
    const svg = logoSvg(s.store.methods.list(), `/images/methods/${String(req.params.file)}`);
    if (svg === undefined) return sendJson(res, 404, { Message: 'Logo not found.' });
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    sendSvg(res, svg);
  });
}
