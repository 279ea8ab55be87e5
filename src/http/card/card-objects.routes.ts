// The card address's other objects: capture reads, the refund status by refund alone, card payouts and
// card authentications (credit card tokens). Mounted after requireSite.
import type { Request, Router } from 'express';
import { cancelCardAuth, authenticateCard, getCardAuth } from '../../services/card-auth.service';
import { cardRefundStatusOf } from '../../services/card-actions.service';
import { getCapture, listCaptures } from '../../services/card-captures.service';
import { createPayout, getPayout, listPayouts } from '../../services/payouts.service';
import {
  captureToWire,
  cardAuthToWire,
  cardRefundToWire,
  cardTokenCancelledToWire,
  cardTokenToWire,
  payoutStatusToWire,
  payoutToWire,
} from '../../wire/card-objects';
import { type HttpContext, route, servicesOf, siteOf } from '../pipeline';

const param = (req: Request, name: string) => String(req.params[name]);

export function mountCardObjectRoutes(router: Router, ctx: HttpContext): void {
  router.get(
    '/v1/payments/:id/captures',
    route(ctx, 'message', (req) => ({ status: 200, body: { Captures: listCaptures(servicesOf(ctx, req), siteOf(req), param(req, 'id')).map(captureToWire) } })),
  );
  router.get(
    '/v1/payments/:id/captures/:captureId',
    route(ctx, 'message', (req) => ({ status: 200, body: { Capture: captureToWire(getCapture(servicesOf(ctx, req), siteOf(req), param(req, 'id'), param(req, 'captureId'))) } })),
  );

  // Fidelity: the PHP SDK's refund_status names the refund alone.
  router.get(
    '/v1/refunds/:id/status',
    route(ctx, 'refund', (req) => ({ status: 200, body: { Refund: cardRefundToWire(cardRefundStatusOf(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) } })),
  );

  router.post(
    '/v1/payouts',
    route(ctx, 'payout', (req, body) => {
      const made = createPayout(servicesOf(ctx, req), siteOf(req), body ?? {});
      return { status: made.failed ? 400 : 201, body: { Payout: payoutToWire(made.payout) } };
    }),
  );
  router.get(
    '/v1/payouts',
    route(ctx, 'payout', (req) => ({ status: 200, body: { Payouts: listPayouts(servicesOf(ctx, req), siteOf(req), req.query as Record<string, unknown>).map(payoutToWire) } })),
  );
  router.get('/v1/payouts/:id', route(ctx, 'payout', (req) => ({ status: 200, body: { Payout: payoutToWire(getPayout(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) } })));
  router.get(
    '/v1/payouts/:id/status',
    route(ctx, 'payout', (req) => ({ status: 200, body: { Payout: payoutStatusToWire(getPayout(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) } })),
  );

  router.post(
    '/v1/card/authenticate',
    route(ctx, 'card-authentication', (req, body) => ({ status: 201, body: { CardAuthentication: cardAuthToWire(authenticateCard(servicesOf(ctx, req), siteOf(req), body ?? {})) } })),
  );
  router.get(
    '/v1/card/token/:token',
    route(ctx, 'card-authentication', (req) => ({ status: 200, body: { CardAuthentication: cardTokenToWire(getCardAuth(servicesOf(ctx, req), siteOf(req), param(req, 'token'))) } })),
  );
  router.post(
    '/v1/card/token/:token/cancel',
    route(ctx, 'card-authentication', (req) => ({
      status: 200,
      body: { CardAuthentication: cardTokenCancelledToWire(cancelCardAuth(servicesOf(ctx, req), siteOf(req), param(req, 'token'))) },
    })),
  );
}
