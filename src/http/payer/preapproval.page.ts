// The payer page of a preapproval ({base_url}/Home/Preapproval?PreapprovalToken=…, its RedirectURL):
// the payer approves the recurring debits (Open) or declines them (Closed). Escaped HTML, no script.
import type { Request, Router } from 'express';
import { HttpError } from '../../errors/errors';
import { openPreapprovalPage, pressPreapprovalButton } from '../../services/preapprovals.service';
import { escape, money } from '../html';
import type { HttpContext } from '../pipeline';
import { sendHtml } from '../reply';

export const PREAPPROVAL_PAGE = '/Home/Preapproval';

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d2430}form{display:inline}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem;border-radius:.4rem;border:1px solid #8a94a6;background:#fff}.note{color:#5b6575;font-size:.85rem}</style></head><body>${body}</body></html>`;
}

function token(req: Request): string | undefined {
  const q = Object.entries(req.query).find(([k]) => k.toLowerCase() === 'preapprovaltoken')?.[1];
  if (typeof q === 'string') return q;
  return typeof req.body === 'string' ? (new URLSearchParams(req.body).get('PreapprovalToken') ?? undefined) : undefined;
}

export function mountPreapprovalPage(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  const refused = (e: unknown, res: Parameters<typeof sendHtml>[0]) => {
    if (!(e instanceof HttpError)) throw e;
    sendHtml(res, e.status, html('Preapproval unavailable', `<h1>Preapproval unavailable</h1><p>${escape(e.message)}</p>`));
  };

  router.get(PREAPPROVAL_PAGE, (req, res) => {
    try {
      const t = token(req);
      const p = openPreapprovalPage(s, t);
      const merchant = s.store.sites.get(p.ownerSiteId)?.name ?? 'Merchant';
      const method = s.store.methods.get(p.methodId)?.name ?? `method ${p.methodId}`;
      const max = p.preapprovedMaximumAmount === null ? 'no maximum' : `at most ${money(p.preapprovedMaximumAmount, p.currency ?? '')}`;
      const button = (action: string, label: string) =>
        `<form method="post" action="${PREAPPROVAL_PAGE}/${action}"><input type="hidden" name="PreapprovalToken" value="${escape(t!)}"><button type="submit">${label}</button></form>`;
      sendHtml(
        res,
        200,
        html(
          `Preapproval for ${merchant}`,
          `<h1>${escape(merchant)} asks to charge you again</h1><p>${escape(p.description ?? '')}</p>
<p>Preapproval <strong>${escape(p.merchantPreapprovalId)}</strong> · ${escape(method)} · ${escape(max)}</p>
<div>${button('approve', 'Approve')}${button('decline', 'Decline')}</div>
<p class="note">split-sandbox preapproval page: the buttons act as the payer would (Approve: Open; Decline: Closed).</p>`,
        ),
      );
    } catch (e) {
      refused(e, res);
    }
  });

  router.post(`${PREAPPROVAL_PAGE}/:action`, (req, res) => {
    try {
      const p = pressPreapprovalButton(s, token(req), String(req.params.action));
      res.redirect(303, p.returnUrl || '/');
    } catch (e) {
      refused(e, res);
    }
  });
}
