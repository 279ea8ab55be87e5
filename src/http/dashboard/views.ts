// The merchant dashboard's pages: server-rendered HTML, every value escaped, forms for actions.
import { escape, money } from '../html';
import { faultRulesSection } from './faults.view';
import { requestsTable } from './requests.view';
import type { RequestEntry } from '../../requests/journal';
import type { MerchantView } from '../../services/merchants.service';
import type { Catalogue, PaymentDetail } from '../../services/dashboard.service';
import { cardActions, cardTables, wholeRefundForm } from './card.views';
import { actionButton, csrfField, eventButtons, stamp, status } from './parts';
import type { PaymentRecord, SiteRecord } from '../../store/records';
import type { ListPage } from '../../wire/serializers';


const STYLE = `*{box-sizing:border-box}body{font-family:system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:.6rem 1.5rem;display:flex;flex-wrap:wrap;gap:.4rem 1.5rem;align-items:center}
header a{color:#fff;text-decoration:none}header .who{margin-left:auto;color:#c6ccd6;font-size:.9rem}
main{max-width:76rem;margin:1.5rem auto;padding:0 1.5rem}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{width:100%;border-collapse:collapse;background:#fff;margin:.5rem 0 1rem}th,td{padding:.35rem .5rem;border-bottom:1px solid #e3e6eb;text-align:left;vertical-align:top;font-size:.92rem}
th{background:#eef0f4;font-weight:600}td.num,th.num{text-align:right}table.fields th{width:14rem;background:#fff}
form{margin:0}form.inline{display:inline}fieldset{border:1px solid #d5d9e0;background:#fff;border-radius:.4rem;margin:0 0 1rem;padding:.7rem 1rem;min-width:0}
legend{font-weight:600}label{display:inline-block;margin:.2rem .8rem .2rem 0;font-size:.9rem}
input,select{font:inherit;padding:.3rem .4rem;border:1px solid #b8c0cc;border-radius:.3rem}
button{font:inherit;padding:.35rem .9rem;margin:.15rem .3rem .15rem 0;border-radius:.3rem;border:1px solid #8a94a6;background:#fff;cursor:pointer}
button.primary{background:#1d5bd6;color:#fff;border-color:#1d5bd6}button.link{border:none;background:none;color:#fff;padding:0;text-decoration:underline}
.error{background:#fde8e8;border:1px solid #e5a3a3;color:#8a1c1c;padding:.7rem 1rem;border-radius:.4rem;margin:1rem 0}
.flash{background:#e6f4ea;border:1px solid #9ccfaa;color:#1d5a2c;padding:.7rem 1rem;border-radius:.4rem;margin:1rem 0}
.note{color:#5b6575;font-size:.85rem}.pager{display:flex;gap:1rem;align-items:center}.login{max-width:24rem;margin:4rem auto}
pre.body{white-space:pre-wrap;word-break:break-all;background:#f6f7f9;padding:.4rem;margin:.2rem 0;font-size:.8rem;max-height:24rem;overflow:auto}
tr.near-miss td.what{color:#8a1c1c}.login label{display:block}.login input{width:100%}ul.attempts{margin:0;padding-left:1.1rem;font-size:.85rem}code{font-size:.85rem}
.why{color:#8a4b00;font-size:.85rem}button[disabled]{opacity:.5;cursor:not-allowed}ul.why{margin:.2rem 0;padding-left:1.1rem}
input,select{max-width:100%}td code,table.fields td{overflow-wrap:anywhere}td.at,td.took{white-space:nowrap}table.requests td.bodies{width:40%}td.reasons{min-width:9rem}
@media (max-width:60rem){header,main{padding-left:.75rem;padding-right:.75rem}label{display:block;margin-right:0}label input,label select{display:block;width:100%}
table{display:block;overflow-x:auto}table.fields{display:table}table.fields th{width:auto}
table.requests{display:table}table.requests thead{display:none}table.requests tr,table.requests td{display:block}
table.requests tr{border-bottom:2px solid #d5d9e0}table.requests td{border:none;padding:.15rem .5rem}table.requests td.bodies,table.requests td.reasons{width:auto;min-width:0}
table.requests td[data-label]:not(:empty)::before{content:attr(data-label) ": ";font-weight:600}table.requests td.num{text-align:left}}`;

export interface Chrome {
  site?: SiteRecord;
  csrf?: string;
  error?: string[] | undefined;
  flash?: string | undefined;
  /** The marketplace's own clock's time, when it has one (its payments' times are on it). */
  ownTime?: number | undefined;
}

/**
 * The clock a page's times are on: a marketplace with a clock of its own sees every time on it (its
 * payments', their steps' and notifications', and its requests').
 */
export const clockName = (chrome: Chrome) => (chrome.ownTime === undefined ? 'sandbox time' : 'its own time');

function errorBox(lines: string[] | undefined): string {
  if (!lines || lines.length === 0) return '';
  return `<div class="error" role="alert"><strong>That did not work.</strong>${lines.map((l) => `<div>${escape(l)}</div>`).join('')}</div>`;
}

export function layout(title: string, chrome: Chrome, body: string): string {
  const nav = chrome.site
    ? `<header><strong>split-sandbox dashboard</strong><a href="/dashboard">Payments</a><a href="/dashboard/preapprovals">Preapprovals</a><a href="/dashboard/payouts">Card payouts</a><a href="/dashboard/requests">Requests</a><a href="/dashboard/settings">Settings</a>
<span class="who">${escape(chrome.site.name)} · SiteID ${escape(chrome.site.siteId)}${chrome.ownTime === undefined ? '' : ` · its own time ${escape(stamp(chrome.ownTime))}`}</span>
<form class="inline" method="post" action="/dashboard/logout">${csrfField(chrome.csrf)}<button class="link" type="submit">Sign out</button></form></header>`
    : `<header><strong>split-sandbox dashboard</strong></header>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title><style>${STYLE}</style></head><body>${nav}<main>${chrome.flash ? `<div class="flash">${escape(chrome.flash)}</div>` : ''}${errorBox(chrome.error)}${body}</main></body></html>`;
}

export function loginPage(error?: string, siteId = ''): string {
  return layout(
    'Sign in',
    { error: error ? [error] : undefined },
    `<div class="login"><h1>Sign in</h1>
<form method="post" action="/dashboard/login">
<label>SiteID <input name="SiteID" inputmode="numeric" autocomplete="username" required value="${escape(siteId)}"></label>
<label>APIKey <input name="APIKey" type="password" autocomplete="current-password" required></label>
<p><button class="primary" type="submit">Sign in</button></p></form>
<p class="note">Use the SiteID and APIKey of a merchant (GET /_sandbox/merchants lists them).</p></div>`,
  );
}

export function messagePage(title: string, message: string, chrome: Chrome = {}): string {
  return layout(title, chrome, `<h1>${escape(title)}</h1><p>${escape(message)}</p><p><a href="/dashboard">Back to the payments</a></p>`);
}

/** The values that apply to the merchant's payments, each with where it comes from. */
function inEffectRows(m: MerchantView): string {
  const { NotificationURL: url, DefaultScenario: scenario } = m.InEffect;
  const urlText =
    url.From === 'none'
      ? 'none: notifications are journaled as no-url, not sent (no NotificationURL here, and the sandbox was started without --notify-url)'
      : `${url.Value} (${url.From === 'merchant' ? "the merchant's own" : "the sandbox's default, from its start: --notify-url"})`;
  const scenarioText =
    scenario.From === 'method'
      ? "none: each payment follows its method's flow (no default scenario here, and the sandbox was started without --scenario)"
      : `${scenario.Value} (${scenario.From === 'merchant' ? "the merchant's own" : "the sandbox's default, from its start: --scenario"})`;
  return `<tr><th>Notifications go to</th><td data-from="${url.From}">${escape(urlText)}</td></tr>
<tr><th>Default scenario</th><td data-from="${scenario.From}">${escape(scenarioText)}</td></tr>`;
}

/** What leaving a field empty means, given the sandbox's own defaults. */
function emptyMeans(m: MerchantView): string {
  const { NotificationURL: url, DefaultScenario: scenario } = m.InEffect;
  return (
    "Empty fields take the sandbox's defaults: " +
    (url.SandboxDefault !== null ? `notifications go to ${url.SandboxDefault} (--notify-url)` : 'no notifications are sent (they are journaled as no-url)') +
    '; ' +
    (scenario.SandboxDefault !== null ? `payments follow ${scenario.SandboxDefault} (--scenario)` : "payments follow their method's flow") +
    ". An X-Sandbox-Scenario header or a magic amount on the create request still chooses a payment's scenario first."
  );
}

export function settingsPage(chrome: Chrome, m: MerchantView, cat: Catalogue, values?: { notificationUrl: string; defaultScenario: string }): string {
  const url = values?.notificationUrl ?? m.NotificationURL ?? '';
  const chosen = values?.defaultScenario ?? m.DefaultScenario ?? '';
  // The empty choice says what an empty field gives: the sandbox's default when it was started with one.
  const fallback = m.InEffect.DefaultScenario.SandboxDefault;
  const none = fallback === null ? "(none: each payment follows its method's flow)" : `(none: the sandbox's default, ${fallback}, from --scenario)`;
  const options = [`<option value="">${escape(none)}</option>`]
    .concat(cat.scenarios.map((s) => `<option value="${escape(s.name)}"${s.name === chosen ? ' selected' : ''}>${escape(s.name)}</option>`))
    .join('');
  return layout(
    'Settings',
    chrome,
    `<h1>Settings</h1>
<table class="fields"><tbody><tr><th>SiteID</th><td>${escape(m.SiteID)}</td></tr><tr><th>Name</th><td>${escape(m.Name)}</td></tr>
<tr><th>Linked sites</th><td>${escape(m.LinkedSiteIDs.join(', ') || '—')}</td></tr></tbody></table>
<h2>In effect</h2>
<table class="fields in-effect"><tbody>${inEffectRows(m)}</tbody></table>
<form method="post" action="/dashboard/settings">${csrfField(chrome.csrf)}<fieldset><legend>The merchant's own notifications and scenario</legend>
<label>NotificationURL <input name="NotificationURL" size="50" placeholder="https://shop.example/notify" value="${escape(url)}"></label>
<label>Default scenario <select name="DefaultScenario">${options}</select></label>
<p class="note">${escape(emptyMeans(m))}</p>
<button class="primary" type="submit">Save</button></fieldset></form>`,
  );
}

export const LIST_FILTERS = ['pageIndex', 'pageSize', 'statusID', 'methodID', 'merchantTransactionID', 'startDate', 'endDate', 'surface'] as const;
export type ListFilters = Partial<Record<(typeof LIST_FILTERS)[number], string>>;

function filterForm(f: ListFilters, cat: Catalogue): string {
  const opt = (value: string | number, text: string, current: string | undefined) =>
    `<option value="${escape(value)}"${String(value) === current ? ' selected' : ''}>${escape(text)}</option>`;
  return `<form method="get" action="/dashboard"><fieldset><legend>Filter</legend>
<label>Address <select name="surface">${opt('', 'split-payments API', f.surface ?? '')}${opt('card', 'card API', f.surface)}</select></label>
<label>Status <select name="statusID"><option value="">any</option>${cat.statuses.map((s) => opt(s.id, `${s.name} (${s.id})`, f.statusID)).join('')}</select></label>
<label>Method <select name="methodID"><option value="">any</option>${cat.methods.map((m) => opt(m.methodId, `${m.name} (${m.methodId})`, f.methodID)).join('')}</select></label>
<label>MerchantTransactionID <input name="merchantTransactionID" value="${escape(f.merchantTransactionID ?? '')}"></label>
<label>From <input name="startDate" placeholder="2026-01-15 10:00:00" size="19" value="${escape(f.startDate ?? '')}"></label>
<label>To <input name="endDate" placeholder="2026-01-15 10:00:00" size="19" value="${escape(f.endDate ?? '')}"></label>
<button type="submit">Apply</button> <a href="/dashboard">Clear</a></fieldset></form>`;
}

function pageLink(f: ListFilters, pageIndex: number): string {
  const q = new URLSearchParams();
  for (const k of LIST_FILTERS) {
    const v = f[k];
    if (k !== 'pageIndex' && v !== undefined) q.set(k, v);
  }
  q.set('pageIndex', String(pageIndex));
  return `/dashboard?${q.toString()}`;
}

export function listPage(chrome: Chrome, f: ListFilters, cat: Catalogue, page: ListPage<PaymentRecord> | undefined): string {
  const methodName = new Map(cat.methods.map((m) => [m.methodId, m.name]));
  let table = '';
  if (page) {
    const rows = page.items
      .map(
        (p) => `<tr><td><a href="/dashboard/payments/${escape(p.id)}">${escape(p.id)}</a></td><td>${escape(stamp(p.createdAt))}</td>
<td>${escape(p.merchantTransactionId)}</td><td class="num">${escape(money(p.amount, p.currency))}</td>
<td>${escape(p.methodId === null ? '—' : (methodName.get(p.methodId) ?? p.methodId))}</td><td>${escape(status(p.statusId))}</td></tr>`,
      )
      .join('');
    const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
    const prev = page.pageIndex > 1 ? `<a href="${escape(pageLink(f, page.pageIndex - 1))}">« Previous</a>` : '';
    const next = page.pageIndex < pages ? `<a href="${escape(pageLink(f, page.pageIndex + 1))}">Next »</a>` : '';
    table = `<table><thead><tr><th>ID</th><th>Created</th><th>MerchantTransactionID</th><th class="num">Amount</th><th>Method</th><th>Status</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No payments match.</td></tr>'}</tbody></table>
<div class="pager">${prev}<span>Page ${escape(page.pageIndex)} of ${escape(pages)} · ${escape(page.total)} payments</span>${next}</div>`;
  }
  return layout('Payments', chrome, `<h1>Payments</h1>${filterForm(f, cat)}${table}`);
}

function fields(rows: [string, unknown][]): string {
  return `<table class="fields"><tbody>${rows.map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v ?? '—')}</td></tr>`).join('')}</tbody></table>`;
}

/** The merchant's recent requests, near misses included: what its integration really sent. */
export function requestsPage(chrome: Chrome, entries: readonly RequestEntry[], kept: boolean): string {
  const intro = kept
    ? `<p class="note">The newest ${entries.length} requests your credentials made (and your payment pages' buttons), newest first, refused ones and near misses (a path that missed) included. A request whose key failed is no one's and is not here: <code>/_sandbox/merchants/{SiteID}/requests?Unauthenticated=true</code> lists those that named your SiteID.</p>`
    : '<p class="note">This sandbox keeps no requests (it was started with <code>--request-journal 0</code>).</p>';
  return layout('Requests', chrome, `<h1>Requests</h1>${intro}${requestsTable(entries, true, clockName(chrome))}`);
}

export function paymentPage(chrome: Chrome, d: PaymentDetail): string {
  const p = d.view.payment;
  const base = `/dashboard/payments/${p.id}`;
  const csrf = csrfField(chrome.csrf);
  const cur = p.currency;
  const customer = p.customer as Record<string, unknown> | null;
  const info = fields([
    ['ID', p.id],
    ['Created', stamp(p.createdAt)],
    ['MerchantTransactionID', p.merchantTransactionId],
    ['OriginatorTransactionID', p.originatorTransactionId],
    ['Amount', money(p.amount, cur)],
    ['CapturedAmount', money(p.capturedAmount, cur)],
    ['Description', p.description],
    ['Address', p.surface === 'card' ? 'card API' : 'split-payments API'],
    ['Method', d.method ? `${d.method.name} (${d.method.methodId}, ${d.method.flow})` : p.methodId],
    ['Status', status(p.statusId)],
    ['Scenario', p.scenario],
    ['Country', p.country],
    ['Customer', customer ? [[customer.FirstName, customer.LastName].filter((x) => x).join(' '), customer.Email].filter((x) => x).join(' · ') : null],
    ['ReturnURL', p.returnUrl],
    ['TokenLifetime (minutes)', p.tokenLifetime],
    ['NotificationDateTime', p.notificationAt === null ? null : stamp(p.notificationAt)],
  ]);

  const splits = d.view.splits.length
    ? `<table><thead><tr><th>ID</th><th>Site</th><th>MerchantTransactionID</th><th class="num">Amount</th><th class="num">CapturedAmount</th><th>StateDetails</th><th>Created</th></tr></thead><tbody>${d.view.splits
        .map(
          (s) => `<tr><td>${escape(s.id)}</td><td>${escape(d.siteNames.get(s.siteId) ?? s.siteId)} (${escape(s.siteId)})</td><td>${escape(s.merchantTransactionId)}</td>
<td class="num">${escape(money(s.amount, cur))}</td><td class="num">${escape(s.capturedAmount === null ? '' : money(s.capturedAmount, cur))}</td><td>${escape(status(s.statusId))}</td><td>${escape(stamp(s.createdAt))}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="note">No splits.</p>';

  const refunds = d.refunds.length
    ? `<table><thead><tr><th>ID</th><th>Split</th><th>MerchantTransactionID</th><th class="num">Amount</th><th>Description</th><th>Status</th><th>Created</th></tr></thead><tbody>${d.refunds
        .map(
          (r) => `<tr><td>${escape(r.id)}</td><td>${escape(r.splitId ?? 'whole payment')}</td><td>${escape(r.merchantTransactionId)}</td><td class="num">${escape(money(r.amount, r.currency))}</td>
<td>${escape(r.description)}</td><td>${escape(status(r.statusId))}</td><td>${escape(stamp(r.createdAt))}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="note">No refunds.</p>';

  const history = `<table><thead><tr><th>At (${escape(clockName(chrome))})</th><th>Status</th><th>Refund</th><th>Cause</th></tr></thead><tbody>${d.story.History.map(
    (h) => `<tr><td>${escape(stamp(h.At))}</td><td>${escape(`${h.StatusInfo} (${h.StatusID})`)}</td><td>${escape(h.RefundID ?? '')}</td><td>${escape(h.Cause)}</td></tr>`,
  ).join('')}</tbody></table>`;

  const steps = d.story.Steps.length
    ? `<table><thead><tr><th>Step</th><th>Do</th><th>Refund</th><th>Due (${escape(clockName(chrome))})</th><th>Ran</th><th>State</th><th>Outcome</th></tr></thead><tbody>${d.story.Steps.map(
        (s) => `<tr><td>${escape(s.Step ?? '—')}</td><td>${escape(s.Do)}</td><td>${escape(s.RefundID ?? '')}</td><td>${escape(stamp(s.Due))}</td><td>${escape(s.Ran ? stamp(s.Ran) : '—')}</td><td>${escape(s.State)}</td><td>${escape(s.Outcome ?? '')}</td></tr>`,
      ).join('')}</tbody></table>`
    : '<p class="note">No scenario steps.</p>';

  const notifications = d.notifications.length
    ? `<table><thead><tr><th>ID</th><th>Status</th><th>Refund</th><th>State</th><th>Fault</th><th>Created</th><th>Next attempt</th><th>Delivered</th><th>Attempts</th><th></th></tr></thead><tbody>${d.notifications
        .map((n) => {
          const attempts = n.Attempts.length
            ? `<ul class="attempts">${n.Attempts.map(
                (a) => `<li>${escape(stamp(a.At))} → <code>${escape(a.URL)}</code>: ${escape(a.HTTPStatus === null ? (a.Error ?? 'no answer') : `HTTP ${a.HTTPStatus}`)}${a.Error && a.HTTPStatus !== null ? ` (${escape(a.Error)})` : ''}, ${escape(a.DurationMs)} ms</li>`,
              ).join('')}</ul>`
            : '<span class="note">none</span>';
          return `<tr><td>${escape(n.ID)}</td><td>${escape(`${n.StatusInfo} (${n.StatusID})`)}</td><td>${escape(n.RefundID ?? '')}</td><td>${escape(n.State)}</td><td>${escape(n.Fault ?? '')}</td>
<td>${escape(stamp(n.Created))}</td><td>${escape(n.NextAttempt === null ? '—' : stamp(n.NextAttempt))}</td><td>${escape(n.Delivered === null ? '—' : stamp(n.Delivered))}</td><td>${attempts}</td>
<td><form method="post" action="${base}/notifications/${escape(n.ID)}/redeliver">${csrf}${actionButton('Redeliver', d.offers.redeliver)}</form></td></tr>`;
        })
        .join('')}</tbody></table>`
    : '<p class="note">No notifications.</p>';

  const splitOptions = d.view.splits.map((s) => `<option value="${escape(s.id)}">${escape(s.id)} · ${escape(s.merchantTransactionId)} · ${escape(money(s.amount, cur))}</option>`).join('');
  const siteOptions = d.linkedSites.map((s) => `<option value="${escape(s.siteId)}">${escape(s.name)}</option>`).join('');
  const minor = `<span class="note">(minor units: 1000 = ${escape(money(1000n, cur))})</span>`;

  const o = d.offers;
  const apiActions = `<h2>Actions</h2>
<form method="post" action="${base}/events">${csrf}<fieldset><legend>Provider event</legend>
${eventButtons(o.events, (e) => `${e[0]!.toUpperCase()}${e.slice(1)}`)}
<span class="note">as the provider or payer would</span></fieldset></form>
<fieldset><legend>Capture and cancel</legend>
<form class="inline" method="post" action="${base}/capture">${csrf}${actionButton('Capture in full', o.capture, ' class="primary"')}</form>
<form class="inline" method="post" action="${base}/cancel">${csrf}${actionButton('Cancel payment', o.cancel)}</form></fieldset>
${
  d.view.splits.length
    ? `<form method="post" action="${base}/capture-split">${csrf}<fieldset><legend>Capture one split</legend>
<label>Split <select name="SplitID">${splitOptions}</select></label>
<label>Amount <input name="Amount" inputmode="numeric" size="12" placeholder="whole split"></label> ${minor}
${actionButton('Capture split', o.capture)}</fieldset></form>
<form method="post" action="${base}/capture-per-split">${csrf}<fieldset><legend>Capture per split</legend>
${d.view.splits.map((s) => `<label>Split ${escape(s.id)} <input name="Amount_${escape(s.id)}" inputmode="numeric" size="10"></label>`).join('')} ${minor}
${actionButton('Capture these amounts', o.capture)}</fieldset></form>
<form method="post" action="${base}/refund">${csrf}<fieldset><legend>Refund a split</legend>
<label>Split <select name="SplitID">${splitOptions}</select></label>
<label>Amount <input name="Amount" inputmode="numeric" size="12" required></label>
<label>Description <input name="Description" size="30"></label> ${minor}
${actionButton('Refund', o.refund)}</fieldset></form>`
    : wholeRefundForm(d, csrf, minor)
}
<form method="post" action="${base}/splits">${csrf}<fieldset><legend>Add a split</legend>
<label>SiteID <input name="SiteID" inputmode="numeric" size="8" list="linked-sites" required></label><datalist id="linked-sites">${siteOptions}</datalist>
<label>Amount <input name="Amount" inputmode="numeric" size="12" required></label>
<label>MerchantTransactionID <input name="MerchantTransactionID" required></label> ${minor}
${actionButton('Add split', o.addSplit)}</fieldset></form>`;
  // A card payment has no story (stories replay split payments); a snapshot holds everything.
  const reproduce = `<fieldset><legend>Reproduce this case</legend>
${p.surface === 'card' ? '' : `<form class="inline" method="get" action="${base}/story"><button type="submit">Download story</button></form>`}
<form class="inline" method="post" action="${base}/snapshot">${csrf}<label>Snapshot name <input name="Name" size="24" value="payment-${escape(p.id)}"></label>
<button type="submit">Save snapshot</button></form>
<p class="note">The story is what happened to this payment, as a file that <code>split-sandbox replay</code> plays again on any sandbox;
a snapshot is the whole sandbox as it is now, to go back to with <code>split-sandbox snapshot restore</code>.</p></fieldset>`;
  const actions = (p.surface === 'card' ? cardActions(d, csrf, minor) : apiActions) + reproduce;

  return layout(
    `Payment ${p.id}`,
    chrome,
    `<p><a href="/dashboard">« Payments</a></p><h1>Payment ${escape(p.id)} · ${escape(money(p.amount, cur))} · ${escape(status(p.statusId))}</h1>
${info}<h2>Splits</h2>${splits}<h2>Refunds</h2>${refunds}${p.surface === 'card' ? cardTables(d) : ''}${actions}
<h2>Requests</h2>${requestsTable(d.requests, false, clockName(chrome))}
<h2>Status history</h2>${history}<h2>Scenario steps</h2>${steps}<h2>Notifications</h2>${notifications}${faultRulesSection(d.faults)}`,
  );
}
