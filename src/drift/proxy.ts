// The drift proxy: forwards each call to the real service untouched, runs it again on the shadow
// sandbox off the answer's path, and reports where the two differ (`startDrift`).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { maskUrl } from '../domain/card-data';
import { clientTest } from '../http/control/networks';
import { type Logger, silentLogger } from '../log';
import { type CallRef, type Difference, DriftReport, type Found, compareExchange, compareNotification, compareNotificationOrder, statusPathDifference } from './differences';
import { renderDriftPage } from './drift.page';
import { followReport } from './report-file';
import { type DriftStory, PaymentRecorder, paymentIdOfPath } from './stories';
import { IdMap, containerKind, isObject } from './id-map';
import { type Answer, endToEnd, forwardedHeaders, jsonOf, send } from './send';
import { Shadow, eventsBetween, preapprovalEventsBetween } from './shadow';

export interface DriftOptions {
  /** The real service's API address, e.g. `https://test.example/api`. */
  upstream: string;
  /** The real service's card API address. */
  upstreamCard: string;
  /** Ports of the proxy's two listeners (0 picks a free one); 127.0.0.1 unless `host` says otherwise. */
  port?: number;
  cardPort?: number;
  host?: string;
  /** A merchants fixture file with the real account's SiteID, APIKey and linked sites (the package's own when absent). */
  merchants?: string;
  /** The integration's notification URL: each real notification is relayed there unchanged. */
  notifyTo?: string;
  /** Required as `Authorization: Bearer <token>` by the report; without it only this machine reads it. */
  controlToken?: string;
  /** A folder that gets the story of each payment that differed, `drift-<real payment ID>.json`, when the proxy stops. */
  stories?: string;
  /** A file kept the report's copy as the run goes (`{"Differences": [...]}`). */
  out?: string;
  /** Called with each difference as it is found (a log line). */
  onDifference?: (d: Difference) => void;
  log?: Logger;
  /** How long a notification waits for its partner from the other side before it counts as missing (real time). */
  notificationGraceMs?: number;
}

export interface Drift {
  /** The proxy's API address: the integration's base URL. */
  apiUrl: string;
  /** The proxy's card API address. */
  cardUrl: string;
  report: DriftReport;
  /** The shadow sandbox (its journal holds the calls the differences name). */
  shadow: Shadow;
  /** The real ↔ shadow IDs learnt so far. */
  ids: IdMap;
  /** The story of a payment this run saw created (its real ID), with the differences its calls showed; undefined for another. */
  storyOf(paymentId: number | string): DriftStory | undefined;
  /** The stories of every payment that showed a difference, by real payment ID. */
  stories(): Record<string, DriftStory>;
  /**
   * Resolves once every call so far has run on the shadow, its notifications are delivered and each
   * notification is paired: one without a partner by then is reported as a difference.
   */
  idle(): Promise<void>;
  close(): Promise<void>;
}

type Surface = 'api' | 'card';
const HOOK = '/_drift/notify';
/** The longest a shadow call waits for a pause in the traffic. */
const QUIET_WAIT_MS = 100;
/** Paging figures of a list: the two sides count different histories, so only their types are compared. */
const PAGING = ['Count', 'TotalCount', 'TotalPages', 'PageIndex', 'PageSize'];
/** Literal route words: everything else after a noun is an ID. */
const ROUTE_WORDS = new Set(['v1', 'payments', 'splits', 'refunds', 'captures', 'capture', 'cancel', 'status', 'statuss', 'types', 'recurrent', 'preapprovals', 'payouts', 'merchantsites', 'regenerateapikey', 'card', 'token', 'authenticate', 'challenge', 'accept', 'reject', 'exchangerates', 'disputes']);

/** The route of a path, IDs written `{id}`: `/v1/payments/{id}/capture`. */
export function routeOf(path: string): string {
  return path
    .split('/')
    .map((p) => (p === '' || ROUTE_WORDS.has(p.toLowerCase()) ? p : '{id}'))
    .join('/');
}

interface Pending {
  kind: string;
  key: string;
  paymentKey: string;
  body: unknown;
  status: number;
  at: number;
}

export async function startDrift(options: DriftOptions): Promise<Drift> {
  const log = options.log ?? silentLogger;
  const host = options.host ?? '127.0.0.1';
  const upstream = { api: new URL(options.upstream), card: new URL(options.upstreamCard) };
  const report = new DriftReport();
  if (options.onDifference) report.on('difference', options.onDifference);
  report.on('difference', (d) => log.warn('drift: difference', { kind: d.Kind, route: d.Route, field: d.Field ?? undefined, count: d.Count, journal: d.Call.JournalID ?? undefined }));
  const ids = new IdMap();
  /** Each payment's calls and shown statuses, for the story of one that differed. */
  const recorder = new PaymentRecorder();
  const shadowSite = () => (sh.sandbox.merchant.SiteID === 0 ? undefined : sh.sandbox.merchant.SiteID);
  const graceMs = options.notificationGraceMs ?? 60_000;

  // The shadow's notifications come to a listener of their own, on loopback, under a path nobody guesses.
  const secret = randomBytes(16).toString('hex');
  const fromUpstream: Pending[] = [];
  const fromShadow: Pending[] = [];
  /** Each payment's notifications in the order each side sent them: compared when the run settles. */
  const sequences = new Map<string, { upstream: string[]; shadow: string[] }>();
  /** The last call on each payment (by its real ID): the one a notification's difference names. */
  const lastCall = new Map<string, CallRef>();
  /** Changes a 'status path' difference already covers: their notification is not missing again. */
  const pathDiffered = new Set<string>();
  let shadow: Shadow | null = null;

  const receiver = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.url !== `/${secret}`) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(204).end();
      const parsed = describeNotification(jsonOf(body), 'shadow');
      if (parsed) {
        fromShadow.push(parsed);
        sequence(parsed.paymentKey).shadow.push(parsed.key);
        pair();
      }
    });
  });
  await listenOn(receiver, 0, '127.0.0.1');
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/${secret}`;
  try {
    shadow = await Shadow.start({ merchants: options.merchants, notifyUrl: receiverUrl });
  } catch (e) {
    receiver.close();
    throw e;
  }
  const sh = shadow;

  /** The shadow's work, one call or notification at a time in arrival order: IDs are learnt before they are used. */
  let chain: Promise<void> = Promise.resolve();
  /**
   * Calls on their way to or from the upstream. The shadow runs in this process: each of its calls
   * waits until none is (for at most QUIET_WAIT_MS), so that its work lands between answers, not in them.
   */
  let forwarding = 0;
  let quietWaiters: (() => void)[] = [];
  const quiet = () =>
    forwarding === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(() => {
            quietWaiters = quietWaiters.filter((w) => w !== done);
            resolve();
          }, QUIET_WAIT_MS);
          quietWaiters.push(done);
        });
  const forwarded = () => {
    if (--forwarding > 0) return;
    const waiters = quietWaiters;
    quietWaiters = [];
    for (const w of waiters) w();
  };
  const enqueue = (work: () => Promise<void>) => {
    chain = chain
      .then(quiet)
      .then(work)
      .catch((e: Error) => log.error('drift: shadow call failed', { error: e.message }));
  };

  const upstreamIdOf = (shadowId: string) => {
    const r = ids.realOfAny(shadowId);
    return r === undefined ? undefined : String(r);
  };
  const add = (diffs: Found[]) => {
    if (diffs.length > 0) report.add(diffs);
  };

  /** What a notification body is about: its kind, the real ID it names and its status. */
  function describeNotification(body: unknown, side: 'upstream' | 'shadow'): Pending | null {
    if (!isObject(body)) return null;
    const kind = Object.keys(body)[0];
    const obj = kind === undefined ? undefined : body[kind];
    if (kind === undefined || !isObject(obj) || obj.ID === undefined) return null;
    const idKind = containerKind(kind);
    if (!idKind) return null;
    const realId = side === 'upstream' ? obj.ID : ids.realOf(idKind, obj.ID as number);
    // A payment this run never saw (made before the proxy started) is not compared.
    if (realId === undefined || (side === 'upstream' && ids.shadowOf(idKind, obj.ID as number) === undefined)) return null;
    const status = isObject(obj.Status) && typeof obj.Status.ID === 'number' ? obj.Status.ID : -1;
    const paymentId = kind === 'Payment' ? realId : (obj.PaymentID ?? realId);
    return { kind, key: `${kind}:${realId}:${status}`, paymentKey: `${kind === 'Preapproval' ? 'Preapproval' : 'Payment'}:${paymentId}`, body, status, at: Date.now() };
  }

  function sequence(paymentKey: string) {
    let s = sequences.get(paymentKey);
    if (!s) sequences.set(paymentKey, (s = { upstream: [], shadow: [] }));
    return s;
  }

  function refOf(paymentKey: string): CallRef {
    return lastCall.get(paymentKey) ?? { Method: 'POST', Path: HOOK, JournalID: null, At: '' };
  }

  /** Pairs the notifications both sides sent for the same change, and compares each pair. */
  function pair(): void {
    for (let i = 0; i < fromUpstream.length; i++) {
      const u = fromUpstream[i]!;
      const j = fromShadow.findIndex((s) => s.key === u.key);
      if (j < 0) continue;
      const s = fromShadow.splice(j, 1)[0]!;
      fromUpstream.splice(i--, 1);
      add(compareNotification(u.kind, refOf(u.paymentKey), u.body, ids.asReal(s.body), upstreamIdOf));
    }
  }

  /** Reports what stayed without a partner (for longer than `olderThanMs`), and notifications sent in another order. */
  function settle(olderThanMs: number): void {
    pair();
    const now = Date.now();
    for (const [list, side] of [
      [fromUpstream, 'upstream'],
      [fromShadow, 'shadow'],
    ] as const) {
      for (let i = 0; i < list.length; i++) {
        const n = list[i]!;
        if (now - n.at < olderThanMs) continue;
        list.splice(i--, 1);
        if (side === 'upstream' && pathDiffered.has(n.key)) continue;
        add(compareNotification(n.kind, refOf(n.paymentKey), side === 'upstream' ? n.body : undefined, side === 'shadow' ? ids.asReal(n.body) : undefined));
      }
    }
    for (const [paymentKey, seq] of sequences) {
      add(compareNotificationOrder(`notification ${paymentKey.split(':')[0]}`, refOf(paymentKey), seq.upstream.map(changeOf), seq.shadow.map(changeOf)));
    }
    sequences.clear();
  }

  /**
   * Moves the shadow's payments to the states the upstream shows them in, with provider events; a
   * state the shadow's method cannot reach that way is a 'status path' difference. True when one moved.
   */
  async function follow(upstreamBody: unknown, call: CallRef, route: string): Promise<boolean> {
    let moved = false;
    for (const p of statusesIn(upstreamBody)) {
      const payment = p.kind === 'payment';
      const shadowId = ids.shadowOf(p.kind, p.id);
      if (shadowId === undefined) continue;
      const from = payment ? sh.statusOf(Number(shadowId)) : sh.preapprovalStatusOf(Number(shadowId));
      if (from === null || from === p.status) continue;
      for (const event of payment ? eventsBetween(from, p.status) : preapprovalEventsBetween(from, p.status)) {
        const done = await sh.drive(payment ? 'payments' : 'preapprovals', Number(shadowId), event);
        if (done === 'moved') moved = true;
        else if (done === 'wrong flow') {
          pathDiffered.add(`Payment:${p.id}:${p.status}`);
          add([statusPathDifference(route, call, [from, p.status], [from, `${event} refused: the method's flow does not go there`])]);
        }
      }
    }
    return moved;
  }

  async function onCall(surface: Surface, method: string, url: URL, headers: ReturnType<typeof forwardedHeaders>, body: Buffer, answer: Answer): Promise<void> {
    const path = ids.shadowPath(url.pathname);
    const query = ids.shadowQuery(url.search.replace(/^\?/, ''));
    const requestJson = jsonOf(body);
    const shadowBody = requestJson === undefined ? body : ids.shadowBody(requestJson);
    // A call on an ID this run never saw (a payment made before it) is forwarded and not compared.
    if (path === null || query === null || shadowBody === null) return;
    const raw = Buffer.isBuffer(shadowBody) ? shadowBody : Buffer.from(JSON.stringify(shadowBody));
    const target = query === '' ? path : `${path}?${query}`;
    const route = `${surface === 'card' ? 'card ' : ''}${method} ${routeOf(url.pathname)}`;
    const upstreamJson = jsonOf(answer.body);
    const isRead = method === 'GET';
    let got = await sh.call(surface, method, target, { ...headers, 'Content-Length': String(raw.length) }, raw);
    const call: CallRef = { Method: method, Path: url.pathname, JournalID: got.journalId, At: got.at };
    if (surface === 'api') record(method, url.pathname, requestJson, answer.status, upstreamJson, call);
    const ok = answer.status < 300 && got.status < 300;
    const isList = isRead && listKey(upstreamJson) !== null;
    if (ok && !isList) ids.learnFrom(upstreamJson, got.body);
    for (const p of statusesIn(upstreamJson)) lastCall.set(`${p.kind === 'payment' ? 'Payment' : 'Preapproval'}:${p.id}`, call);
    // A read shows what the provider did meanwhile: the shadow follows first, then is read again.
    if (isRead && ok && (await follow(upstreamJson, call, route))) {
      got = await sh.call(surface, method, target, { ...headers, 'Content-Length': String(raw.length) }, raw);
      call.JournalID = got.journalId;
      call.At = got.at;
    }
    const [upstreamSide, shadowJson] = isList && ok ? knownItems(upstreamJson, got.body) : [upstreamJson, ids.asReal(got.body)];
    add(compareExchange({ route, call, upstream: { status: answer.status, body: upstreamSide }, shadow: { status: got.status, body: shadowJson }, upstreamIdOf }));
    if (!isRead && ok) await follow(upstreamJson, call, route);
  }

  /** Each differing payment's story as `drift-<ID>.json` in `folder`, written beside its name and renamed. */
  function writeStories(folder: string): void {
    try {
      mkdirSync(folder, { recursive: true });
      for (const id of recorder.differing(report.list())) {
        const path = join(folder, `drift-${id}.json`);
        writeFileSync(`${path}.tmp`, JSON.stringify(recorder.storyOf(id, report.list(), shadowSite()), null, 2) + '\n');
        renameSync(`${path}.tmp`, path);
      }
    } catch (e) {
      log.error('drift: cannot write the stories', { error: (e as Error).message });
    }
  }

  function record(method: string, path: string, body: unknown, status: number, answer: unknown, ref: CallRef): void {
    const recorded = { method, path, body, at: Date.now(), status, answer, ref };
    const made = isObject(answer) && isObject(answer.Payment) ? answer.Payment.ID : undefined;
    if (method === 'POST' && path.replace(/\/$/, '') === '/v1/payments' && status === 201 && made !== undefined) recorder.created(String(made), recorded);
    else {
      const id = paymentIdOfPath(path);
      if (id !== null) recorder.call(id, recorded);
    }
  }

  /**
   * Items of a list that both sides know, the shadow's in the upstream's order and with real IDs;
   * paging figures taken as the upstream's when both are numbers (each side counts its own history).
   */
  function knownItems(upstreamBody: unknown, rawShadow: unknown): [unknown, unknown] {
    const key = listKey(upstreamBody)!;
    const kind = containerKind(key)!;
    if (!isObject(upstreamBody) || !isObject(rawShadow) || !Array.isArray(rawShadow[key])) return [upstreamBody, ids.asReal(rawShadow)];
    const byReal = new Map<string, unknown>();
    for (const x of rawShadow[key] as unknown[]) {
      const real = isObject(x) ? ids.realOf(kind, x.ID as number) : undefined;
      if (real !== undefined) byReal.set(String(real), ids.asReal(x, kind));
    }
    const upstreamItems = (upstreamBody[key] as unknown[]).filter((x) => isObject(x) && byReal.has(String(x.ID)));
    const u: Record<string, unknown> = { ...upstreamBody, [key]: upstreamItems };
    const s = ids.asReal({ ...rawShadow, [key]: [] }) as Record<string, unknown>;
    s[key] = upstreamItems.map((x) => byReal.get(String((x as Record<string, unknown>).ID)));
    for (const p of PAGING) if (typeof u[p] === 'number' && typeof s[p] === 'number') s[p] = u[p];
    return [u, s];
  }

  async function forward(surface: Surface, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    forwarding++;
    try {
      await relay(surface, req, res, started);
    } finally {
      forwarded();
    }
  }

  async function relay(surface: Surface, req: IncomingMessage, res: ServerResponse, started: number): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://proxy');
    const headers = forwardedHeaders(req.headers, req.rawHeaders, body);
    const base = upstream[surface];
    const target = new URL(base.pathname.replace(/\/$/, '') + url.pathname + url.search, base);
    let answer: Answer;
    try {
      answer = await send(target, req.method ?? 'GET', headers, body);
    } catch (e) {
      log.warn('drift: upstream unreachable', { method: req.method, path: maskUrl(url.pathname), error: (e as Error).message });
      res.writeHead(502, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Message: `The upstream ${base.origin}${base.pathname.replace(/\/$/, '')} did not answer: ${(e as Error).message}` }));
      return;
    }
    res.writeHead(answer.status, answer.statusMessage, endToEnd(answer.rawHeaders) as unknown as Record<string, string>);
    res.end(answer.body);
    log.info('drift: call', { method: req.method, path: maskUrl(url.pathname), status: answer.status, ms: Math.round(performance.now() - started) });
    const method = req.method ?? 'GET';
    enqueue(() => onCall(surface, method, url, headers, body, answer));
  }

  /** The real service's notification: relayed to the integration, and paired with the shadow's. */
  async function hook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    // Queued before it is relayed: an integration that calls the API while it handles the notification
    // (a capture once authorized) has the shadow follow the notification first, as the real service
    // moved before it notified.
    enqueue(async () => {
      const n = describeNotification(jsonOf(body), 'upstream');
      if (!n) return;
      fromUpstream.push(n);
      sequence(n.paymentKey).upstream.push(n.key);
      const shown = (n.body as Record<string, Record<string, unknown>>)[n.kind]!;
      if (n.kind === 'Payment') recorder.seen(String(shown.ID), Date.now(), n.status);
      else if (n.kind === 'Refund' && shown.PaymentID !== undefined) recorder.seen(String(shown.PaymentID), Date.now(), n.status, String(shown.ID));
      await follow(n.body, refOf(n.paymentKey), `notification ${n.kind}`);
      await sh.flush();
      pair();
    });
    if (options.notifyTo !== undefined) {
      try {
        const answer = await send(new URL(options.notifyTo), req.method ?? 'POST', forwardedHeaders(req.headers, req.rawHeaders, body), body);
        res.writeHead(answer.status, answer.statusMessage, endToEnd(answer.rawHeaders) as unknown as Record<string, string>).end(answer.body);
      } catch (e) {
        log.warn('drift: --notify-to unreachable', { error: (e as Error).message });
        res.writeHead(502).end();
      }
    } else res.writeHead(204).end();
  }

  const guard = controlGuard(options.controlToken);
  function control(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname.replace(/\/$/, '');
    // Open like the sandbox's own, so that `wait` and `stop --ready-file` work on the proxy as on `start`.
    if (req.method === 'GET' && path.toLowerCase() === '/_sandbox/health') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify({ Status: 'ok', BaseURL: apiUrl(), CardBaseURL: cardUrl(), PID: process.pid, Drift: true }));
      return;
    }
    if (!guard(req, res)) return;
    const story = /^\/_sandbox\/drift\/stories\/([0-9]+)$/.exec(path);
    if (req.method === 'GET' && story) {
      const told = recorder.storyOf(story[1]!, report.list(), shadowSite());
      if (told) res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(told));
      else res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ Message: 'This run saw no payment with that ID created.' }));
    } else if (req.method === 'GET' && path === '/_sandbox/drift/stories') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify({ Stories: Object.values(Object.fromEntries(recorder.differing(report.list()).map((id) => [id, recorder.storyOf(id, report.list(), shadowSite())]))) }));
    } else if (req.method === 'GET' && path === '/_sandbox/drift') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify({ Differences: report.list() }));
    } else if (req.method === 'GET' && path === '/_sandbox/dashboard/drift') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(renderDriftPage(report.list()));
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ Message: 'The drift proxy answers only GET /_sandbox/health, /_sandbox/drift, /_sandbox/drift/stories[/{payment ID}] and /_sandbox/dashboard/drift here.' }));
    }
  }

  const handler = (surface: Surface) => (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const done = surface === 'api' && path === HOOK ? hook(req, res) : /^\/_sandbox(\/|$)/i.test(path) ? Promise.resolve(control(req, res)) : forward(surface, req, res);
    done.catch((e: Error) => {
      log.error('drift: request failed', { error: e.message });
      if (!res.headersSent) res.writeHead(502).end();
    });
  };

  const servers: Server[] = [];
  const urlOf = (s: Server) => `http://${host.includes(':') ? `[${host}]` : host}:${(s.address() as AddressInfo).port}`;
  // A call may come in on the API listener while the card one is still starting.
  const apiUrl = () => (servers[0] ? urlOf(servers[0]) : '');
  const cardUrl = () => (servers[1] ? urlOf(servers[1]) : apiUrl());
  try {
    servers.push(await listenOn(createServer(handler('api')), options.port ?? 0, host));
    servers.push(await listenOn(createServer(handler('card')), options.cardPort ?? 0, host));
  } catch (e) {
    for (const s of servers) s.close();
    receiver.close();
    await sh.close();
    throw e;
  }
  // A mistyped or stopped upstream is said at once, not at the integration's first call (a 502); the
  // proxy still runs, since the real test host may come back.
  for (const [option, url] of [['upstream', upstream.api], ['upstreamCard', upstream.card]] as const) {
    reachable(url).then(
      () => undefined,
      (e: Error) => log.warn(`drift: the upstream does not answer; calls answer 502 until it does`, { [option]: `${url.origin}${url.pathname}`, error: e.message }),
    );
  }
  const file = options.out === undefined ? null : followReport(report, options.out, (e) => log.error('drift: cannot write --out', { error: e.message }));
  const sweep = setInterval(() => enqueue(async () => settle(graceMs)), Math.max(1000, Math.min(graceMs, 30_000))).unref();
  let closed: Promise<void> | null = null;
  const idle = async () => {
    await chain;
    await sh.flush();
    await chain;
    settle(0);
    file?.flush();
  };
  return {
    apiUrl: urlOf(servers[0]!),
    cardUrl: urlOf(servers[1]!),
    report,
    shadow: sh,
    ids,
    storyOf: (id) => recorder.storyOf(String(id), report.list(), shadowSite()),
    stories: () => Object.fromEntries(recorder.differing(report.list()).map((id) => [id, recorder.storyOf(id, report.list(), shadowSite())!])),
    idle,
    close() {
      closed ??= (async () => {
        clearInterval(sweep);
        const shut = (list: Server[]) =>
          Promise.all(
            list.map(
              (s) =>
                new Promise<void>((resolve) => {
                  s.close(() => resolve());
                  s.closeAllConnections();
                }),
            ),
          );
        await shut(servers);
        // The work of the last calls and notifications still runs on the shadow, and the shadow's
        // notifications for it come to the receiver: it closes after them, or they would go unpaired.
        await chain;
        await sh.flush();
        await chain;
        await shut([receiver]);
        settle(0);
        file?.close();
        if (options.stories !== undefined) writeStories(options.stories);
        await sh.close();
      })();
      return closed;
    },
  };
}

/** `Payment 9`: a notification's kind and status, as its order is compared. */
function changeOf(key: string): string {
  const [kind, , status] = key.split(':');
  return `${kind} ${status}`;
}

/** The payments and preapprovals an answer shows, with their status: `{Payment}`, `{Payments: [...]}`, `{Preapproval}`. */
function statusesIn(body: unknown): { kind: 'payment' | 'preapproval'; id: number; status: number }[] {
  if (!isObject(body)) return [];
  const out: { kind: 'payment' | 'preapproval'; id: number; status: number }[] = [];
  const one = (kind: 'payment' | 'preapproval') => (p: unknown) => {
    if (isObject(p) && p.ID !== undefined && isObject(p.Status) && typeof p.Status.ID === 'number') out.push({ kind, id: p.ID as number, status: p.Status.ID });
  };
  if (body.Payment !== undefined) one('payment')(body.Payment);
  if (Array.isArray(body.Payments)) body.Payments.forEach(one('payment'));
  if (body.Preapproval !== undefined) one('preapproval')(body.Preapproval);
  if (Array.isArray(body.Preapprovals)) body.Preapprovals.forEach(one('preapproval'));
  return out;
}

/** The key of a list answer's items (`Payments`, `Payouts`, `Preapprovals`, `Refunds`), or null. */
function listKey(body: unknown): string | null {
  if (!isObject(body)) return null;
  for (const [k, v] of Object.entries(body)) if (Array.isArray(v) && containerKind(k) && k.endsWith('s')) return k;
  return null;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function listenOn(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * The report holds bodies of real calls: like the control API, it needs the control token when
 * there is one, and answers only this machine when there is none.
 */
function controlGuard(token: string | undefined) {
  const loopback = clientTest(['loopback']);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (token === undefined) {
      if (loopback(req.socket.remoteAddress)) return true;
      res.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ Message: 'The drift report answers only this machine; start the proxy with --control-token to read it from elsewhere.' }));
      return false;
    }
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (m && sameText(m[1]!, token)) return true;
    res.writeHead(401, { 'Content-Type': 'application/json; charset=utf-8', 'WWW-Authenticate': 'Bearer' }).end(JSON.stringify({ Message: 'The drift report needs Authorization: Bearer <control token>.' }));
    return false;
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether a connection to the URL's host and port opens (no request is sent); rejects with why not. */
function reachable(url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    socket.unref();
    socket.setTimeout(5000, () => socket.destroy(new Error(`no connection within 5 s to ${url.host}`)));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}
