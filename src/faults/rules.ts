// Fault rules, pure: what a rule is, the checks its schema cannot make, matching a request or a
// notification against it, the X-Sandbox-Fault header, and the seeded draws of Probability. No I/O.
import { parseDuration } from '../scenarios/scenario';

export type Channel = 'api' | 'notifications';

export const API_STATUSES = [500, 502, 503, 504, 429, 408] as const;
export type FaultStatus = (typeof API_STATUSES)[number];

/** What a rule does, as the control API names it: one key each. */
export interface FaultAction {
  Status?: FaultStatus;
  Delay?: string;
  Reset?: true;
  LoseAnswer?: true;
  Duplicate?: number;
  Drop?: true;
}

export interface FaultMatch {
  Method?: string;
  Path?: string;
  SiteID?: number;
  PaymentID?: number;
  StatusID?: number;
}

/** A rule as POST /_sandbox/faults takes it (after its schema). */
export interface FaultInput {
  Channel: Channel;
  Match?: FaultMatch;
  Action: FaultAction;
  Times?: number;
  Probability?: number;
}

/** What happens to one request or notification. */
export type Effect =
  | { kind: 'status'; status: FaultStatus }
  | { kind: 'delay'; ms: number; text: string }
  | { kind: 'reset' }
  | { kind: 'lose-answer' }
  | { kind: 'duplicate'; copies: number }
  | { kind: 'drop' };

export const ACTIONS: Record<Channel, readonly (keyof FaultAction)[]> = {
  api: ['Status', 'Delay', 'Reset', 'LoseAnswer'],
  notifications: ['Duplicate', 'Delay', 'Drop'],
};

/** Matching fields that mean something on each channel. */
const MATCH_FIELDS: Record<Channel, readonly (keyof FaultMatch)[]> = {
  api: ['Method', 'Path', 'SiteID', 'PaymentID'],
  notifications: ['SiteID', 'PaymentID', 'StatusID'],
};

/** The longest delay: a day. */
export const MAX_DELAY_MS = 86_400_000;

/** A route of the API: method and path template (`/v1/payments/{id}/capture`). */
export interface Route {
  method: string;
  path: string;
}

/** A rule ready to match: its Path as segments, null where any segment matches. */
export interface Rule {
  id: number;
  channel: Channel;
  match: FaultMatch;
  action: FaultAction;
  effect: Effect;
  path: (string | null)[] | null;
  times: number | null;
  probability: number;
  hits: number;
  draws: number;
}

/** A rule refused, with the field that is wrong named in the message. */
export class RuleRefused extends Error {}

/** `/v1/payments/{id}/` → ['v1', 'payments', null]; literal segments in lower case (routes ignore case). */
export function pathSegments(path: string): (string | null)[] {
  return path
    .replace(/\/+$/, '')
    .split('/')
    .slice(1)
    .map((s) => (/^\{[^}]*\}$/.test(s) ? null : s.toLowerCase()));
}

/** Whether `given` fits `pattern`: null in the pattern takes any segment; null given (a template's
 * placeholder) fits only there. */
function segmentsFit(given: readonly (string | null)[], pattern: readonly (string | null)[]): boolean {
  if (given.length !== pattern.length) return false;
  for (let i = 0; i < given.length; i++) {
    if (pattern[i] !== null && given[i] !== pattern[i]) return false;
  }
  return true;
}

/** Whether the literal segments of `given` standing for a route's IDs (`{id}`, `{splitId}`…) could be IDs: a rule on `/v1/payments/-1` would never act. */
function idsFit(given: readonly (string | null)[], template: string): boolean {
  const names = template.replace(/\/+$/, '').split('/').slice(1);
  return names.every((name, i) => !/^\{\w*id\}$/i.test(name) || given[i] === null || /^[0-9]{1,15}$/.test(given[i]!));
}

/** The effect of a valid action. */
export function effectOf(action: FaultAction): Effect {
  if (action.Status !== undefined) return { kind: 'status', status: action.Status };
  if (action.Delay !== undefined) return { kind: 'delay', ms: parseDuration(action.Delay) ?? 0, text: action.Delay };
  if (action.Reset) return { kind: 'reset' };
  if (action.LoseAnswer) return { kind: 'lose-answer' };
  if (action.Duplicate !== undefined) return { kind: 'duplicate', copies: action.Duplicate };
  return { kind: 'drop' };
}

/**
 * The checks a schema cannot make: an action and matching fields of the rule's channel, a delay
 * within a day, and a Path (with its Method) that is a route of either address. Throws RuleRefused.
 */
export function checkRule(input: FaultInput, routes: readonly Route[]): void {
  const { Channel: channel, Action: action } = input;
  const match = input.Match ?? {};
  const name = Object.keys(action)[0] as keyof FaultAction;
  if (!ACTIONS[channel].includes(name)) {
    throw new RuleRefused(`Action.${name} is not an action of the ${channel} channel: use one of ${ACTIONS[channel].join(', ')}`);
  }
  if (action.Delay !== undefined) {
    const ms = parseDuration(action.Delay);
    if (ms === null || ms < 1) throw new RuleRefused('Action.Delay is invalid: expected a duration such as 500ms, 2s or 1m');
    if (ms > MAX_DELAY_MS) throw new RuleRefused('Action.Delay is invalid: must be at most 24h');
  }
  for (const field of Object.keys(match) as (keyof FaultMatch)[]) {
    if (!MATCH_FIELDS[channel].includes(field)) {
      throw new RuleRefused(`Match.${field} does not apply to the ${channel} channel: it matches by ${MATCH_FIELDS[channel].join(', ')}`);
    }
  }
  if (match.Path !== undefined) {
    const segments = pathSegments(match.Path);
    const shaped = routes.filter((r) => segmentsFit(segments, pathSegments(r.path)));
    if (shaped.length === 0) {
      throw new RuleRefused(`Match.Path is invalid: ${match.Path} is no route of the API (faults apply to the /v1 routes of both addresses)`);
    }
    const fits = shaped.filter((r) => idsFit(segments, r.path));
    if (fits.length === 0) {
      throw new RuleRefused(`Match.Path is invalid: ${match.Path} names no ID a route takes (IDs are whole numbers of 1 to 15 digits, or a {placeholder})`);
    }
    if (match.Method !== undefined && !fits.some((r) => r.method === match.Method)) {
      const methods = [...new Set(fits.map((r) => r.method))];
      throw new RuleRefused(`Match.Method is invalid: ${match.Path} takes ${methods.join(' or ')}, not ${match.Method}`);
    }
  } else if (match.Method !== undefined && !routes.some((r) => r.method === match.Method)) {
    throw new RuleRefused(`Match.Method is invalid: no route of the API takes ${match.Method}`);
  }
}

/** A request as the rules see it: its method, its path's segments, the payment its path names. */
export interface RequestFacts {
  method: string;
  segments: string[];
  paymentId: number | null;
}

const PAYMENT_IN_PATH = /^\/v1\/payments\/([0-9]{1,15})(?:\/|$)/i;

export function requestFacts(method: string, path: string): RequestFacts {
  const m = PAYMENT_IN_PATH.exec(path);
  return {
    method: method.toUpperCase(),
    segments: pathSegments(path) as string[],
    paymentId: m ? Number(m[1]) : null,
  };
}

/** Whether an api rule matches a request; `siteId` is the authenticated site (null: none). */
export function matchesRequest(rule: Rule, req: RequestFacts, siteId: number | null): boolean {
  const m = rule.match;
  if (m.SiteID !== undefined && m.SiteID !== siteId) return false;
  if (m.Method !== undefined && m.Method !== req.method) return false;
  if (m.PaymentID !== undefined && m.PaymentID !== req.paymentId) return false;
  if (rule.path !== null && !segmentsFit(req.segments, rule.path)) return false;
  return true;
}

/** Whether a notifications rule matches a notification (its site is the notified one). */
export function matchesNotification(rule: Rule, n: { siteId: number; paymentId: number; statusId: number }): boolean {
  const m = rule.match;
  if (m.SiteID !== undefined && m.SiteID !== n.siteId) return false;
  if (m.PaymentID !== undefined && m.PaymentID !== n.paymentId) return false;
  if (m.StatusID !== undefined && m.StatusID !== n.statusId) return false;
  return true;
}

export const FAULT_HEADER_HELP = 'X-Sandbox-Fault must be one of 500, 502, 503, 504, 429, 408, reset, lose-answer or delay=<duration> (e.g. delay=2s)';

/** The effect an `X-Sandbox-Fault` header asks for; RuleRefused when it is no known value. */
export function parseFaultHeader(value: string): Effect {
  const v = value.trim().toLowerCase();
  if (v === 'reset') return { kind: 'reset' };
  if (v === 'lose-answer') return { kind: 'lose-answer' };
  if ((API_STATUSES as readonly number[]).includes(Number(v)) && /^[0-9]{3}$/.test(v)) return { kind: 'status', status: Number(v) as FaultStatus };
  const d = /^delay=(.+)$/.exec(v);
  if (d) {
    const ms = parseDuration(d[1]!);
    if (ms !== null && ms >= 1 && ms <= MAX_DELAY_MS) return { kind: 'delay', ms, text: d[1]! };
  }
  throw new RuleRefused(FAULT_HEADER_HELP);
}

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * The `n`th random number in [0, 1) of rule `ruleId` under `seed`: a function of those three alone,
 * so the same seed gives the same hits whatever other requests or rules came in between.
 */
export function draw(seed: number, ruleId: number, n: number): number {
  return mix(mix(mix(seed ^ 0x9e3779b9) ^ ruleId) ^ n) / 2 ** 32;
}

/** How a fault shaped something, for journal and log lines: "answered 503", "delayed 2s". */
export function describeEffect(e: Effect): string {
  switch (e.kind) {
    case 'status':
      return `answered ${e.status}`;
    case 'delay':
      return `delayed ${e.text}`;
    case 'reset':
      return 'connection reset';
    case 'lose-answer':
      return 'answer lost after the commit';
    case 'duplicate':
      return `sent ${e.copies} times`;
    case 'drop':
      return 'dropped';
  }
}
