// The shadow: an embedded in-memory sandbox on a manual clock that runs each call the upstream answered,
// its payments moved only by the provider events its control API has.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FIXTURES_DIR } from '../fixtures';
import { type Sandbox, startSandbox } from '../main';
import { jsonOf, send } from './send';

export interface ShadowAnswer {
  status: number;
  body: unknown;
  /** The shadow's request journal entry of the call. */
  journalId: number | null;
  /** Sandbox time of that entry. */
  at: string;
}

/** What a provider event did to a shadow payment: moved it, was refused by its method's flow (code 11), or by its state. */
export type Driven = 'moved' | 'wrong flow' | 'refused';

/**
 * The events that take a payment from one status to another, as a provider would: Open → Authorized
 * (authorize), Open → Success (succeed), CaptureRequested → Success (settle), … Empty when none does.
 */
export function eventsBetween(from: number, to: number): string[] {
  const table: Record<string, string> = {
    '1>9': 'authorize',
    '1>2': 'succeed',
    '1>4': 'fail',
    '9>4': 'fail',
    '13>4': 'fail',
    '1>5': 'expire',
    '1>3': 'cancel',
    '13>2': 'settle',
    // Card payments: the provider completes a requested or queued capture.
    '33>11': 'succeed',
    '13>11': 'succeed',
  };
  const e = table[`${from}>${to}`];
  return e === undefined ? [] : [e];
}

/** The same for a preapproval: Pending → Open (open), Pending → Closed (decline), → ClosedByCustomer (close). */
export function preapprovalEventsBetween(from: number, to: number): string[] {
  const table: Record<string, string> = { '1>2': 'open', '1>3': 'decline', '1>4': 'close', '2>4': 'close' };
  const e = table[`${from}>${to}`];
  return e === undefined ? [] : [e];
}

export interface ShadowOptions {
  /** A merchants fixture file (`{"Merchants": [...]}`) with the real account's SiteID, APIKey and linked sites; the package's when absent. */
  merchants?: string;
  /** Where the shadow posts its notifications (the proxy's own receiver). */
  notifyUrl: string;
  startTime?: number;
}

export class Shadow {
  private constructor(
    readonly sandbox: Sandbox,
    private readonly folder: string,
  ) {}

  static async start(opts: ShadowOptions): Promise<Shadow> {
    const folder = mkdtempSync(join(tmpdir(), 'split-sandbox-drift-'));
    try {
      const source = opts.merchants ?? join(DEFAULT_FIXTURES_DIR, 'merchants.json');
      const fixture = readMerchants(source);
      // Every shadow notification comes to the proxy, whatever URL the real account has.
      for (const m of fixture.Merchants) m.NotificationURL = null;
      writeFileSync(join(folder, 'merchants.json'), JSON.stringify(fixture));
      copyFileSync(join(DEFAULT_FIXTURES_DIR, 'methods.json'), join(folder, 'methods.json'));
      const sandbox = await startSandbox({
        db: ':memory:',
        port: 0,
        cardPort: 0,
        host: '127.0.0.1',
        fixtures: folder,
        clock: 'manual',
        quiet: true,
        notifyUrl: opts.notifyUrl,
        ...(opts.startTime === undefined ? {} : { startTime: opts.startTime }),
      });
      return new Shadow(sandbox, folder);
    } catch (e) {
      rmSync(folder, { recursive: true, force: true });
      // The fixture checks name the copy in the temporary folder: the reader knows the file they gave.
      const copy = join(folder, 'merchants.json');
      const given = `--merchants ${opts.merchants ?? join(DEFAULT_FIXTURES_DIR, 'merchants.json')}`;
      if (e instanceof Error) e.message = e.message.split(`fixture ${copy}`).join(given).split(copy).join(given);
      throw e;
    }
  }

  /** Runs one call on the shadow, on the API or the card address. */
  async call(surface: 'api' | 'card', method: string, pathAndQuery: string, headers: OutgoingHttpHeaders, body: Buffer): Promise<ShadowAnswer> {
    const base = surface === 'api' ? this.sandbox.listening.baseUrl : this.sandbox.listening.cardBaseUrl;
    const answer = await send(new URL(pathAndQuery, base), method, headers, body);
    const entry = this.sandbox.requests.find({ Limit: 1, Newest: true })[0];
    return { status: answer.status, body: jsonOf(answer.body), journalId: entry?.ID ?? null, at: entry?.At ?? '' };
  }

  /** The shadow payment's status, or null when there is none. */
  statusOf(paymentId: number): number | null {
    return this.sandbox.services.store.payments.getAny(paymentId)?.statusId ?? null;
  }

  /** The shadow preapproval's status, or null when there is none. */
  preapprovalStatusOf(id: number): number | null {
    return this.sandbox.services.store.preapprovals.getAny(id)?.statusId ?? null;
  }

  /** Applies a provider event through the control API, as a test of the integration would. */
  async drive(what: 'payments' | 'preapprovals', id: number, event: string): Promise<Driven> {
    const answer = await send(
      new URL(`/_sandbox/${what}/${id}/events`, this.sandbox.listening.baseUrl),
      'POST',
      { 'Content-Type': 'application/json' },
      Buffer.from(JSON.stringify({ Event: event })),
    );
    if (answer.status === 200) return 'moved';
    const body = jsonOf(answer.body) as { Status?: { Reasons?: { Code?: number }[] } } | undefined;
    const code = body?.Status?.Reasons?.[0]?.Code;
    return code === 11 || /one-step|two-step/.test(answer.body.toString('utf8')) ? 'wrong flow' : 'refused';
  }

  /** Sends every notification due: resolves once none is on the wire. */
  flush(): Promise<void> {
    return this.sandbox.scheduler.worker.deliverDue();
  }

  async close(): Promise<void> {
    await this.sandbox.stop();
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** The --merchants file, or an error that names it and says what is wrong with it (the fixture checks say the rest). */
function readMerchants(path: string): { Merchants: Record<string, unknown>[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`--merchants ${path}: cannot read it (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (e as Error).message})`);
  }
  let fixture: unknown;
  try {
    fixture = JSON.parse(text);
  } catch (e) {
    throw new Error(`--merchants ${path} is not JSON (${(e as Error).message}); it is a file like fixtures/merchants.json: {"Merchants": [{"SiteID": …, "APIKey": "…", "Name": "…", "LinkedSites": [...]}]}`);
  }
  const merchants = (fixture as { Merchants?: unknown } | null)?.Merchants;
  if (typeof fixture !== 'object' || fixture === null || !Array.isArray(merchants) || merchants.length === 0 || !merchants.every((m) => typeof m === 'object' && m !== null && !Array.isArray(m))) {
    throw new Error(`--merchants ${path} names no merchant: it is a file like fixtures/merchants.json, {"Merchants": [{"SiteID": …, "APIKey": "…", "Name": "…", "LinkedSites": [...]}]}`);
  }
  return fixture as { Merchants: Record<string, unknown>[] };
}
