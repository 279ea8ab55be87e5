// The live set of fault rules: kept in the store (with their hits, so they survive a restart),
// indexed in memory by channel and SiteID so that a request or a notification looks only at the
// rules of its own site and at those for every site. With no rule, the request path checks one count.
import { EventEmitter } from 'node:events';
import { HttpError } from '../errors/errors';
import { faultRequest } from '../schemas/control';
import { validate } from '../schemas/validator';
import type { FaultRecord } from '../store/faults.repo';
import type { Store } from '../store/store';
import {
  type Channel,
  type FaultInput,
  type RequestFacts,
  type Route,
  type Rule,
  RuleRefused,
  checkRule,
  draw,
  effectOf,
  matchesNotification,
  matchesRequest,
  pathSegments,
} from './rules';

/** A rule as the control API shows it. */
export interface FaultView {
  ID: number;
  Channel: Channel;
  Match: Record<string, unknown>;
  Action: Record<string, unknown>;
  Times: number | null;
  Probability: number;
  Hits: number;
}

/** Told (event 'hit') each time a fault acts: a rule (FaultID) or a request's X-Sandbox-Fault header (null). */
export interface FaultHit {
  FaultID: number | null;
  Channel: Channel;
  /** What it did: "answered 503", "delayed 2s", "dropped", … */
  Effect: string;
  /** `POST /v1/payments` or `notification 12`. */
  Target: string;
}

/**
 * The /v1 routes of both addresses: what an api rule's Path and Method may name. Listed when the first
 * rule is checked: the catalogue, with the response schemas it names, is no part of a start.
 */
export function apiRoutes(): readonly Route[] {
  if (listed === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { operations } = require('../routes/catalogue') as typeof import('../routes/catalogue');
    listed = [...operations('api'), ...operations('card')]
      .filter((op) => op.path.startsWith('/v1/'))
      .map((op) => ({ method: op.method.toUpperCase(), path: op.path }));
  }
  return listed;
}
let listed: readonly Route[] | undefined;

/** Match.Method as routes name it: methods are matched whatever their case, as Path is. */
function withMethodInCapitals(input: unknown): unknown {
  const match = (input as { Match?: unknown } | null)?.Match;
  if (match === null || typeof match !== 'object' || typeof (match as { Method?: unknown }).Method !== 'string') return input;
  const method = (match as { Method: string }).Method;
  return { ...(input as object), Match: { ...match, Method: method.toUpperCase() } };
}

const viewOf = (r: FaultRecord): FaultView => ({
  ID: r.id,
  Channel: r.channel,
  Match: JSON.parse(r.match) as Record<string, unknown>,
  Action: JSON.parse(r.action) as Record<string, unknown>,
  Times: r.times,
  Probability: r.probability,
  Hits: r.hits,
});

const ruleOf = (r: FaultRecord): Rule => {
  const match = JSON.parse(r.match) as Rule['match'];
  const action = JSON.parse(r.action) as Rule['action'];
  return {
    id: r.id,
    channel: r.channel,
    match,
    action,
    effect: effectOf(action),
    path: match.Path === undefined ? null : pathSegments(match.Path),
    times: r.times,
    probability: r.probability,
    hits: r.hits,
    draws: r.draws,
  };
};

/** The rules of one channel: those of each SiteID, and those for every site. Each list in ID order. */
class SiteIndex {
  private readonly bySite = new Map<number, Rule[]>();
  private readonly anySite: Rule[] = [];
  size = 0;

  add(rule: Rule): void {
    const site = rule.match.SiteID;
    let list = this.anySite;
    if (site !== undefined) {
      list = this.bySite.get(site) ?? [];
      this.bySite.set(site, list);
    }
    list.push(rule);
    list.sort((a, b) => a.id - b.id);
    this.size++;
  }

  remove(rule: Rule): void {
    const site = rule.match.SiteID;
    const list = site === undefined ? this.anySite : this.bySite.get(site);
    const at = list?.indexOf(rule) ?? -1;
    if (!list || at < 0) return;
    list.splice(at, 1);
    if (site !== undefined && list.length === 0) this.bySite.delete(site);
    this.size--;
  }

  clear(): void {
    this.bySite.clear();
    this.anySite.length = 0;
    this.size = 0;
  }

  /** Whether some rule names a SiteID (a request's credentials are checked only then). */
  get bySiteCount(): number {
    return this.bySite.size;
  }

  /** The rules that may apply to `siteId` (null: no site), in ID order. */
  *candidates(siteId: number | null): Generator<Rule> {
    const own = siteId === null ? undefined : this.bySite.get(siteId);
    if (!own) return yield* this.anySite;
    let i = 0;
    let j = 0;
    while (i < own.length || j < this.anySite.length) {
      const a = own[i];
      const b = this.anySite[j];
      if (b === undefined || (a !== undefined && a.id < b.id)) (yield a!, i++);
      else (yield b, j++);
    }
  }
}

/** How many fault rules a marketplace may have at once: each is looked at on its every request. */
export const DEFAULT_FAULT_RULES_PER_MARKETPLACE = 100;

export class Faults {
  /** 'hit' with a FaultHit, each time a fault acts. */
  readonly events = new EventEmitter();
  private readonly api = new SiteIndex();
  private readonly notifications = new SiteIndex();
  /** Rules in force by ID (spent ones are not). */
  private readonly live = new Map<number, Rule>();

  /**
   * `seed` makes Probability reproducible: the same seed gives the same hits. `perMarketplace`: how
   * many rules each marketplace may have at once (its quota; the sandbox's own rules have none).
   */
  constructor(
    private readonly store: Store,
    private readonly seed: number,
    readonly perMarketplace = DEFAULT_FAULT_RULES_PER_MARKETPLACE,
  ) {
    this.events.setMaxListeners(0);
  }

  /** How many api rules are in force: when 0, a request is not looked at. */
  get apiRules(): number {
    return this.api.size;
  }

  get notificationRules(): number {
    return this.notifications.size;
  }

  /** Reads the rules from the store again: at start, after a reset, after a database is restored. */
  reload(): void {
    this.api.clear();
    this.notifications.clear();
    this.live.clear();
    for (const r of this.store.faults.all()) {
      if (r.times !== null && r.hits >= r.times) continue;
      this.index(ruleOf(r));
    }
  }

  /**
   * Adds a rule from the body of POST /_sandbox/faults; a 400 HttpError naming the field when it is
   * wrong. `owner`: a marketplace's own rule, which acts on its own requests and notifications only.
   */
  add(given: unknown, owner: number | null = null): FaultView {
    const input = withMethodInCapitals(given);
    const problems = validate(faultRequest, input ?? {});
    if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.Info).join('; '));
    let rule = input as FaultInput;
    if (owner !== null) {
      if (rule.Match?.SiteID !== undefined && rule.Match.SiteID !== owner) throw new HttpError(400, `Match.SiteID: a marketplace's rule acts on its own SiteID (${owner}) only`);
      rule = { ...rule, Match: { ...rule.Match, SiteID: owner } };
      const paymentId = rule.Match?.PaymentID;
      const payment = paymentId === undefined ? undefined : this.store.payments.getAny(paymentId);
      if (payment && payment.ownerSiteId !== owner && this.store.sites.get(payment.ownerSiteId)?.marketplaceSiteId !== owner) {
        throw new HttpError(400, `Match.PaymentID: a marketplace's rule acts on its own payments only (${paymentId} is not SiteID ${owner}'s)`);
      }
    }
    try {
      checkRule(rule, apiRoutes());
    } catch (e) {
      if (e instanceof RuleRefused) throw new HttpError(400, e.message);
      throw e;
    }
    const store = this.store;
    // Checked last, so that a wrong rule is told what is wrong with it first.
    if (owner !== null && this.ownedBy(owner) >= this.perMarketplace) {
      throw new HttpError(409, `SiteID ${owner} is at its fault rule quota of ${this.perMarketplace} rule${this.perMarketplace === 1 ? '' : 's'}: delete one first`);
    }
    const id = store.tx(() =>
      store.faults.insert({
        channel: rule.Channel,
        match: JSON.stringify(rule.Match ?? {}),
        action: JSON.stringify(rule.Action),
        times: rule.Times ?? null,
        probability: rule.Probability ?? 1,
        createdAt: Date.now(),
        ownerSiteId: owner,
      }),
    );
    const record = store.faults.get(id)!;
    this.index(ruleOf(record));
    return viewOf(record);
  }

  /** How many rules marketplace `owner` has (spent ones too: they stay listed until deleted). */
  ownedBy(owner: number): number {
    return this.store.faults.countOwned(owner);
  }

  /** How many rules the marketplaces have together, for health. */
  ownedByMarketplaces(): number {
    return this.store.faults.countOwned(null);
  }

  /** Every rule, or (`owner`) those of one marketplace. */
  list(owner: number | null = null): FaultView[] {
    return this.store.faults
      .all()
      .filter((r) => owner === null || r.ownerSiteId === owner)
      .map(viewOf);
  }

  get(id: number, owner: number | null = null): FaultView | undefined {
    const r = this.store.faults.get(id);
    return r && (owner === null || r.ownerSiteId === owner) ? viewOf(r) : undefined;
  }

  /** Deletes one rule (`owner`: only one of that marketplace's); false when there is none with that ID. */
  remove(id: number, owner: number | null = null): boolean {
    if (owner !== null && this.store.faults.get(id)?.ownerSiteId !== owner) return false;
    const gone = this.store.tx(() => this.store.faults.delete(id));
    const rule = this.live.get(id);
    if (rule) this.unindex(rule);
    return gone;
  }

  /** Deletes every rule, or (`owner`) every rule of one marketplace. */
  clear(owner: number | null = null): void {
    const store = this.store;
    store.tx(() => {
      if (owner === null) store.faults.deleteAll();
      else for (const r of store.faults.all()) if (r.ownerSiteId === owner) store.faults.delete(r.id);
    });
    this.reload();
  }

  /** The rules that can touch a payment of `siteId` (for the dashboard's payment page). */
  forPayment(siteId: number, paymentId: number): FaultView[] {
    return this.list().filter((f) => {
      const m = f.Match as { SiteID?: number; PaymentID?: number };
      return (m.SiteID === undefined || m.SiteID === siteId) && (m.PaymentID === undefined || m.PaymentID === paymentId);
    });
  }

  /**
   * The api rule that acts on a request, if any (its hit counted). `siteOf` gives the authenticated
   * site (null when the credentials are wrong); it is asked only when some rule names a SiteID.
   */
  matchRequest(req: RequestFacts, siteOf: () => number | null): Rule | null {
    const site = this.api.bySiteCount > 0 ? siteOf() : null;
    for (const rule of this.api.candidates(site)) {
      if (matchesRequest(rule, req, site) && this.fires(rule)) return rule;
    }
    return null;
  }

  /** The notifications rule that acts on a notification, if any (its hit counted). */
  matchNotification(n: { siteId: number; paymentId: number | null; statusId: number }): Rule | null {
    for (const rule of this.notifications.candidates(n.siteId)) {
      if (matchesNotification(rule, n) && this.fires(rule)) return rule;
    }
    return null;
  }

  /** Tells listeners that a fault acted. */
  told(hit: FaultHit): void {
    if (this.events.listenerCount('hit') > 0) this.events.emit('hit', hit);
  }

  /** Whether a matching rule acts this time (its Probability), counting the hit and the draw. */
  private fires(rule: Rule): boolean {
    let fire = true;
    if (rule.probability < 1) fire = draw(this.seed, rule.id, rule.draws++) < rule.probability;
    if (fire) rule.hits++;
    if (fire || rule.probability < 1) this.store.tx(() => this.store.faults.count(rule.id, rule.hits, rule.draws));
    if (rule.times !== null && rule.hits >= rule.times) this.unindex(rule);
    return fire;
  }

  private index(rule: Rule): void {
    (rule.channel === 'api' ? this.api : this.notifications).add(rule);
    this.live.set(rule.id, rule);
  }

  private unindex(rule: Rule): void {
    if (!this.live.delete(rule.id)) return;
    (rule.channel === 'api' ? this.api : this.notifications).remove(rule);
  }
}
