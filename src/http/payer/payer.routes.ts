// The hosted payment page at RedirectURL ({base_url}/Home?PaymentToken=…), and the hosted card form of
// card payments ({card_base_url}/v1/Payments/FillCardDetails?PaymentToken=…): what the payer sees and
// presses. Server-rendered HTML, every value escaped; it calls the same services as the API.
import type { Request, Response, Router } from 'express';
import { escape, money } from '../html';
import { type PayerPage, TokenRefused, pressButton, servicesForLink, showPayment } from '../../services/payer.service';
import type { Surface } from '../../store/records';
import type { HttpContext } from '../pipeline';
import { sendHtml } from '../reply';
import { notePayment } from '../../requests/capture';

const LABELS = { pay: 'Pay', authorize: 'Authorize', fail: 'Fail', cancel: 'Cancel' } as const;

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d2430}
h1{font-size:1.3rem}.amount{font-size:2rem;font-weight:600;margin:.5rem 0}table{width:100%;border-collapse:collapse;margin:1rem 0}
td{padding:.3rem 0;border-bottom:1px solid #e3e6eb}td:last-child{text-align:right}form{display:inline}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem;border-radius:.4rem;border:1px solid #8a94a6;background:#fff;cursor:pointer}
button.primary{background:#1d5bd6;color:#fff;border-color:#1d5bd6}.note{color:#5b6575;font-size:.85rem}`;

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** Where a payer page lives, and the payments it shows. */
export interface PayerPath {
  path: string;
  surface: Surface;
}

const HOSTED_PAGE: PayerPath = { path: '/Home', surface: 'api' };

function page(p: PayerPage, token: string, at: PayerPath): string {
  const pay = p.view.payment;
  const splits = p.view.splits
    .map((s) => `<tr><td>${escape(p.sites.get(s.siteId)?.name ?? `Site ${s.siteId}`)}</td><td>${escape(money(s.amount, pay.currency))}</td></tr>`)
    .join('');
  const buttons = p.actions
    .map(
      (a, i) =>
        `<form method="post" action="${at.path}/${a}"><input type="hidden" name="PaymentToken" value="${escape(token)}"><button type="submit"${i === 0 ? ' class="primary"' : ''} name="action" value="${a}">${LABELS[a]}</button></form>`,
    )
    .join('');
  return html(
    `Pay ${p.merchant?.name ?? ''}`,
    `<h1>${escape(p.merchant?.name ?? 'Merchant')}</h1>
<div class="amount">${escape(money(pay.amount, pay.currency))}</div>
<p>${escape(pay.description ?? '')}</p>
<p>Order <strong>${escape(pay.merchantTransactionId)}</strong> · ${escape(p.method?.name ?? 'Choose a method')}</p>
${splits ? `<table><tbody>${splits}</tbody></table>` : ''}
<div>${buttons}</div>
<p class="note">split-sandbox ${at.surface === 'card' ? 'card form: Authorize stands for a card entered and approved;' : 'payment page:'} the buttons act as the payer and the provider would. While this page is open, the payment's scenario waits for you.</p>`,
  );
}

function refused(res: Response, e: unknown): void {
  if (!(e instanceof TokenRefused)) throw e;
  sendHtml(res, e.status, html('Payment unavailable', `<h1>Payment unavailable</h1><p>${escape(e.message)}</p>`));
}

function token(req: Request): string | undefined {
  const fromQuery = Object.entries(req.query).find(([k]) => k.toLowerCase() === 'paymenttoken')?.[1];
  if (typeof fromQuery === 'string') return fromQuery;
  const form = typeof req.body === 'string' ? new URLSearchParams(req.body) : undefined;
  return form?.get('PaymentToken') ?? undefined;
}

export function mountPayerRoutes(router: Router, ctx: HttpContext, at: PayerPath = HOSTED_PAGE): void {
  router.get(at.path, (req, res) => {
    const t = token(req);
    try {
      const shown = showPayment(servicesForLink(ctx.services, t), t, at.surface);
      notePayment(res, shown.view.payment.id, shown.view.payment.ownerSiteId);
      sendHtml(res, 200, page(shown, t!, at));
    } catch (e) {
      refused(res, e);
    }
  });

  router.post(`${at.path}/:action`, (req, res) => {
    try {
      const t = token(req);
      const view = pressButton(servicesForLink(ctx.services, t), t, String(req.params.action), at.surface);
      notePayment(res, view.payment.id, view.payment.ownerSiteId);
      // Back to the merchant, as the real page does after payment.
      res.redirect(303, view.payment.returnUrl ?? '/');
    } catch (e) {
      refused(res, e);
    }
  });
}
