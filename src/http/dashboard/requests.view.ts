// The requests the merchant's integration sent, as the dashboard lists them: in order, with the
// status, the reasons (each code with its catalogue text), what a near miss came nearest to, and the
// bodies to unfold.
import type { RequestEntry } from '../../requests/journal';
import { escape } from '../html';
import { reasonText, stamp } from './parts';

const body = (label: string, b: RequestEntry['Request']) =>
  b.Body === null
    ? ''
    : `<div class="note">${escape(label)} · ${escape(b.Bytes)} bytes${b.CappedAt === null ? '' : ` (kept up to ${escape(b.CappedAt)})`}</div><pre class="body">${escape(b.Body)}</pre>`;

/**
 * A table of entries; `withPayment` adds the payment column (the merchant's list of all requests).
 * `clock` names the clock their times are on (clockName).
 */
export function requestsTable(entries: readonly RequestEntry[], withPayment: boolean, clock: string): string {
  if (entries.length === 0) return '<p class="note">No requests kept.</p>';
  const rows = entries
    .map((r) => {
      const what = r.NearMiss ?? r.Fault ?? '';
      const payment = withPayment ? `<td data-label="Payment">${r.PaymentID === null ? '' : `<a href="/dashboard/payments/${escape(r.PaymentID)}">${escape(r.PaymentID)}</a>`}</td>` : '';
      const bodies = body('Request', r.Request) + body('Response', r.Response);
      // The labels head each cell where a narrow window shows a row as a block (the header row hidden).
      return `<tr class="request${r.NearMiss ? ' near-miss' : ''}" data-request-id="${escape(r.ID)}"><td class="at">${escape(stamp(r.At))}</td>
<td><code>${escape(r.Method)} ${escape(r.Path)}${r.Query === null ? '' : `?${escape(r.Query)}`}</code><div class="note">${escape(r.Address === 'card' ? 'card address' : 'API address')}${r.Route ? ` · ${escape(r.Route)}` : ''}</div></td>${payment}
<td class="num status" data-label="Status">${escape(r.Status ?? 'no answer')}</td><td class="reasons" data-label="Reasons">${r.ReasonCodes.map((c) => `<div>${escape(reasonText(c))}</div>`).join('')}</td><td class="what" data-label="Near miss or fault">${escape(what)}</td><td class="num took" data-label="Took">${escape(r.DurationMs ?? '')} ms</td>
<td class="bodies">${bodies ? `<details><summary>Bodies</summary>${bodies}</details>` : ''}</td></tr>`;
    })
    .join('');
  return `<table class="requests"><thead><tr><th>At (${escape(clock)})</th><th>Request</th>${withPayment ? '<th>Payment</th>' : ''}<th class="num">Status</th><th>Reasons</th><th>Near miss or fault</th><th class="num">Took</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}
