// Differences as a person reads them in a terminal or a CI log, and the kinds a CI step fails on.
import { DIFFERENCE_KINDS, type Difference, type DifferenceKind } from './differences';

/** A value in one line: JSON, absent as "(absent)", long values cut. */
export function shown(v: unknown): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** One difference in a few lines. */
export function describeDifference(d: Difference): string {
  const where = d.Field === null ? d.Route : `${d.Route}  ${d.Field}`;
  const seen = `seen ${d.Count} time${d.Count === 1 ? '' : 's'}, first on ${d.Call.Method} ${d.Call.Path}${d.Call.JournalID === null || d.Call.JournalID === undefined ? '' : ` (journal entry ${d.Call.JournalID})`}${d.Call.At ? ` at ${d.Call.At}` : ''}`;
  return `${d.Kind}: ${where}\n  upstream ${shown(d.Upstream)}\n  shadow   ${shown(d.Shadow)}\n  ${seen}`;
}

/** The whole report, with a count by kind at the end. */
export function describeDifferences(diffs: readonly Difference[]): string {
  if (diffs.length === 0) return 'No differences: the sandbox answered as the upstream did.\n';
  const byKind = new Map<string, number>();
  for (const d of diffs) byKind.set(d.Kind, (byKind.get(d.Kind) ?? 0) + 1);
  const summary = [...byKind].map(([k, n]) => `${n} ${k}`).join(', ');
  return `${diffs.map(describeDifference).join('\n\n')}\n\n${diffs.length} difference${diffs.length === 1 ? '' : 's'}: ${summary}\n`;
}

/** A kind as a shell line may spell it: `http-status` or `HTTP_Status` for `http status`, so that no quoting is needed. */
const spelled = (text: string) => text.trim().toLowerCase().replace(/[-_\s]+/g, ' ');

/** `--fail-on`'s value: a comma list of kinds (spaces, hyphens or underscores between words), or `any`. Throws with the known kinds named. */
export function parseKinds(text: string): ReadonlySet<DifferenceKind> {
  const parts = text.split(',').map(spelled).filter((p) => p !== '');
  if (parts.length === 0) throw new Error(`--fail-on needs kinds: any, or a comma list of ${DIFFERENCE_KINDS.join(', ')}`);
  if (parts.includes('any')) return new Set(DIFFERENCE_KINDS);
  for (const p of parts) {
    if (!DIFFERENCE_KINDS.includes(p as DifferenceKind)) throw new Error(`--fail-on: unknown kind "${p}" (the kinds: any, or ${DIFFERENCE_KINDS.join(', ')}; http-status for http status is fine too)`);
  }
  return new Set(parts as DifferenceKind[]);
}
