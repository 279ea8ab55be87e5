// The payment page's fault rules: those that can act on this payment's requests or notifications,
// with their hits, so that QA sees why an answer failed or a notification came twice.
import type { FaultView } from '../../faults/faults';
import { escape } from '../html';

const text = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');

export function faultRulesSection(rules: readonly FaultView[]): string {
  if (rules.length === 0) return '';
  return `<h2>Fault rules</h2><table><thead><tr><th>ID</th><th>Channel</th><th>Match</th><th>Action</th><th class="num">Times</th><th class="num">Probability</th><th class="num">Hits</th></tr></thead><tbody>${rules
    .map(
      (f) => `<tr><td>${escape(f.ID)}</td><td>${escape(f.Channel)}</td><td>${escape(text(f.Match) || 'everything')}</td><td>${escape(text(f.Action))}</td>
<td class="num">${escape(f.Times ?? '∞')}</td><td class="num">${escape(f.Probability)}</td><td class="num">${escape(f.Hits)}</td></tr>`,
    )
    .join('')}</tbody></table><p class="note">Set by the control API (<code>/_sandbox/faults</code>); the Fault column of the notifications says what one did.</p>`;
}
