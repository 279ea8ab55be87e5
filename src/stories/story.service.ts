// Stories as the control API serves them: told from what the store holds about a payment, and
// replayed as a new payment that the sandbox drives through the same steps.
import { formatTimestamp } from '../domain/time';
import { HttpError, Rejection, notFound } from '../errors/errors';
import { ScenarioError, parseScenario } from '../scenarios/loader';
import { storyFile } from '../schemas/reproduce';
import { MTID_MAX } from '../schemas/requests';
import { validate } from '../schemas/validator';
import type { ServiceContext } from '../services/context';
import { listMerchants } from '../services/merchants.service';
import { createPayment } from '../services/payments.service';
import type { SiteRecord } from '../store/records';
import { type StoryFile, tellStory } from './story';

/** Scenario names are at most 64 characters; room is left for "-<n>". */
const NAME_MAX = 56;

/** `GET /_sandbox/payments/{id}/story`. */
export function storyOf(ctx: ServiceContext, id: number): StoryFile {
  const store = ctx.store;
  const payment = store.payments.getAny(id);
  if (!payment) throw notFound('Payment');
  if (payment.surface !== 'api') {
    throw new HttpError(400, `payment ${id} was made on the card API: stories tell of payments of the split-payments API`);
  }
  if (payment.preapprovalId) {
    // Its request needs the preapproval, which a story does not carry.
    throw new HttpError(400, `payment ${id} was charged under preapproval ${payment.preapprovalId}: a recurring payment has no story`);
  }
  const addedAfter = new Map(store.splits.addedAfter(id).map((r) => [r.id, r.addedAfter]));
  return tellStory({
    payment,
    tokenLifetime: payment.tokenLifetime ?? store.stories.erasedTokenLifetime(id) ?? null,
    splits: store.splits.ofPayment(id).map((s) => ({ ...s, addedAfter: addedAfter.get(s.id) ?? null })),
    refunds: store.refunds.ofPayment(id),
    history: store.history.ofPayment(id),
    jobs: store.jobs.ofPayment(id),
    scenario: payment.scenario === null ? undefined : ctx.scenarios?.get(payment.scenario),
    createdStamp: formatTimestamp(payment.createdAt),
    refused: refusedCalls(ctx, id, payment.ownerSiteId),
  });
}

/** How many refused calls a story tells at most (a client retrying in a loop would fill it). */
const REFUSED_MAX = 100;

/** The payment's marketplace's own refused calls: another marketplace's, refused on it, are not its story. */
function refusedCalls(ctx: ServiceContext, paymentId: number, siteId: number) {
  ctx.requests?.flush();
  const site = ctx.store.sites.get(siteId);
  return ctx.store.requests
    .page({ paymentId, owner: site?.marketplaceSiteId ?? siteId }, { limit: -1, offset: 0, descending: false })
    .filter((r) => r.status === null || r.status >= 400)
    .slice(0, REFUSED_MAX);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `POST /_sandbox/replay`: a new payment from the story's create request, with fresh
 * MerchantTransactionIDs derived from the story's (`<id>-replay<n>`, the first n free on the site),
 * following the story's steps as its scenario. The scenario is kept in the store, so the payment's
 * steps run after a restart or a restore too. All or nothing: a refused request keeps nothing.
 */
export function replayStory(ctx: ServiceContext, body: unknown): { paymentId: number; scenario: string } {
  const problems = validate(storyFile, body);
  if (problems.length > 0) throw new Rejection(problems);
  const story = structuredClone(body) as Obj & { Request: { Payment: Obj }; Story?: { SiteID?: number }; Name: string };
  const cat = ctx.scenarios;
  if (!cat) throw new HttpError(400, 'this sandbox runs without scenarios: a story cannot be replayed');
  const site = replaySite(ctx, story.Story?.SiteID);

  const payment = story.Request.Payment;
  const mtid = typeof payment.MerchantTransactionID === 'string' && payment.MerchantTransactionID !== '' ? payment.MerchantTransactionID : 'replay';
  let n = 1;
  while (ctx.store.payments.merchantTransactionIdTaken(site.siteId, 'api', fresh(mtid, n))) n++;
  const rename = (v: unknown) => (typeof v === 'string' && v !== '' ? fresh(v, n) : v);
  payment.MerchantTransactionID = fresh(mtid, n);
  for (const s of Array.isArray(payment.Splits) ? payment.Splits : []) if (isObj(s)) s.MerchantTransactionID = rename(s.MerchantTransactionID);
  for (const step of story.Steps as Obj[]) {
    if (step.MerchantTransactionID !== undefined) step.MerchantTransactionID = rename(step.MerchantTransactionID);
    for (const s of Array.isArray(step.NewSplits) ? step.NewSplits : []) if (isObj(s)) s.MerchantTransactionID = rename(s.MerchantTransactionID);
  }

  const scenario: Obj = {};
  for (const key of ['Description', 'CaptureRequested', 'Steps', 'Refunds']) if (story[key] !== undefined) scenario[key] = story[key];
  const base = story.Name.slice(0, NAME_MAX).replace(/-+$/, '');
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}-${i}`;
    if (cat.hasFile(name)) continue;
    const text = JSON.stringify({ Name: name, ...scenario });
    const kept = ctx.store.stories.scenario(name);
    if (kept !== undefined && kept !== text) continue;
    try {
      parseScenario(JSON.parse(text), 'the story');
    } catch (e) {
      if (e instanceof ScenarioError) throw new HttpError(400, e.message);
      throw e;
    }
    try {
      return ctx.store.tx(() => {
        if (kept === undefined) ctx.store.stories.saveScenario(name, text);
        const view = createPayment(ctx, site, { Payment: payment }, { scenario: name });
        return { paymentId: view.payment.id, scenario: name };
      });
    } catch (e) {
      if (e instanceof Rejection) {
        throw new HttpError(400, `Request was refused: ${e.reasons.map((r) => `${r.Code} ${r.Info}`).join('; ')}`);
      }
      throw e;
    }
  }
}

/** `<mtid>-replay<n>`, shortened at the front to stay within the API's limit. */
function fresh(mtid: string, n: number): string {
  const suffix = `-replay${n}`;
  return mtid.slice(0, MTID_MAX - suffix.length) + suffix;
}

/** The merchant a replay creates the payment for: the story's SiteID, or the first marketplace. */
function replaySite(ctx: ServiceContext, siteId: number | undefined): SiteRecord {
  if (siteId === undefined) {
    const first = listMerchants(ctx).find((m) => m.LinkedSiteIDs.length > 0) ?? listMerchants(ctx)[0];
    if (!first) throw new HttpError(400, 'this sandbox has no merchant to replay the story for');
    siteId = first.SiteID;
  }
  const site = ctx.store.sites.get(siteId);
  if (!site?.apiKey || site.marketplaceSiteId !== null) throw new HttpError(400, `Story.SiteID is invalid: this sandbox has no merchant ${siteId}`);
  return site;
}
