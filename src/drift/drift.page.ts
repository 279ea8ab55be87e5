// The dashboard's Drift page: a run's differences, grouped by route, each with both values and the call
// that first showed it. Every value escaped; long values wrap, so the page is never wider than the window.
import { escape } from '../http/html';
import { layout } from '../http/dashboard/views';
import type { Difference } from './differences';
import { shown } from './print';

const STYLE = `<style>table.drift{table-layout:fixed}table.drift td,table.drift th{overflow-wrap:anywhere;word-break:break-word}
table.drift th.kind{width:9rem}table.drift th.count{width:4.5rem}table.drift pre.body{max-height:12rem}
@media (max-width:40rem){table.drift thead{display:none}table.drift tr{display:block;border-bottom:2px solid #d5d9e0}table.drift td{display:block;border:none}
table.drift td[data-label]::before{content:attr(data-label) ": ";font-weight:600}main{padding:0 .6rem}}</style>`;

const value = (v: unknown) => `<pre class="body">${escape(shown(v))}</pre>`;

function row(d: Difference): string {
  const call = `${d.Call.Method} ${d.Call.Path}`;
  const journal = d.Call.JournalID === null || d.Call.JournalID === undefined ? '' : ` <span class="note">journal entry ${escape(d.Call.JournalID)}</span>`;
  const at = d.Call.At ? ` <span class="note">at ${escape(d.Call.At)}</span>` : '';
  return `<tr data-kind="${escape(d.Kind)}"><td class="kind" data-label="Kind">${escape(d.Kind)}</td><td class="field" data-label="Field"><code>${escape(d.Field ?? '(the whole answer)')}</code></td>
<td class="upstream" data-label="Upstream">${value(d.Upstream)}</td><td class="shadow" data-label="Sandbox">${value(d.Shadow)}</td>
<td class="num count" data-label="Seen">${escape(d.Count)}</td><td class="call" data-label="First on"><code>${escape(call)}</code>${journal}${at}</td></tr>`;
}

/** The page: a summary by kind, then a table per route in the order first seen. */
export function renderDriftPage(diffs: readonly Difference[]): string {
  const byRoute = new Map<string, Difference[]>();
  for (const d of diffs) byRoute.set(d.Route, [...(byRoute.get(d.Route) ?? []), d]);
  const byKind = new Map<string, number>();
  for (const d of diffs) byKind.set(d.Kind, (byKind.get(d.Kind) ?? 0) + 1);
  const summary =
    diffs.length === 0
      ? '<p class="flash">No differences so far: for every call compared, the sandbox answered as the real service did.</p>'
      : `<p>${diffs.length} difference${diffs.length === 1 ? '' : 's'}: ${[...byKind].map(([k, n]) => `${n} ${escape(k)}`).join(', ')}.</p>`;
  const tables = [...byRoute]
    .map(
      ([route, list]) => `<h2><code>${escape(route)}</code></h2>
<table class="drift"><thead><tr><th class="kind">Kind</th><th>Field</th><th>Real service</th><th>Sandbox</th><th class="num count">Seen</th><th>First on</th></tr></thead>
<tbody>${list.map(row).join('\n')}</tbody></table>`,
    )
    .join('\n');
  return layout(
    'Drift',
    {},
    `${STYLE}<h1>Drift: where the sandbox differs from the real service</h1>
<p class="note">Each difference once per kind, route and field, with the number of calls that showed it. Generated IDs, times (but their format), hosts and tokens are not compared; card numbers, security codes and keys are masked.</p>
${summary}${tables}`,
  );
}
