// The sandbox's own control API ({base_url}/_sandbox), but for health (health.routes.ts): merchants, events, clock, notifications, faults.
import type { Request, Router } from 'express';
import type { PaymentEvent } from '../../domain/payment.machine';
import { formatTimestamp } from '../../domain/time';
import { RealClock } from '../../scheduler/clock';
import { HttpError, Rejection, notFound } from '../../errors/errors';
import { disputeEventRequest, notificationWaitQuery, paymentEventRequest, refundEventRequest, clockAdvanceRequest, merchantCreateRequest, merchantPatchRequest } from '../../schemas/control';
import { validate } from '../../schemas/validator';
import { applyPaymentEvent } from '../../services/events.service';
import { openDispute, resolveDispute } from '../../services/disputes.service';
import { holdForChallenge } from '../../services/card-challenge.service';
import { captureToWire, disputeToWire } from '../../wire/card-objects';
import { type JournalPaging, notificationPage, notificationView, NOTIFICATION_STATES, paymentStory, redeliverNotification } from '../../services/journal.service';
import { parseId, reload } from '../../services/lookup';
import { createMerchant, getMerchant, listMerchants, updateMerchant } from '../../services/merchants.service';
import { applyRefundEvent } from '../../services/refunds.service';
import { resetSandbox } from '../../services/reset.service';
import type { ServiceContext } from '../../services/context';
import type { NotificationFilter, NotificationState } from '../../store/notifications.repo';
import { type PaymentView, cardPaymentToWire, paymentToWire, refundToWire } from '../../wire/serializers';
import { waitForNotification, whatWasFound } from '../../notifications/wait';
import { type HttpContext, route, routeAsync, wireOf } from '../pipeline';
import { mountFaultRoutes } from './faults.routes';

export function checked<T>(schema: Record<string, unknown>, body: unknown): T {
  const problems = validate(schema, body ?? {});
  if (problems.length > 0) throw new Rejection(problems);
  return body as T;
}

export function idParam(req: Request, name: string, what: string): number {
  const id = parseId(String(req.params[name]));
  if (id === null) throw notFound(what);
  return id;
}

/** Query values by case-insensitive name. */
function queryValue(req: Request, name: string): string | undefined {
  for (const [k, v] of Object.entries(req.query)) if (k.toLowerCase() === name.toLowerCase() && typeof v === 'string') return v;
  return undefined;
}

function intQuery(req: Request, name: string): number | undefined {
  const v = queryValue(req, name);
  if (v === undefined) return undefined;
  const n = parseId(v);
  if (n === null) throw new HttpError(400, `${name} must be a positive whole number`);
  return n;
}

export function notificationFilter(req: Request): NotificationFilter {
  const f: NotificationFilter = {};
  const paymentId = intQuery(req, 'PaymentID');
  const refundId = intQuery(req, 'RefundID');
  const preapprovalId = intQuery(req, 'PreapprovalID');
  const payoutId = intQuery(req, 'PayoutID');
  const statusId = intQuery(req, 'StatusID');
  const state = queryValue(req, 'State');
  if (paymentId !== undefined) f.paymentId = paymentId;
  if (refundId !== undefined) f.refundId = refundId;
  if (preapprovalId !== undefined) f.preapprovalId = preapprovalId;
  if (payoutId !== undefined) f.payoutId = payoutId;
  if (statusId !== undefined) f.statusId = statusId;
  if (state !== undefined) {
    if (!NOTIFICATION_STATES.includes(state as NotificationState)) {
      throw new HttpError(400, `State must be one of ${NOTIFICATION_STATES.join(', ')}`);
    }
    f.state = state as NotificationState;
  }
  return f;
}

/** PageSize, PageIndex and SortDirection of a journal request; the service says what is out of range. */
export function journalPaging(req: Request): JournalPaging {
  const whole = (name: string) => {
    const v = queryValue(req, name);
    return v === undefined ? undefined : /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN;
  };
  const p: JournalPaging = {};
  const size = whole('PageSize');
  const index = whole('PageIndex');
  const direction = queryValue(req, 'SortDirection');
  if (size !== undefined) p.PageSize = size;
  if (index !== undefined) p.PageIndex = index;
  if (direction !== undefined) p.SortDirection = direction as JournalPaging['SortDirection'];
  return p;
}

/** A payment as the control API inspects it: the payment with its scenario, refunds, history and steps (a card payment's captures and disputes too). */
export function inspectedPayment(ctx: HttpContext, req: Request, id: number) {
  const s = ctx.services;
  const payment = s.store.payments.getAny(id)!;
  const view = reload(s, id);
  return {
    Payment: paymentToWire(view, wireOf(ctx, req)),
    Scenario: payment.scenario,
    Refunds: s.store.refunds.ofPayment(id).map(refundToWire),
    ...(payment.surface === 'card'
      ? {
          Captures: s.store.captures.ofPayment(id).map(captureToWire),
          Disputes: s.store.disputes.ofPayment(id).map((d) => disputeToWire(d, payment.methodId)),
        }
      : {}),
    ...paymentStory(s, id),
  };
}

/** A provider event on payment `id`, run by `services` (its marketplace's, on its clock), and the answer's body. */
export function paymentEventAnswer(ctx: HttpContext, req: Request, services: ServiceContext, id: number, event: PaymentEvent | 'dispute' | 'challenge') {
  // A card payment is answered as the card address shows it.
  const shown = (view: PaymentView) => ({
    Payment: view.payment.surface === 'card' ? cardPaymentToWire(view.payment, wireOf(ctx, req), view.splits) : paymentToWire(view, wireOf(ctx, req)),
  });
  if (event === 'challenge') return shown(holdForChallenge(services, id));
  if (event === 'dispute') {
    const opened = openDispute(services, id);
    return { Dispute: disputeToWire(opened.dispute, opened.view.payment.methodId) };
  }
  return shown(applyPaymentEvent(services, id, event));
}

export function mountControlRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  const scheduler = () => {
    if (!ctx.scheduler) throw new HttpError(400, 'this sandbox runs without a scheduler');
    return ctx.scheduler;
  };
  /** The services as the work of a payment's marketplace sees them (its own clock, when it has one). */
  const ofPayment = (paymentId: number | undefined) => {
    const owner = paymentId === undefined ? undefined : s.store.payments.getAny(paymentId)?.ownerSiteId;
    return owner === undefined ? s : (s.forSite?.(owner) ?? s);
  };
  const clockView = () => ({
    Mode: scheduler().manual ? 'manual' : 'real',
    Now: formatTimestamp(s.clock.now()),
    NowMs: s.clock.now(),
    // How many times as fast as real time sandbox time runs; null for a manual clock (it does not run).
    Speed: s.clock instanceof RealClock ? s.clock.speed : null,
  });

  router.get(
    '/_sandbox/openapi.json',
    route(ctx, 'message', (req) => {
      const surface = queryValue(req, 'surface') ?? 'api';
      if (surface !== 'api' && surface !== 'card') throw new HttpError(400, 'surface must be api or card');
      const urls = wireOf(ctx, req);
      return { status: 200, body: ctx.openApi(surface, surface === 'api' ? urls.baseUrl : (urls.cardBaseUrl ?? urls.baseUrl)) };
    }),
  );

  router.post(
    '/_sandbox/reset',
    route(ctx, 'message', () => {
      resetSandbox(s, s.fixtures!);
      return { status: 200, body: { Status: 'reset' } };
    }),
  );

  router.get('/_sandbox/merchants', route(ctx, 'message', () => ({ status: 200, body: { Merchants: listMerchants(s) } })));

  router.post(
    '/_sandbox/merchants',
    route(ctx, 'message', (_req, body) => ({
      status: 201,
      body: { Merchant: createMerchant(s, checked<Parameters<typeof createMerchant>[1]>(merchantCreateRequest, body)) },
    })),
  );

  router.get(
    '/_sandbox/merchants/:siteId',
    route(ctx, 'message', (req) => ({ status: 200, body: { Merchant: getMerchant(s, idParam(req, 'siteId', 'Merchant')) } })),
  );

  router.patch(
    '/_sandbox/merchants/:siteId',
    route(ctx, 'message', (req, body) => {
      const patch = checked<{ NotificationURL?: string | null; DefaultScenario?: string | null }>(merchantPatchRequest, body);
      return { status: 200, body: { Merchant: updateMerchant(s, idParam(req, 'siteId', 'Merchant'), patch) } };
    }),
  );

  router.get(
    '/_sandbox/scenarios',
    route(ctx, 'message', () => ({
      status: 200,
      body: {
        Scenarios: (s.scenarios?.list() ?? []).map((x) => ({ Name: x.name, Description: x.description, Source: x.source })),
      },
    })),
  );

  router.get(
    '/_sandbox/payments/:id',
    route(ctx, 'message', (req) => {
      const id = idParam(req, 'id', 'Payment');
      if (!s.store.payments.getAny(id)) throw notFound('Payment');
      return { status: 200, body: inspectedPayment(ctx, req, id) };
    }),
  );

  router.get(
    '/_sandbox/payments/:id/history',
    route(ctx, 'message', (req) => {
      const id = idParam(req, 'id', 'Payment');
      if (!s.store.payments.getAny(id)) throw notFound('Payment');
      return { status: 200, body: { History: paymentStory(s, id).History } };
    }),
  );

  router.post(
    '/_sandbox/payments/:id/events',
    route(ctx, 'message', (req, body) => {
      const { Event } = checked<{ Event: PaymentEvent | 'dispute' | 'challenge' }>(paymentEventRequest, body);
      const id = idParam(req, 'id', 'Payment');
      return { status: 200, body: paymentEventAnswer(ctx, req, ofPayment(id), id, Event) };
    }),
  );

  router.post(
    '/_sandbox/disputes/:id/events',
    route(ctx, 'message', (req, body) => {
      const { Event } = checked<{ Event: 'win' | 'lose' }>(disputeEventRequest, body);
      const id = idParam(req, 'id', 'Dispute');
      // On the clock of the marketplace whose payment is disputed.
      const done = resolveDispute(ofPayment(s.store.disputes.get(id)?.paymentId), id, Event);
      return { status: 200, body: { Dispute: disputeToWire(done.dispute, done.view.payment.methodId) } };
    }),
  );

  router.post(
    '/_sandbox/refunds/:id/events',
    route(ctx, 'message', (req, body) => {
      const { Event } = checked<{ Event: 'succeed' | 'fail' }>(refundEventRequest, body);
      const id = idParam(req, 'id', 'Refund');
      return { status: 200, body: { Refund: refundToWire(applyRefundEvent(ofPayment(s.store.refunds.get(id)?.paymentId), id, Event)) } };
    }),
  );

  router.get('/_sandbox/clock', route(ctx, 'message', () => ({ status: 200, body: clockView() })));

  router.post(
    '/_sandbox/clock/advance',
    // Every step due on the way runs, and its notifications are delivered, before the answer.
    routeAsync(ctx, 'message', async (_req, body) => {
      const { Seconds } = checked<{ Seconds: number }>(clockAdvanceRequest, body);
      if (!scheduler().manual) throw new HttpError(400, 'the clock is real: start the sandbox with --clock manual to move it');
      await scheduler().advance(Math.round(Seconds * 1000));
      return { status: 200, body: clockView() };
    }),
  );

  router.get(
    '/_sandbox/notifications',
    route(ctx, 'message', (req) => ({ status: 200, body: notificationPage(s, notificationFilter(req), journalPaging(req)) })),
  );

  router.get(
    '/_sandbox/notifications/wait',
    routeAsync(ctx, 'message', async (req, _body, res) => {
      const q = checked<{ TimeoutMs?: string; Delivered?: 'true' | 'false' }>(notificationWaitQuery, {
        TimeoutMs: queryValue(req, 'TimeoutMs'),
        Delivered: queryValue(req, 'Delivered')?.toLowerCase(),
      });
      const timeoutMs = q.TimeoutMs === undefined ? 10_000 : Number(q.TimeoutMs);
      const delivered = q.Delivered === 'true';
      const filter = notificationFilter(req);
      // The client gave up waiting (its connection closed): stop waiting for it.
      const n = await waitForNotification(s.store, scheduler().worker, filter, timeoutMs, { delivered }, res);
      if (n) return { status: 200, body: { Notification: notificationView(s, n) } };
      if (res.destroyed) return null;
      const what = delivered ? 'was delivered' : 'reached a final state';
      return { status: 408, body: { Message: `No matching notification ${what} within ${timeoutMs} ms: ${whatWasFound(s.store, filter)}.` } };
    }),
  );

  mountFaultRoutes(router, ctx);

  router.post(
    '/_sandbox/notifications/:id/redeliver',
    route(ctx, 'message', (req) => {
      const id = idParam(req, 'id', 'Notification');
      const n = s.store.notifications.get(id);
      if (!n) throw notFound('Notification');
      redeliverNotification(ofPayment(n.paymentId ?? undefined), n);
      return { status: 202, body: { Notification: notificationView(s, s.store.notifications.get(id)!) } };
    }),
  );
}
