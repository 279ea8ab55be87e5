// The recurring-payments API and the SDK's other reads on {base_url}/v1: preapprovals, recurring
// payments, refund types and exchange rates. Mounted after the payment routes (their /v1 guard
// authenticates these too).
import type { Request, Router } from 'express';
import { exchangeRate } from '../../services/exchange-rates.service';
import { ListRejected, queryOf } from '../../services/list.service';
import { loadPayment } from '../../services/lookup';
import { closePreapproval, createPreapproval, listPreapprovals, loadPreapproval } from '../../services/preapprovals.service';
import { createRecurringPayment } from '../../services/recurring.service';
import { refundTypesToWire } from '../../wire/refund-types';
import { preapprovalToWire } from '../../wire/preapprovals';
import { listItemToWire, listToWire, paymentToWire } from '../../wire/serializers';
import { type HttpContext, route, siteOf, wireOf } from '../pipeline';

const param = (req: Request, name: string) => String(req.params[name]);

/** `GET /v1/payments/{id}/refunds/types`: before the route of one refund, whose ID `types` would be taken for. */
export function mountRefundTypesRoute(router: Router, ctx: HttpContext): void {
  router.get(
    '/v1/payments/:id/refunds/types',
    route(ctx, 'message', (req) => ({
      status: 200,
      body: { RefundTypes: refundTypesToWire(loadPayment(ctx.services, siteOf(req), param(req, 'id')).payment.methodId) },
    })),
  );
}

export function mountPreapprovalRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  // As a payment's: the address the request reached (its Host), or the public URL.
  const base = (req: Request) => wireOf(ctx, req).baseUrl;

  router.post(
    '/v1/preapprovals',
    route(ctx, 'preapproval', (req, body) => {
      const p = createPreapproval(s, siteOf(req), body ?? {}, { scenario: req.get('x-sandbox-scenario') ?? null });
      return { status: 201, body: { Preapproval: preapprovalToWire(p, base(req)) } };
    }),
  );

  router.get(
    '/v1/preapprovals',
    route(ctx, 'message', (req) => ({
      status: 200,
      body: { Preapprovals: listPreapprovals(s, siteOf(req), req.query as Record<string, unknown>).map((p) => preapprovalToWire(p, base(req))) },
    })),
  );

  router.get(
    '/v1/preapprovals/:id',
    route(ctx, 'message', (req) => ({ status: 200, body: { Preapproval: preapprovalToWire(loadPreapproval(s, siteOf(req), param(req, 'id')), base(req)) } })),
  );

  router.delete(
    '/v1/preapprovals/:id',
    route(ctx, 'preapproval', (req) => ({ status: 200, body: { Preapproval: preapprovalToWire(closePreapproval(s, siteOf(req), param(req, 'id')), base(req)) } })),
  );

  router.get(
    '/v1/preapprovals/:id/payments',
    route(ctx, 'list', (req) => {
      const p = loadPreapproval(s, siteOf(req), param(req, 'id'));
      const q = queryOf(req.query as Record<string, unknown>);
      const number = (key: string, fallback: number, max: number) => {
        const v = q.get(key.toLowerCase());
        if (v === undefined) return fallback;
        if (!/^[0-9]{1,10}$/.test(v) || Number(v) < 1 || Number(v) > max) throw new ListRejected(`Invalid ${key}: expected a whole number from 1 to ${max}`);
        return Number(v);
      };
      const pageSize = number('pageSize', s.settings.pageSize, 1000);
      const pageIndex = number('pageIndex', 1, 2147483647);
      const page = s.store.payments.ofPreapproval(p.id, pageSize, (pageIndex - 1) * pageSize);
      return { status: 200, body: listToWire({ items: page.items.map((x) => listItemToWire(x, wireOf(ctx, req))), total: page.total, pageIndex, pageSize }) };
    }),
  );

  router.post(
    '/v1/payments/recurrent',
    route(ctx, 'payment', (req, body) => ({ status: 201, body: { Payment: paymentToWire(createRecurringPayment(s, siteOf(req), body ?? {}), wireOf(ctx, req)) } })),
  );

  router.get(
    '/v1/exchangerates/:from/:to',
    route(ctx, 'message', (req) => ({ status: 200, body: { ExchangeRate: exchangeRate(s, param(req, 'from'), param(req, 'to')) } })),
  );
}
