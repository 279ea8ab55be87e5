// `split-sandbox trigger <scenario | file>`: creates a payment on a running sandbox and follows it
// through the scenario (or replays a story file), printing each state and notification as it happens.
// With a marketplace's credentials, the payment is that marketplace's and only its own routes are used.
import { type Command, Option } from 'commander';
import { DEFAULT_CONFIG } from '../config';
import { type ClientOptions, CliError, type SandboxClient, clientOf, controlTokenOption, withSiteCredentials } from './client';
import { duration, httpUrl, positiveInt, seconds } from './options';
import { looksLikeFile, readStoryFile } from './story-file';

interface TriggerOptions extends ClientOptions {
  amount: number;
  method: number;
  timeout: number;
}

interface Story {
  Payment: { ID: number; RedirectURL: string | null; Status: { ID: number; Info: string } };
  Scenario: string | null;
  History: { At: string; StatusInfo: string; Cause: string; RefundID: number | null }[];
  Steps: { ID: number; Do: string; State: string; Due: string; Outcome: string | null }[];
  Refunds: { ID: number; Status: { ID: number; Info: string } }[];
}

interface Journal {
  Notifications: { ID: number; StatusInfo: string; RefundID: number | null; State: string; Fault?: string | null; Attempts: { URL: string; HTTPStatus: number | null; Error: string | null }[] }[];
}

const FINAL = new Set([2, 3, 4, 5, 35]);

/**
 * Where trigger reads and moves things: the control API's routes, or with a marketplace's credentials
 * its own (`/_sandbox/merchants/{SiteID}/…`), on its clock.
 */
interface Routes {
  payment: (id: number) => string;
  events: (id: number) => string;
  notifications: (id: number) => string;
  replay: string;
  clock: string;
}

const CONTROL_ROUTES: Routes = {
  payment: (id) => `/_sandbox/payments/${id}`,
  events: (id) => `/_sandbox/payments/${id}/events`,
  notifications: (id) => `/_sandbox/notifications?PaymentID=${id}&SortDirection=asc`,
  replay: '/_sandbox/replay',
  clock: '/_sandbox/clock',
};

function marketplaceRoutes(siteId: number): Routes {
  const own = `/_sandbox/merchants/${siteId}`;
  return {
    payment: (id) => `${own}/payments/${id}`,
    events: (id) => `${own}/payments/${id}/events`,
    notifications: (id) => `${own}/notifications?PaymentID=${id}&SortDirection=asc`,
    replay: `${own}/replay`,
    clock: `${own}/clock`,
  };
}

export function registerTrigger(program: Command): void {
  const command = program
    .command('trigger')
    .argument('<scenario>', 'a scenario name (split-sandbox scenarios lists them), or a story or scenario file (a path ending in .json)')
    .description('create a split payment on a running sandbox and follow it through a scenario (or replay a story file), printing each state and notification')
    .option('--base-url <url>', 'the running sandbox', httpUrl, `http://${DEFAULT_CONFIG.host}:${DEFAULT_CONFIG.port}`)
    .option('--amount <n>', 'payment amount in minor units, split over the linked sites', positiveInt(999_999_999_999), 1000)
    .option('--method <id>', 'MethodID of the payment', positiveInt(2 ** 31), 42)
    .addOption(new Option('--timeout <duration>', 'give up after (30s, 2m; a bare number is milliseconds)').argParser(duration).default(60_000, seconds(60_000)))
    .addOption(controlTokenOption());
  withSiteCredentials(command)
    .addHelpText(
      'after',
      `
On a sandbox with a manual clock, trigger moves the sandbox's clock itself, half a second at a time
until the payment is done (not while it waits for the payer): time passes for every payment on that
sandbox, not only this one.
With --site-id and --api-key, the payment is that marketplace's, and trigger reads it through the
marketplace's own routes; on a marketplace with a clock of its own, it moves that clock alone.
A scenario that waits for the payer (payer-decides) waits for a press on the payer page trigger
prints (or for a provider event: POST /_sandbox/payments/{id}/events), until --timeout.

Examples:
  $ split-sandbox trigger two-step
  $ split-sandbox trigger refund-then-add-splits --base-url http://127.0.0.1:9090
  $ split-sandbox trigger payer-decides --timeout 5m
  $ split-sandbox trigger ./story-3005042.json
  $ split-sandbox trigger ./my-scenarios/slow-refund.json
  $ split-sandbox trigger two-step --site-id 30201 --api-key "$API_KEY"`,
    )
    .action((scenario: string, opts: TriggerOptions) => trigger(scenario, opts));
}

async function trigger(scenario: string, opts: TriggerOptions): Promise<void> {
  const api = clientOf(opts);
  const routes = api.site ? marketplaceRoutes(api.site.siteId) : CONTROL_ROUTES;
  const started = Date.now();
  // Offsets in the time payments live in: wall-clock time, or on a manual clock the sandbox time trigger has moved it by.
  const sandboxTime = { manual: false, seconds: 0 };
  const say = (line: string) => {
    const at = sandboxTime.manual ? sandboxTime.seconds : (Date.now() - started) / 1000;
    process.stdout.write(`+${at.toFixed(1).padStart(5)}s  ${line}\n`);
  };

  const file = looksLikeFile(scenario) ? readStoryFile(scenario) : undefined;
  // A story replays what happened, merchant actions included: nothing is captured on its behalf.
  const isStory = file?.Request !== undefined;
  // A marketplace's credentials do not list the sandbox's scenarios: an unknown one is refused by the create.
  if (!file && !api.site) {
    const scenarios = await api.control<{ Scenarios: { Name: string }[] }>('GET', '/_sandbox/scenarios');
    if (!scenarios.Scenarios.some((s) => s.Name === scenario)) {
      throw new CliError(`no scenario "${scenario}"; known: ${scenarios.Scenarios.map((s) => s.Name).join(', ')}`);
    }
  }
  const m = await marketplace(api);
  const auth = { Authorization: 'Basic ' + Buffer.from(`${m.SiteID}:${m.APIKey}`).toString('base64') };

  const share = Math.floor(opts.amount / m.LinkedSiteIDs.length);
  const mtid = `trigger-${file ? String(file.Name ?? 'file') : scenario}-${started}`;
  const splits = m.LinkedSiteIDs.map((SiteID, i) => ({
    SiteID,
    Amount: i === 0 ? opts.amount - share * (m.LinkedSiteIDs.length - 1) : share,
    MerchantTransactionID: `${mtid}-${i + 1}`,
  })).filter((s) => s.Amount > 0);
  const request = { Payment: { MerchantTransactionID: mtid, Amount: opts.amount, Currency: 'EUR', MethodID: opts.method, ReturnURL: 'https://shop.example/return', Splits: splits } };
  if (file) {
    // A scenario file runs as a story with the payment trigger makes; a story brings its own.
    const body = isStory ? file : { ...file, Request: request, Story: { SiteID: m.SiteID } };
    const { PaymentID } = await api.control<{ PaymentID: number }>('POST', routes.replay, body);
    const made = await api.control<Story>('GET', routes.payment(PaymentID));
    const from = isStory && typeof file.Story?.PaymentID === 'number' ? `the story of payment ${file.Story.PaymentID}, ` : '';
    say(`payment ${PaymentID} created from ${scenario} (${from}scenario ${made.Scenario}): ${made.Payment.Status.Info}`);
    if (made.Payment.RedirectURL) say(`payer page ${made.Payment.RedirectURL}`);
    return follow(api, routes, PaymentID, auth, opts, started, say, sandboxTime, !isStory, isStory ? `the story of ${scenario}` : `scenario ${made.Scenario}`);
  }
  const created = await api.call<{ Payment: { ID: number; RedirectURL: string; Status: { Info: string; Reasons: { Code: number; Info: string }[] | null } } }>(
    'POST',
    '/v1/payments',
    request,
    { ...auth, 'X-Sandbox-Scenario': scenario },
  );
  if (created.status !== 201) {
    const reasons = created.body?.Payment?.Status?.Reasons?.map((r) => `${r.Code} ${r.Info}`).join('; ');
    throw new CliError(`create refused (${created.status})${reasons ? `: ${reasons}` : ''}`);
  }
  const id = created.body.Payment.ID;
  say(`payment ${id} created (${opts.amount} EUR minor units, ${splits.length} splits, scenario ${scenario}): Open`);
  say(`payer page ${created.body.Payment.RedirectURL}`);
  return follow(api, routes, id, auth, opts, started, say, sandboxTime, true, `scenario ${scenario}`);
}

type Merchant = { SiteID: number; APIKey: string; LinkedSiteIDs: number[] };

/** The marketplace the payment is made for: the one whose credentials were given, or the sandbox's first with linked sites. */
async function marketplace(api: SandboxClient): Promise<Merchant> {
  if (api.site) {
    const { Merchant } = await api.control<{ Merchant: Merchant }>('GET', `/_sandbox/merchants/${api.site.siteId}`);
    if (Merchant.LinkedSiteIDs.length === 0) throw new CliError(`SiteID ${Merchant.SiteID} has no linked sites to split a payment to`);
    return Merchant;
  }
  const merchants = await api.control<{ Merchants: Merchant[] }>('GET', '/_sandbox/merchants');
  const m = merchants.Merchants.find((x) => x.LinkedSiteIDs.length > 0);
  if (!m) throw new CliError('the sandbox has no marketplace with linked sites');
  return m;
}

/**
 * Prints what happens to the payment until its story is told: `captureWhenAuthorized` plays the
 * merchant of a scenario that leaves the payment Authorized (a story has its own merchant actions).
 */
async function follow(
  api: SandboxClient,
  routes: Routes,
  id: number,
  auth: Record<string, string>,
  opts: TriggerOptions,
  started: number,
  say: (line: string) => void,
  sandboxTime: { manual: boolean; seconds: number },
  captureWhenAuthorized: boolean,
  what: string,
): Promise<void> {
  const clock = await api.control<{ Mode: string; Own?: boolean }>('GET', routes.clock);
  const manual = clock.Mode === 'manual';
  // A marketplace's own clock is moved through its own route; nobody else's time moves.
  const advance = clock.Own ? `${routes.clock}/advance` : '/_sandbox/clock/advance';
  if (manual && clock.Own) {
    say(`SiteID ${api.site!.siteId} has a manual clock of its own: trigger advances it 0.5 s at a time, for its payments alone (not while the payment waits for the payer); the offsets are its time`);
    sandboxTime.manual = true;
  } else if (manual) {
    say(`the sandbox's clock is manual: trigger advances it 0.5 s at a time, for every payment on the sandbox (not while the payment waits for the payer); the offsets are sandbox time`);
    sandboxTime.manual = true;
  }
  let seenHistory = 1;
  const seenSteps = new Set<number>();
  const seenAttempts = new Map<number, number>();
  let captured = false;
  let waitingSaid = '';
  let last: { story: Story; journal: Journal } | undefined;

  for (;;) {
    if (Date.now() - started > opts.timeout) {
      const still = last ? stillWaitingFor(last.story, last.journal, captureWhenAuthorized, routes) : ['its first look at the payment'];
      throw new CliError(
        `payment ${id} did not finish ${what} within ${seconds(opts.timeout)}` +
          (last ? `: it is ${last.story.Payment.Status.Info}` : '') +
          `, still waiting for ${still.join('; ')}`,
      );
    }
    // While the payment waits for a person, the manual clock is left alone: moving it would only
    // bring the held steps' fallback (an expiry) closer, for every payment on the sandbox.
    if (manual && !waitingSaid) {
      await api.control('POST', advance, { Seconds: 0.5 }).catch((e: unknown) => {
        if (!api.site || clock.Own || !(e instanceof CliError)) throw e;
        throw new CliError(
          `SiteID ${api.site.siteId} runs on the sandbox's manual clock, which only the control API moves (${e.message}): ` +
            `give the marketplace a clock of its own (PATCH /_sandbox/merchants/${api.site.siteId} {"Clock": "manual"}) or pass --control-token`,
        );
      });
      sandboxTime.seconds += 0.5;
    }
    else await new Promise((r) => setTimeout(r, 200));

    const story = await api.control<Story>('GET', routes.payment(id));
    for (const h of story.History.slice(seenHistory)) {
      say(`${h.RefundID ? `refund ${h.RefundID}` : `payment ${id}`} → ${h.StatusInfo} (${h.Cause})`);
    }
    seenHistory = story.History.length;
    for (const s of story.Steps) {
      if (s.State !== 'pending' && s.State !== 'held' && !seenSteps.has(s.ID)) {
        seenSteps.add(s.ID);
        if (s.State === 'skipped' || s.Outcome?.startsWith('rejected')) say(`step ${s.Do}: ${s.Outcome}`);
      }
    }
    const journal = await api.control<Journal>('GET', routes.notifications(id));
    for (const n of journal.Notifications) {
      for (const a of n.Attempts.slice(seenAttempts.get(n.ID) ?? 0)) {
        say(`notification ${n.ID} (${n.RefundID ? 'refund ' : ''}${n.StatusInfo}) → ${a.URL}: ${a.HTTPStatus ?? a.Error}${a.HTTPStatus === 204 ? '' : ` ${a.Error ?? ''}`}`);
      }
      seenAttempts.set(n.ID, n.Attempts.length);
      if (n.State === 'no-url' && !seenAttempts.has(-n.ID)) {
        seenAttempts.set(-n.ID, 0);
        say(`notification ${n.ID} (${n.RefundID ? 'refund ' : ''}${n.StatusInfo}) not sent: the merchant has no notification URL`);
      }
      if (n.State === 'dropped' && !seenAttempts.has(-n.ID)) {
        seenAttempts.set(-n.ID, 0);
        say(`notification ${n.ID} (${n.RefundID ? 'refund ' : ''}${n.StatusInfo}) not sent: ${n.Fault ?? 'dropped'}`);
      }
    }

    last = { story, journal };
    // Said once each: nothing happens until the payer (or the provider) acts.
    const waiting = payerWaitingNote(story, api, routes, id);
    if (waiting && waiting !== waitingSaid) say(waiting);
    waitingSaid = waiting ?? '';

    // A held step (the payer has the payment page open) is still to come.
    const pendingSteps = story.Steps.some((s) => s.State === 'pending' || s.State === 'held');
    const status = story.Payment.Status.ID;
    if (status === 9 && !pendingSteps && !captured && captureWhenAuthorized) {
      captured = true;
      const cap = await api.call<{ Payment?: { Status?: { Info?: string } } } | null>('POST', `/v1/payments/${id}/capture`, undefined, auth);
      say(`merchant captures in full: ${cap.status} ${cap.body?.Payment?.Status?.Info ?? ''}`);
      continue;
    }
    const pendingNotes = journal.Notifications.some((n) => n.State === 'pending');
    const openRefunds = story.Refunds.some((r) => r.Status.ID === 1);
    // A scenario ends in a final status; a story ends when nothing it scheduled is left to happen.
    const over = captureWhenAuthorized ? FINAL.has(status) && !openRefunds : true;
    if (over && !pendingSteps && !pendingNotes) {
      say(`done: payment ${id} is ${story.Payment.Status.Info}`);
      return;
    }
  }
}

/** When the payment waits for a person: an Open payment with nothing scheduled, or steps held by the open payer page. */
function payerWaitingNote(story: Story, api: SandboxClient, routes: Routes, id: number): string | undefined {
  if (story.Payment.Status.ID !== 1) return undefined;
  if (story.Steps.some((s) => s.State === 'held')) {
    return 'the payer page is open: the scenario waits for a press there (Authorize, Pay, Fail or Cancel)';
  }
  if (story.Steps.some((s) => s.State === 'pending')) return undefined;
  return (
    `waiting for the payer: open the payer page and press a button, or send the provider's event: ` +
    `curl -X POST ${api.base}${routes.events(id)}${api.site ? ` -u '${api.site.siteId}:<APIKey>'` : ''} -H 'Content-Type: application/json' -d '{"Event": "authorize"}'`
  );
}

/** What the payment has not done yet, in words, for a trigger that ran out of time. */
function stillWaitingFor(story: Story, journal: Journal, scenarioEnds: boolean, routes: Routes): string[] {
  const out: string[] = [];
  const open = story.Payment.Status.ID === 1;
  const held = story.Steps.filter((s) => s.State === 'held');
  const pending = story.Steps.filter((s) => s.State === 'pending');
  if (held.length > 0) out.push(`a press on the payer page (steps ${held.map((s) => s.Do).join(', ')} held while it is open)`);
  else if (open && pending.length === 0) out.push(`the payer (a press on the payer page) or a provider event (POST ${routes.events(0).replace('/0/', '/{id}/')})`);
  for (const s of pending) out.push(`step ${s.Do}, due at sandbox time ${s.Due}`);
  for (const n of journal.Notifications.filter((x) => x.State === 'pending')) {
    const a = n.Attempts.at(-1);
    out.push(`notification ${n.ID} (${n.RefundID ? 'refund ' : ''}${n.StatusInfo}) to be delivered` + (a ? ` (${n.Attempts.length} attempts, last: ${a.HTTPStatus ?? a.Error})` : ''));
  }
  for (const r of story.Refunds.filter((x) => x.Status.ID === 1)) out.push(`refund ${r.ID} to leave Open`);
  if (scenarioEnds && !FINAL.has(story.Payment.Status.ID) && out.length === 0) out.push('a final status (Success, Failed, Cancelled, Expired or PartiallyCaptured)');
  return out.length > 0 ? out : ['nothing more: it ended as the timeout ran out'];
}
