// The small pieces every dashboard page is made of: times, statuses, form tokens, the action buttons
// with why not, and refusals as sentences (one place, so that no page nests brackets in them).
import { escape } from '../html';
import { isKnownStatus, statusInfo } from '../../domain/statuses';
import { formatTimestamp, parseTimestamp } from '../../domain/time';
import { REASONS, type Reason } from '../../errors/reasons';
import type { Offer, Offers } from '../../services/dashboard-offers.service';

/** A 14-digit sandbox timestamp as "2026-01-15 10:00:00". */
export function stamp(value: string | number | null): string {
  if (value === null) return '—';
  const s = typeof value === 'number' ? formatTimestamp(value) : value;
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s);
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` : s;
}

export const status = (id: number) => (isKnownStatus(id) ? `${statusInfo(id)} (${id})` : String(id));

/** A reason code with its text from the catalogue ("17 Payment is invalid"); an unknown code stays bare. */
export const reasonText = (code: number) => {
  const info = (REASONS as Record<number, string>)[code];
  return info === undefined ? String(code) : `${code} ${info}`;
};

/**
 * A refusal's reason as one sentence: its code first, then its Info. The Info often ends in its own
 * "(it is Authorized)", so the code never goes in brackets after it.
 */
export const refusal = (r: Reason) => `Reason ${r.Code}: ${r.Info}`;

/** A form's submit button; when the payment's state does not allow it, disabled with why not beside it. */
export function actionButton(label: string, o: Offer, attrs = ''): string {
  if (o.ok) return `<button${attrs} type="submit">${escape(label)}</button>`;
  return `<button${attrs} type="submit" disabled>${escape(label)}</button> <span class="why">Not now: ${escape(o.why)}</span>`;
}

/** The provider events the state allows, as buttons, and a list naming the others with why not. */
export function eventButtons(events: Offers['events'], label: (event: string) => string): string {
  const allowed = events.filter((e) => e.offer.ok);
  const not = events.filter((e) => !e.offer.ok);
  return (
    (allowed.length ? allowed.map((e) => `<button type="submit" name="Event" value="${e.event}">${escape(label(e.event))}</button>`).join('') : '<span class="why">No event applies now.</span>') +
    (not.length
      ? `<div class="note why">Not offered now:<ul class="why">${not.map((e) => `<li>${escape(label(e.event))}: ${escape((e.offer as { why: string }).why)}</li>`).join('')}</ul></div>`
      : '')
  );
}

export const csrfField = (token: string | undefined) => (token ? `<input type="hidden" name="csrf" value="${escape(token)}">` : '');

/** What the From and To filters take, in the words of their refusal. */
export const FILTER_TIME_EXPECTED = 'give a time as the table shows it (2026-01-15 10:00:00, UTC), without seconds or minutes, a date alone (2026-01-15), or yyyyMMddHHmmss';

/**
 * A time typed in a filter as its 14-digit wire form, or null when it is none of the forms taken: as
 * the table shows it (a space or a T between date and time, an optional Z or UTC), shorter (a
 * missing part is the start of it for From, its end for To: `end`), or the wire form itself.
 */
export function filterTime(text: string, end: boolean): string | null {
  const t = text.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2})(?::(\d{2})(?::(\d{2}))?)?)?(?: ?(?:Z|UTC))?$/i.exec(t);
  const fill = (v: string | undefined, last: string) => v ?? (end ? last : '00');
  const wire = m ? `${m[1]}${m[2]}${m[3]}${fill(m[4], '23')}${fill(m[5], '59')}${fill(m[6], '59')}` : t;
  return parseTimestamp(wire) === null ? null : wire;
}
