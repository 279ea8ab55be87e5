// The card API ({card_base_url}/v1): card payments, their capture, cancel, refunds and reads, the list,
// and the hosted card form of RedirectURL.
import type { Request, Router } from 'express';
import { cancelCardPayment, captureOnCardAddress, refundCardPayment } from '../../services/card-actions.service';
import { createCardPayment, getCardPayment } from '../../services/card.service';
import { acceptChallenge, rejectChallenge } from '../../services/card-challenge.service';
import { CHALLENGE_REJECTED_REASON } from '../../domain/card.machine';
import { listCardPayments } from '../../services/list.service';
import { getRefund, listRefunds } from '../../services/refunds.service';
import { captureToWire, cardRefundToWire } from '../../wire/card-objects';
import { CARD_FORM_PATH, type PaymentView, cardPaymentToWire, listToWire, refundStatusToWire, splitToWire } from '../../wire/serializers';
import { mountCardObjectRoutes } from './card-objects.routes';
import { mountPayerRoutes } from '../payer/payer.routes';
import { type HttpContext, requireSite, route, siteOf, wireOf, servicesOf } from '../pipeline';
import { queryParam } from '../query';

const param = (req: Request, name: string) => String(req.params[name]);

export function mountCardRoutes(router: Router, ctx: HttpContext): void {
  const card = (req: Request, view: PaymentView) => ({ Payment: cardPaymentToWire(view.payment, wireOf(ctx, req), view.splits) });
  // The hosted card form is the payer's page, reached without the merchant's credentials.
  mountPayerRoutes(router, ctx, { path: CARD_FORM_PATH, surface: 'card' });
  router.use('/v1', requireSite(ctx));

  router.post(
    '/v1/payments',
    route(ctx, 'card-payment', (req, body) => ({ status: 201, body: card(req, createCardPayment(servicesOf(ctx, req), siteOf(req), body ?? {})) })),
  );

  router.get(
    '/v1/payments',
    route(ctx, 'list', (req) => {
      const page = listCardPayments(servicesOf(ctx, req), siteOf(req), req.query as Record<string, unknown>);
      return { status: 200, body: listToWire({ ...page, items: page.items.map((p) => cardPaymentToWire(p, wireOf(ctx, req))) }) };
    }),
  );

  router.get(
    '/v1/payments/:id',
    route(ctx, 'card-payment', (req) => ({ status: 200, body: card(req, getCardPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) })),
  );

  router.get(
    '/v1/payments/:id/status',
    route(ctx, 'card-payment', (req) => ({ status: 200, body: card(req, getCardPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) })),
  );

  // Fidelity: the PHP SDK's card payment_status asks for `/statuss` (sic); it is answered as the status.
  router.get(
    '/v1/payments/:id/statuss',
    route(ctx, 'card-payment', (req) => ({ status: 200, body: card(req, getCardPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) })),
  );

  router.post(
    '/v1/payments/:id/capture',
    route(ctx, 'card-payment', (req, body) => {
      const done = captureOnCardAddress(servicesOf(ctx, req), siteOf(req), param(req, 'id'), queryParam(req, 'amount'), body);
      const answer = card(req, done.view);
      // A split's capture shows the split it captured, with that capture (its ID is what a split refund names as CaptureID).
      if (done.split && done.capture) {
        answer.Payment.Split = { ...splitToWire(done.split, done.view.payment.currency), CaptureDetails: captureToWire(done.capture) };
      }
      return { status: 200, body: answer };
    }),
  );

  router.post(
    '/v1/payments/:id/cancel',
    route(ctx, 'card-payment', (req) => ({ status: 200, body: card(req, cancelCardPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) })),
  );

  router.post(
    '/v1/payments/:id/challenge/accept',
    route(ctx, 'card-payment', (req) => ({ status: 200, body: card(req, acceptChallenge(servicesOf(ctx, req), siteOf(req), param(req, 'id'))) })),
  );

  router.post(
    '/v1/payments/:id/challenge/reject',
    route(ctx, 'card-payment', (req) => {
      const answer = card(req, rejectChallenge(servicesOf(ctx, req), siteOf(req), param(req, 'id')));
      // Fidelity: the real host answers a rejected challenge 400, with the payment now Cancelled and its
      // return code 118 (SDK-NET RejectChallengeTests, CardReturnCodeId.ChallengeRejected); later reads show it without.
      const status = answer.Payment.Status as { Reasons: unknown[] };
      status.Reasons = [{ ...CHALLENGE_REJECTED_REASON }];
      return { status: 400, body: answer };
    }),
  );

  router.post(
    '/v1/payments/:id/refunds',
    route(ctx, 'refund', (req, body) => ({
      status: 201,
      body: { Refund: cardRefundToWire(refundCardPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'), body ?? {})) },
    })),
  );

  router.post(
    '/v1/payments/:id/splits/:splitId/refunds',
    route(ctx, 'refund', (req, body) => ({
      status: 201,
      body: { Refund: cardRefundToWire(refundCardPayment(servicesOf(ctx, req), siteOf(req), param(req, 'id'), body ?? {}, param(req, 'splitId'))) },
    })),
  );

  router.get(
    '/v1/payments/:id/refunds',
    route(ctx, 'refund', (req) => ({ status: 200, body: { Refunds: listRefunds(servicesOf(ctx, req), siteOf(req), param(req, 'id'), 'card').map(cardRefundToWire) } })),
  );

  router.get(
    '/v1/payments/:id/refunds/:refundId',
    route(ctx, 'refund', (req) => ({
      status: 200,
      body: { Refund: cardRefundToWire(getRefund(servicesOf(ctx, req), siteOf(req), param(req, 'id'), param(req, 'refundId'), 'card')) },
    })),
  );

  // Fidelity: SDK-NET's RefundService.GetRefundStatusAsync (its test runs on the card host); Reasons an array, as on every card item.
  router.get(
    '/v1/payments/:id/refunds/:refundId/status',
    route(ctx, 'refund', (req) => ({
      status: 200,
      body: { Refund: refundStatusToWire(getRefund(servicesOf(ctx, req), siteOf(req), param(req, 'id'), param(req, 'refundId'), 'card'), []) },
    })),
  );

  mountCardObjectRoutes(router, ctx);
}
