// The merchant dashboard at {base_url}/dashboard: sign in with SiteID and APIKey, settings, the
// payment list and one payment's page with its actions. Server-rendered HTML, every value escaped,
// forms instead of client JavaScript; it calls the same services as the API.
import type { Request, RequestHandler, Response, Router } from 'express';
import { isKnownStatus, statusInfo } from '../../domain/statuses';
import { HttpError, Rejection } from '../../errors/errors';
import { cancelPayment } from '../../services/cancel.service';
import { capturePayment, captureSplit } from '../../services/capture.service';
import {
  catalogue,
  dashboardEvent,
  merchantSettings,
  paymentDetail,
  recentRequests,
  redeliverNotification,
  saveSettings,
  sessionSite,
  signIn,
} from '../../services/dashboard.service';
import { ListRejected, listPayments } from '../../services/list.service';
import { loadAnyPayment } from '../../services/lookup';
import { refundPayment, refundSplit } from '../../services/refunds.service';
import { cancelCardPayment, captureCardPayment, captureOnCardAddress, refundCardPayment } from '../../services/card-actions.service';
import { openDispute, resolveDispute } from '../../services/disputes.service';
import { acceptChallenge, holdForChallenge, rejectChallenge } from '../../services/card-challenge.service';
import { addSplits } from '../../services/splits.service';
import type { SiteRecord } from '../../store/records';
import type { HttpContext } from '../pipeline';
import { type Session, Sessions, clearSessionCookie, sameToken, sessionId, setSessionCookie } from './session';
import { type Chrome, LIST_FILTERS, type ListFilters, layout, listPage, loginPage, messagePage, paymentPage, requestsPage, settingsPage } from './views';
import { FILTER_TIME_EXPECTED, filterTime, refusal, stamp } from './parts';
import { payoutsTable } from './card.views';
import { sendHtml, sendJsonText } from '../reply';
import { storyOf } from '../../stories/story.service';
import { storyAttachment } from '../control/reproduce.routes';
import { preapprovalsPage } from './preapprovals.view';

interface Signed {
  id: string;
  session: Session;
  site: SiteRecord;
  form: URLSearchParams;
}

const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

function send(res: Response, status: number, html: string): void {
  res.set(SECURITY_HEADERS);
  sendHtml(res, status, html);
}

const formOf = (req: Request) => new URLSearchParams(typeof req.body === 'string' ? req.body : '');

/** What a refused action says, line by line; undefined for an error that is not the merchant's. */
function readable(e: unknown): string[] | undefined {
  if (e instanceof Rejection) return e.reasons.map(refusal);
  if (e instanceof ListRejected) return [e.message];
  if (e instanceof HttpError) return [e.message];
  return undefined;
}

/** Amounts as the API takes them: a string of digits stays as typed; anything else is refused by the service. */
const field = (form: URLSearchParams, name: string) => (form.get(name) ?? '').trim();

export function mountDashboardRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  const sessions = new Sessions();

  /** The services as the signed-in marketplace's work sees them (its own clock, when it has one). */
  const siteServices = (a: Signed) => s.forSite?.(a.site.siteId) ?? s;

  const chromeOf = (a: Signed, extra: Partial<Chrome> = {}): Chrome => {
    const { flash, error } = a.session;
    a.session.flash = undefined;
    a.session.error = undefined;
    return { site: a.site, csrf: a.session.csrf, flash, error, ownTime: s.siteClocks?.get(a.site.siteId)?.now(), ...extra };
  };

  const failed = (res: Response, e: unknown, a?: Signed) => {
    ctx.log.error('dashboard error', { error: (e as Error)?.stack ?? String(e) });
    send(res, 500, messagePage('Something went wrong', 'The sandbox could not show this page; see its log.', a ? chromeOf(a) : {}));
  };

  /** Runs `handler` for a signed-in merchant; otherwise 303 to the sign-in page. POSTs must carry the session's form token. */
  const signed =
    (handler: (req: Request, res: Response, a: Signed) => void): RequestHandler =>
    (req, res) => {
      const id = sessionId(req);
      const session = sessions.get(id);
      const site = session && sessionSite(s, session.siteId);
      if (!id || !session || !site) {
        if (id && session) sessions.delete(id);
        res.set('Cache-Control', 'no-store').redirect(303, '/dashboard/login');
        return;
      }
      const a: Signed = { id, session, site, form: formOf(req) };
      if (req.method === 'POST' && !sameToken(a.form.get('csrf'), session.csrf)) {
        send(res, 403, messagePage('Form expired', 'This form was not sent from your dashboard session; reload the page and try again.', chromeOf(a)));
        return;
      }
      try {
        handler(req, res, a);
      } catch (e) {
        failed(res, e, a);
      }
    };

  // --- sign in and out

  router.get('/dashboard/login', (_req, res) => send(res, 200, loginPage()));

  router.post('/dashboard/login', (req, res) => {
    const form = formOf(req);
    const siteId = field(form, 'SiteID');
    const site = signIn(s, siteId, form.get('APIKey') ?? '');
    if (!site) {
      send(res, 401, loginPage('Sign-in failed: the SiteID is unknown or the APIKey is wrong.', siteId));
      return;
    }
    // A new id on every sign-in: a session id known before signing in is worth nothing after it.
    sessions.delete(sessionId(req));
    const { id } = sessions.create(site.siteId);
    setSessionCookie(req, res, id);
    res.set('Cache-Control', 'no-store').redirect(303, '/dashboard');
  });

  router.post(
    '/dashboard/logout',
    signed((_req, res, a) => {
      sessions.delete(a.id);
      clearSessionCookie(res);
      res.redirect(303, '/dashboard/login');
    }),
  );

  // --- settings

  router.get(
    '/dashboard/settings',
    signed((_req, res, a) => {
      try {
        send(res, 200, settingsPage(chromeOf(a), merchantSettings(s, a.site), catalogue(s)));
      } catch (e) {
        const lines = readable(e);
        if (!lines) throw e;
        send(res, 404, messagePage('No settings', `SiteID ${a.site.siteId} has no merchant settings: ${lines.join(' ')}`, chromeOf(a)));
      }
    }),
  );

  router.post(
    '/dashboard/settings',
    signed((_req, res, a) => {
      const values = { notificationUrl: a.form.get('NotificationURL') ?? '', defaultScenario: a.form.get('DefaultScenario') ?? '' };
      try {
        saveSettings(s, a.site, values);
      } catch (e) {
        const lines = readable(e);
        if (!lines) throw e;
        let page: string;
        try {
          page = settingsPage(chromeOf(a, { error: lines }), merchantSettings(s, a.site), catalogue(s), values);
        } catch {
          page = messagePage('Settings not saved', lines.join(' '), chromeOf(a));
        }
        send(res, 400, page);
        return;
      }
      a.session.flash = 'Settings saved.';
      res.redirect(303, '/dashboard/settings');
    }),
  );

  router.get(
    '/dashboard/preapprovals',
    signed((_req, res, a) => send(res, 200, preapprovalsPage(chromeOf(a), s.store, a.site.siteId))),
  );

  // --- payments

  router.get(
    '/dashboard',
    signed((req, res, a) => {
      const raw: Record<string, unknown> = {};
      const shown: ListFilters = {};
      const refused: string[] = [];
      for (const [k, v] of Object.entries(req.query)) {
        const name = LIST_FILTERS.find((n) => n.toLowerCase() === k.toLowerCase());
        if (!name || v === '') continue; // an empty form field filters nothing
        raw[k] = v;
        if (typeof v !== 'string') continue;
        shown[name] = v;
        // From and To take the times as the table shows them, not only the API's wire form.
        if (name === 'startDate' || name === 'endDate') {
          const wire = filterTime(v, name === 'endDate');
          if (wire === null) refused.push(`${name === 'startDate' ? 'From' : 'To'}: ${v} is not a time: ${FILTER_TIME_EXPECTED}.`);
          else raw[k] = wire;
        }
      }
      const cat = catalogue(s);
      if (refused.length > 0) return send(res, 400, listPage(chromeOf(a, { error: refused }), shown, cat, undefined));
      try {
        send(res, 200, listPage(chromeOf(a), shown, cat, listPayments(s, a.site, raw, shown.surface === 'card' ? 'card' : 'api')));
      } catch (e) {
        const lines = readable(e);
        if (!lines) throw e;
        send(res, 400, listPage(chromeOf(a, { error: lines }), shown, cat, undefined));
      }
    }),
  );

  router.get(
    '/dashboard/payouts',
    signed((_req, res, a) => {
      const payouts = s.store.payouts.list(a.site.siteId, {}, 100, 0);
      send(res, 200, layout('Card payouts', chromeOf(a), `<h1>Card payouts</h1><p class="note">The latest 100, newest first (POST /v1/payouts on the card address).</p>${payoutsTable(payouts)}`));
    }),
  );

  router.get(
    '/dashboard/requests',
    signed((_req, res, a) => send(res, 200, requestsPage(chromeOf(a), recentRequests(s, a.site), s.requests !== undefined))),
  );

  const notFoundPage = (res: Response, a: Signed) =>
    send(res, 404, messagePage('Payment not found', 'There is no payment with this ID among your payments.', chromeOf(a)));

  router.get(
    '/dashboard/payments/:id',
    signed((req, res, a) => {
      let detail;
      try {
        detail = paymentDetail(siteServices(a), a.site, String(req.params.id));
      } catch (e) {
        if (e instanceof HttpError && e.status === 404) return notFoundPage(res, a);
        throw e;
      }
      send(res, 200, paymentPage(chromeOf(a), detail));
    }),
  );

  /**
   * An action on a payment: 303 back to its page, done or refused, so that a reload shows the page
   * again instead of sending the action twice; the page then says what happened, once (a refused
   * action changed nothing: the services run in one transaction each).
   */
  const action = (path: string, run: (req: Request, a: Signed, paymentId: string) => string) =>
    router.post(
      `/dashboard/payments/:id${path}`,
      signed((req, res, a) => {
        let id: number;
        try {
          id = loadAnyPayment(siteServices(a), a.site, String(req.params.id)).payment.id;
        } catch (e) {
          if (e instanceof HttpError && e.status === 404) return notFoundPage(res, a);
          throw e;
        }
        try {
          a.session.flash = run(req, a, String(id));
        } catch (e) {
          const lines = readable(e);
          if (!lines) throw e;
          a.session.error = lines;
        }
        res.redirect(303, `/dashboard/payments/${id}`);
      }),
    );

  action('/events', (_req, a, id) => {
    const event = field(a.form, 'Event');
    const after = dashboardEvent(siteServices(a), a.site, id, event);
    return `Event ${event} applied: the payment is ${statusText(after.payment.statusId)}.`;
  });

  action('/capture', (_req, a, id) => {
    const after = capturePayment(siteServices(a), a.site, id, undefined);
    return `Captured in full: the payment is ${statusText(after.payment.statusId)}.`;
  });

  action('/capture-split', (_req, a, id) => {
    const amount = field(a.form, 'Amount');
    const done = captureSplit(siteServices(a), a.site, id, field(a.form, 'SplitID'), amount === '' ? undefined : amount);
    return `Split ${done.split.id} captured: the payment is ${statusText(done.view.payment.statusId)}.`;
  });

  action('/capture-per-split', (_req, a, id) => {
    const splits: { ID: number; Amount: string }[] = [];
    for (const [k, v] of a.form) {
      const m = /^Amount_([0-9]{1,16})$/.exec(k);
      if (m && v.trim() !== '') splits.push({ ID: Number(m[1]), Amount: v.trim() });
    }
    if (splits.length === 0) throw new HttpError(400, 'Give an amount for at least one split.');
    const after = capturePayment(siteServices(a), a.site, id, { Payment: { Splits: splits } });
    return `Captured per split: the payment is ${statusText(after.payment.statusId)}.`;
  });

  action('/cancel', (_req, a, id) => {
    const after = cancelPayment(siteServices(a), a.site, id);
    return `Payment ${after.payment.id} cancelled.`;
  });

  action('/refund', (_req, a, id) => {
    const description = field(a.form, 'Description');
    const refund = refundSplit(siteServices(a), a.site, id, field(a.form, 'SplitID'), {
      Refund: { Amount: field(a.form, 'Amount'), ...(description === '' ? {} : { Description: description }) },
    });
    return `Refund ${refund.id} requested on split ${refund.splitId}.`;
  });

  action('/refund-payment', (_req, a, id) => {
    const description = field(a.form, 'Description');
    const refund = refundPayment(siteServices(a), a.site, id, {
      Refund: { Amount: field(a.form, 'Amount'), ...(description === '' ? {} : { Description: description }) },
    });
    return `Refund ${refund.id} of the whole payment requested.`;
  });

  action('/card-capture', (_req, a, id) => {
    const amount = field(a.form, 'Amount');
    const splitId = field(a.form, 'SplitID');
    if (splitId !== '') {
      // One split of a marketplace card payment, as the SDK's split_capture sends it.
      const split = { ID: /^[0-9]{1,10}$/.test(splitId) ? Number(splitId) : splitId, ...(amount === '' ? {} : { Amount: amount }) };
      const done = captureOnCardAddress(siteServices(a), a.site, id, undefined, { Payment: { Split: split } });
      return `Split ${splitId} captured: the payment is ${statusText(done.view.payment.statusId)}.`;
    }
    const after = captureCardPayment(siteServices(a), a.site, id, amount === '' ? undefined : amount, undefined);
    return `Capture sent: the payment is ${statusText(after.payment.statusId)}.`;
  });

  action('/dispute', (_req, a, id) => {
    const event = field(a.form, 'Event');
    if (event === 'open') {
      const opened = openDispute(siteServices(a), Number(id));
      return `Dispute ${opened.dispute.id} opened for ${opened.dispute.amount} (minor units).`;
    }
    if (event !== 'win' && event !== 'lose') throw new HttpError(400, `Unknown dispute event "${event}": expected open, win or lose`);
    const done = resolveDispute(siteServices(a), field(a.form, 'DisputeID'), event, a.site.siteId);
    return `Dispute ${done.dispute.id} ${event === 'win' ? 'won' : 'lost'}.`;
  });

  action('/challenge', (_req, a, id) => {
    const event = field(a.form, 'Event');
    if (event === 'hold') return `Held for a fraud challenge: the payment is ${statusText(holdForChallenge(siteServices(a), Number(id)).payment.statusId)}.`;
    if (event === 'accept') return `Challenge accepted: the payment is ${statusText(acceptChallenge(siteServices(a), a.site, id).payment.statusId)}.`;
    if (event === 'reject') return `Challenge rejected: the payment is ${statusText(rejectChallenge(siteServices(a), a.site, id).payment.statusId)}.`;
    throw new HttpError(400, `Unknown challenge event "${event}": expected hold, accept or reject`);
  });

  action('/card-cancel', (_req, a, id) => {
    const after = cancelCardPayment(siteServices(a), a.site, id);
    return `Cancel sent: the payment is ${statusText(after.payment.statusId)}.`;
  });

  action('/card-refund', (_req, a, id) => {
    const description = field(a.form, 'Description');
    const splitId = field(a.form, 'SplitID');
    const refund = refundCardPayment(siteServices(a), a.site, id, {
      Refund: {
        MerchantTransactionID: field(a.form, 'MerchantTransactionID'),
        Amount: field(a.form, 'Amount'),
        ...(description === '' ? {} : { Description: description }),
        ...(splitId === '' ? {} : { SplitID: /^[0-9]{1,10}$/.test(splitId) ? Number(splitId) : splitId }),
      },
    });
    return `Refund ${refund.id} made: it is ${statusText(refund.statusId)}.`;
  });

  action('/splits', (_req, a, id) => {
    const siteId = field(a.form, 'SiteID');
    const added = addSplits(siteServices(a), a.site, id, {
      Splits: [
        {
          SiteID: /^[0-9]{1,10}$/.test(siteId) ? Number(siteId) : siteId,
          Amount: field(a.form, 'Amount'),
          MerchantTransactionID: field(a.form, 'MerchantTransactionID'),
        },
      ],
    });
    return `Split ${added.splits.map((x) => x.id).join(', ')} added.`;
  });

  action('/notifications/:notificationId/redeliver', (req, a, id) => {
    redeliverNotification(siteServices(a), a.site, id, String(req.params.notificationId));
    return `Notification ${String(req.params.notificationId)} will be sent again.`;
  });

  // --- reproducing a case: the payment's story as a file, a snapshot of the whole sandbox

  /** The signed-in merchant's payment named in the path, or undefined once a 404 page was sent. */
  const ownPayment = (req: Request, res: Response, a: Signed): number | undefined => {
    try {
      return loadAnyPayment(s, a.site, String(req.params.id)).payment.id;
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) return void notFoundPage(res, a);
      throw e;
    }
  };

  router.get(
    '/dashboard/payments/:id/story',
    signed((req, res, a) => {
      const id = ownPayment(req, res, a);
      if (id === undefined) return;
      let story;
      try {
        story = storyOf(s, id);
      } catch (e) {
        // A card payment has no story (the page offers none, a typed address may still ask).
        const lines = readable(e);
        if (!lines) throw e;
        return send(res, 400, messagePage('No story', lines.join(' '), chromeOf(a)));
      }
      res.set(SECURITY_HEADERS);
      storyAttachment(res, story);
      sendJsonText(res, 200, JSON.stringify(story, null, 2) + '\n');
    }),
  );

  router.post(
    '/dashboard/payments/:id/snapshot',
    signed((req, res, a) => {
      const id = ownPayment(req, res, a);
      if (id === undefined) return;
      const refused = (lines: string[]) => {
        a.session.error = lines;
        res.redirect(303, `/dashboard/payments/${id}`);
      };
      // The marketplace's own snapshot, in its own names: never a copy of the whole sandbox.
      if (!ctx.siteSnapshots) return refused(['This sandbox keeps no snapshots.']);
      ctx.siteSnapshots.save(a.site.siteId, field(a.form, 'Name') || `payment-${id}`).then(
        (saved) => {
          a.session.flash = `Snapshot ${saved.Name} of SiteID ${a.site.siteId} saved: ${saved.Payments} payments, its time ${stamp(saved.Created)}. Bring your marketplace back to it with: POST ${ctx.urls.baseUrl}/_sandbox/merchants/${a.site.siteId}/snapshots/${saved.Name}/restore`;
          res.redirect(303, `/dashboard/payments/${id}`);
        },
        (e: unknown) => {
          const lines = readable(e);
          if (lines) refused(lines);
          else failed(res, e, a);
        },
      );
    }),
  );

  // Anything else under /dashboard: the sign-in page for strangers, a 404 page for merchants.
  router.all(
    '/dashboard/*rest',
    signed((_req, res, a) => send(res, 404, messagePage('Page not found', 'The dashboard has no such page.', chromeOf(a)))),
  );
}

function statusText(id: number): string {
  return isKnownStatus(id) ? statusInfo(id) : String(id);
}

