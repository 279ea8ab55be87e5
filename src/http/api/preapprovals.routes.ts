// The recurring-payments API and the SDK's other reads on {base_url}/v1: preapprovals, recurring
// payments, refund types and exchange rates. Mounted after the payment routes (their /v1 guard
// authenticates these too).
import type { Request, Router } from 'express';
import { exchangeRate } from '../../services/exchange-rates.service';
import { ListRejected, queryOf } from '../../services/list.service';
import { loadPayment } from '../../services/lookup';
import { changePreapproval, closePreapproval, createPreapproval, listPreapprovals, loadPreapproval } from '../../services/preapprovals.service';
import { methodRefundTypes } from '../../services/refund-types.service';
import { createRecurringPayment } from '../../services/recurring.service';
import { refundTypesToWire } from '../../wire/refund-types';
import { preapprovalToWire } from '../../wire/preapprovals';
import { PREAPPROVAL_PAGE } from '../payer/preapproval.page';
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

/** `GET /v1/refunds/types/{methodId}/{country}/{currency}`: the refund types of a method, before any payment. */
export function mountMethodRefundTypesRoute(router: Router, ctx: HttpContext): void {
  router.get(
    '/v1/refunds/types/:methodId/:country/:currency',
    route(ctx, 'message', (req) => ({
      status: 200,
      body: { RefundTypes: methodRefundTypes(ctx.services, param(req, 'methodId'), param(req, 'country'), param(req, 'currency')) },
    })),
  );
}

export function mountPreapprovalRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  mountMethodRefundTypesRoute(router, ctx);
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

  router.patch(
    '/v1/preapprovals/:id',
    route(ctx, 'preapproval', (req, body) => {
      const wire = preapprovalToWire(changePreapproval(s, siteOf(req), param(req, 'id'), body), base(req));
      // Fidelity: a change answers 201 with a RedirectURL whatever the status (docs-apm.nuvei.com "Change a
      // Preapproval" shows an Open one with its landing page). An Open one's page says it was answered already.
      const redirect = wire.RedirectURL ?? `${base(req)}${PREAPPROVAL_PAGE}?PreapprovalToken=${s.ids.token()}.${wire.ID}`;
      return { status: 201, body: { Preapproval: { ...wire, RedirectURL: redirect } } };
    }),
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
