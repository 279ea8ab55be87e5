// A marketplace's own routes to its payments ({base_url}/_sandbox/merchants/{SiteID}/payments/…,
// /refunds/…, /disputes/…, /notifications/…, /replay): what its dashboard offers, for its Basic
// credentials as for the control API's clients. Another marketplace's payment is a 404 as for one
// that does not exist.
import type { Request, Router } from 'express';
import type { PaymentEvent } from '../../domain/payment.machine';
import { HttpError } from '../../errors/errors';
import { ownDisputeId, ownNotification, ownPayment, ownRefund } from '../../marketplaces/own-payments';
import { disputeEventRequest, paymentEventRequest, refundEventRequest } from '../../schemas/control';
import type { ServiceContext } from '../../services/context';
import { resolveDispute } from '../../services/disputes.service';
import { notificationView, redeliverNotification } from '../../services/journal.service';
import { applyRefundEvent } from '../../services/refunds.service';
import type { SiteRecord } from '../../store/records';
import { replayStory, storyOf } from '../../stories/story.service';
import { disputeToWire } from '../../wire/card-objects';
import { refundToWire } from '../../wire/serializers';
import { type HttpContext, route, routeAsync } from '../pipeline';
import { checked, inspectedPayment, paymentEventAnswer } from './control.routes';
import { storyAttachment } from './reproduce.routes';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `siteOf` gives the marketplace the path names (a 404 for any other). */
export function mountOwnPaymentRoutes(router: Router, ctx: HttpContext, siteOf: (req: Request) => SiteRecord): void {
  const s = ctx.services;
  /** The services as the marketplace's work sees them (its own clock, when it has one). */
  const servicesOf = (site: SiteRecord): ServiceContext => s.forSite?.(site.siteId) ?? s;
  const param = (req: Request, name: string) => String(req.params[name]);

  router.get(
    '/_sandbox/merchants/:siteId/payments/:id',
    route(ctx, 'message', (req) => {
      const id = ownPayment(s, siteOf(req), param(req, 'id')).payment.id;
      return { status: 200, body: inspectedPayment(ctx, req, id) };
    }),
  );

  router.get(
    '/_sandbox/merchants/:siteId/payments/:id/story',
    routeAsync(ctx, 'message', async (req, _body, res) => {
      const story = storyOf(s, ownPayment(s, siteOf(req), param(req, 'id')).payment.id);
      storyAttachment(res, story);
      return { status: 200, json: JSON.stringify(story, null, 2) + '\n' };
    }),
  );

  router.post(
    '/_sandbox/merchants/:siteId/payments/:id/events',
    route(ctx, 'message', (req, body) => {
      const site = siteOf(req);
      // The payment is looked for first: another's is a 404 whatever the body says.
      const id = ownPayment(s, site, param(req, 'id')).payment.id;
      const { Event } = checked<{ Event: PaymentEvent | 'dispute' | 'challenge' }>(paymentEventRequest, body);
      return { status: 200, body: paymentEventAnswer(ctx, req, servicesOf(site), id, Event) };
    }),
  );

  router.post(
    '/_sandbox/merchants/:siteId/refunds/:id/events',
    route(ctx, 'message', (req, body) => {
      const site = siteOf(req);
      const refund = ownRefund(s, site, param(req, 'id'));
      const { Event } = checked<{ Event: 'succeed' | 'fail' }>(refundEventRequest, body);
      return { status: 200, body: { Refund: refundToWire(applyRefundEvent(servicesOf(site), refund.id, Event)) } };
    }),
  );

  router.post(
    '/_sandbox/merchants/:siteId/disputes/:id/events',
    route(ctx, 'message', (req, body) => {
      const site = siteOf(req);
      const id = ownDisputeId(s, site, param(req, 'id'));
      const { Event } = checked<{ Event: 'win' | 'lose' }>(disputeEventRequest, body);
      const done = resolveDispute(servicesOf(site), id, Event, site.siteId);
      return { status: 200, body: { Dispute: disputeToWire(done.dispute, done.view.payment.methodId) } };
    }),
  );

  router.post(
    '/_sandbox/merchants/:siteId/notifications/:id/redeliver',
    route(ctx, 'message', (req) => {
      const site = siteOf(req);
      const n = ownNotification(s, site, param(req, 'id'));
      redeliverNotification(servicesOf(site), n);
      return { status: 202, body: { Notification: notificationView(s, s.store.notifications.get(n.id)!) } };
    }),
  );

  router.post(
    '/_sandbox/merchants/:siteId/replay',
    route(ctx, 'message', (req, body) => {
      const site = siteOf(req);
      if (body === undefined) throw new HttpError(400, `The request body is missing: send a story (GET /_sandbox/merchants/${site.siteId}/payments/{id}/story gives one)`);
      // Whoever's story it was, the payment is this marketplace's.
      const own = isObject(body) && (body.Story === undefined || isObject(body.Story)) ? { ...body, Story: { ...(body.Story as object | undefined), SiteID: site.siteId } } : body;
      return { status: 201, body: { PaymentID: replayStory(servicesOf(site), own).paymentId } };
    }),
  );
}
