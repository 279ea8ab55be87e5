// The card API ({card_base_url}/v1): card payments and their list.
import type { Router } from 'express';
import { createCardPayment, getCardPayment } from '../../services/card.service';
import { listCardPayments } from '../../services/list.service';
import { cardPaymentToWire, listToWire } from '../../wire/serializers';
import { type HttpContext, requireSite, route, siteOf } from '../pipeline';

export function mountCardRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  router.use('/v1', requireSite(ctx));

  router.post(
    '/v1/payments',
    route(ctx, 'card-payment', (req, body) => ({
      status: 201,
      body: { Payment: cardPaymentToWire(createCardPayment(s, siteOf(req), body ?? {})) },
    })),
  );

  router.get(
    '/v1/payments',
    route(ctx, 'list', (req) => {
      const page = listCardPayments(s, siteOf(req), req.query as Record<string, unknown>);
      return { status: 200, body: listToWire({ ...page, items: page.items.map(cardPaymentToWire) }) };
    }),
  );

  router.get(
    '/v1/payments/:id',
    route(ctx, 'card-payment', (req) => ({
      status: 200,
      body: { Payment: cardPaymentToWire(getCardPayment(s, siteOf(req), String(req.params.id))) },
    })),
  );
}
