// The sandbox's own control API ({base_url}/_sandbox): health, merchants, provider events.
import type { Router } from 'express';
import { Rejection } from '../../errors/errors';
import type { PaymentEvent } from '../../domain/payment.machine';
import { paymentEventRequest } from '../../schemas/requests';
import { validate } from '../../schemas/validator';
import { applyPaymentEvent } from '../../services/events.service';
import { listMerchants } from '../../services/merchants.service';
import { paymentToWire } from '../../wire/serializers';
import { type HttpContext, route, wireOf } from '../pipeline';

export function mountControlRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;

  router.get(
    '/_sandbox/health',
    route(ctx, 'message', () => ({
      status: 200,
      body: { Status: 'ok', BaseURL: ctx.urls.baseUrl, CardBaseURL: ctx.urls.cardBaseUrl },
    })),
  );

  router.get(
    '/_sandbox/merchants',
    route(ctx, 'message', () => ({ status: 200, body: { Merchants: listMerchants(s) } })),
  );

  router.post(
    '/_sandbox/payments/:id/events',
    route(ctx, 'message', (req, body) => {
      const problems = validate(paymentEventRequest, body ?? {});
      if (problems.length > 0) throw new Rejection(problems);
      const event = (body as { Event: PaymentEvent }).Event;
      const view = applyPaymentEvent(s, String(req.params.id), event);
      return { status: 200, body: { Payment: paymentToWire(view, wireOf(ctx)) } };
    }),
  );
}
