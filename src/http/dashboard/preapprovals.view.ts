// The dashboard's page of a merchant's preapprovals: each with its status, the payments charged under
// it and its status history (sandbox times).
import { preapprovalStatusInfo } from '../../domain/preapproval.machine';
import { escape, money } from '../html';
import type { Store } from '../../store/store';
import { type Chrome, layout } from './views';
import { stamp } from './parts';

export function preapprovalsPage(chrome: Chrome, store: Store, siteId: number): string {
  const rows = store.preapprovals
    .list(siteId, 200)
    .map((p) => {
      const payments = store.payments.ofPreapproval(p.id, 50, 0);
      const history = store.history.ofPreapproval(p.id).map((h) => `${stamp(h.at)} ${preapprovalStatusInfo(h.statusId)} (${h.cause})`).join('; ');
      const links = payments.items.map((x) => `<a href="/dashboard/payments/${escape(x.id)}">${escape(x.id)}</a>`).join(', ');
      return `<tr><td>${escape(p.id)}</td><td>${escape(stamp(p.createdAt))}</td><td>${escape(p.merchantPreapprovalId)}</td><td>${escape(store.methods.get(p.methodId)?.name ?? p.methodId)}</td>
<td>${escape(p.preapprovedMaximumAmount === null ? '' : money(p.preapprovedMaximumAmount, p.currency ?? ''))}</td><td>${escape(preapprovalStatusInfo(p.statusId))}</td>
<td>${links || '–'}</td><td class="note">${escape(history)}</td></tr>`;
    })
    .join('');
  return layout(
    'Preapprovals',
    chrome,
    `<h1>Preapprovals</h1>
<table><thead><tr><th>ID</th><th>Created</th><th>MerchantPreapprovalID</th><th>Method</th><th>Maximum</th><th>Status</th><th>Recurring payments</th><th>History</th></tr></thead>
<tbody>${rows || '<tr><td colspan="8">No preapprovals yet.</td></tr>'}</tbody></table>`,
  );
}
