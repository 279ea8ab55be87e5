// The split-payments API ({base_url}/v1): thin handlers over the services.
import type { Request, Router } from 'express';
import { cancelPayment } from '../../services/cancel.service';
import { capturePayment, captureSplit } from '../../services/capture.service';
import { listPayments } from '../../services/list.service';
import { loadPayment } from '../../services/lookup';
import { createPayment } from '../../services/payments.service';
import { getRefund, listRefunds, refundPayment, refundSplit } from '../../services/refunds.service';
import { addSplits } from '../../services/splits.service';
import { listItemToWire, listToWire, paymentToWire, refundStatusToWire, refundToWire, splitToWire } from '../../wire/serializers';
import { PageCache } from '../page-cache';
import { type HttpContext, requireSite, route, siteOf, wireOf, servicesOf } from '../pipeline';
import { queryParam } from '../query';
import { mountRefundTypesRoute } from './preapprovals.routes';

const param = (req: Request, name: string) => String(req.params[name]);


export function mountPaymentRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  const lists = new PageCache(s.store);
  // A payment's answer is kept the same way: a payment polled for its status between changes costs a
  // lookup, not its row, its splits and their JSON.
  const payments = new PageCache(s.store);
  router.use('/v1', requireSite(ctx));

  router.post(
    '/v1/payments',
    route(ctx, 'payment', (req, body) => {
      const scenario = req.get('x-sandbox-scenario') ?? null;
      const view = createPayment(servicesOf(ctx, req), siteOf(req), body ?? {}, { scenario });
      return { status: 201, body: { Payment: paymentToWire(view, wireOf(ctx, req)) } };
    }),
  );

  router.get(
    '/v1/payments',
    route(ctx, 'list', (req) => {
      const site = siteOf(req);
      const urls = wireOf(ctx, req);
      return {
        status: 200,
        // Kept per address too: the items' RedirectURLs name the one this request came in on.
        json: lists.get(`${site.siteId} ${urls.baseUrl} ${req.originalUrl}`, () => {
          const page = listPayments(s, site, req.query as Record<string, unknown>);
          return listToWire({ ...page, items: page.items.map((p) => listItemToWire(p, urls)) });
        }),
      };
    }),
  );

  router.get(
    '/v1/payments/:id',
    route(ctx, 'payment', (req) => {
      const site = siteOf(req);
      const urls = wireOf(ctx, req);
      const id = param(req, 'id');
      return {
        status: 200,
        // Per address too (RedirectURL); a payment not found throws, and nothing is kept.
        json: payments.get(`${site.siteId} ${urls.baseUrl} ${urls.cardBaseUrl ?? ''} ${id}`, () => ({
          Payment: paymentToWire(loadPayment(servicesOf(ctx, req), site, id), urls),
        })),
      };
    }),
  );

  router.post(
    '/v1/payments/:id/splits',
    route(ctx, 'splits', (req, body) => {
      const added = addSplits(servicesOf(ctx, req), siteOf(req), param(req, 'id'), body ?? {});
      return { status: 201, body: { Splits: added.splits.map((x) => splitToWire(x, added.currency)) } };
    }),
  );

  router.post(
    '/v1/payments/:id/capture',
    route(ctx, 'payment', (req, body) => ({
      status: 200,
      body: { Payment: paymentToWire(capturePayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'), body, queryParam(req, 'amount')), wireOf(ctx, req)) },
    })),
  );

  router.post(
    '/v1/payments/:id/splits/:splitId/capture',
    route(ctx, 'payment', (req) => {
      const done = captureSplit(servicesOf(ctx, req), siteOf(req), param(req, 'id'), param(req, 'splitId'), queryParam(req, 'amount'));
      return { status: 200, body: { Payment: paymentToWire(done.view, wireOf(ctx, req), [done.split]) } };
    }),
  );

  router.post(
    '/v1/payments/:id/cancel',
    route(ctx, 'payment', (req) => ({
      status: 200,
      body: { Payment: paymentToWire(cancelPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id')), wireOf(ctx, req)) },
    })),
  );

  router.get(
    '/v1/payments/:id/status',
    route(ctx, 'payment', (req) => ({
      status: 200,
      body: { Payment: paymentToWire(loadPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id')), wireOf(ctx, req)) },
    })),
  );

  router.post(
    '/v1/payments/:id/refunds',
    route(ctx, 'refund', (req, body) => ({
      status: 201,
      body: { Refund: refundToWire(refundPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'), body ?? {})) },
    })),
  );

  router.get(
    '/v1/payments/:id/refunds',
    route(ctx, 'refund', (req) => ({ status: 200, body: { Refunds: listRefunds(servicesOf(ctx, req), siteOf(req), param(req, 'id'), 'api').map(refundToWire) } })),
  );

  mountRefundTypesRoute(router, ctx);

  router.get(
    '/v1/payments/:id/refunds/:refundId',
    route(ctx, 'refund', (req) => ({
      status: 200,
      body: { Refund: refundToWire(getRefund(servicesOf(ctx, req), siteOf(req), param(req, 'id'), param(req, 'refundId'), 'api')) },
    })),
  );

  router.get(
    '/v1/payments/:id/refunds/:refundId/status',
    route(ctx, 'refund', (req) => ({
      status: 200,
      body: { Refund: refundStatusToWire(getRefund(servicesOf(ctx, req), siteOf(req), param(req, 'id'), param(req, 'refundId'), 'api')) },
    })),
  );

  router.post(
    '/v1/payments/:id/splits/:splitId/refunds',
    route(ctx, 'refund', (req, body) => ({
      status: 201,
      body: { Refund: refundToWire(refundSplit(servicesOf(ctx, req), siteOf(req), param(req, 'id'), param(req, 'splitId'), body ?? {})) },
    })),
  );
}
