// Talking to a running sandbox from the CLI: its address, the control token or a marketplace's own
// credentials, and every refusal turned into a sentence a person can act on (never a stack trace).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type IncomingMessage, request as httpRequest } from 'node:http';

/** A failure the CLI reports as one line on stderr, exit code 1. */
export class CliError extends Error {}

export interface Answer<T> {
  status: number;
  body: T;
}

/** `--control-token <t>`, also from SANDBOX_CONTROL_TOKEN: the sandbox's own token, when it was started with one. */
export function controlTokenOption(): Option {
  return new Option('--control-token <token>', 'the control token the sandbox was started with').env('SANDBOX_CONTROL_TOKEN');
}

/** A marketplace's SiteID and APIKey, as the API takes them. */
export interface SiteCredentials {
  siteId: number;
  apiKey: string;
}

export interface ClientOptions {
  baseUrl: string;
  controlToken?: string;
  siteId?: number;
  apiKey?: string;
}

/** `--site-id` and `--api-key`: a marketplace's own credentials, for its own routes (`/_sandbox/merchants/{SiteID}/…`). */
export function withSiteCredentials(cmd: Command): Command {
  return cmd
    .option('--site-id <id>', "a marketplace's SiteID: with --api-key, use its own routes instead of the control token's", (v: string) => {
      if (!/^[0-9]{1,10}$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('expected a SiteID (a positive whole number)');
      return Number(v);
    })
    .option('--api-key <key>', "that marketplace's APIKey");
}

/** The client the options name: the control token, a marketplace's credentials, or both. */
export function clientOf(o: ClientOptions): SandboxClient {
  if ((o.siteId === undefined) !== (o.apiKey === undefined)) {
    throw new CliError(o.siteId === undefined ? '--api-key needs --site-id (the SiteID whose APIKey it is)' : '--site-id needs --api-key (its APIKey)');
  }
  return new SandboxClient(o.baseUrl, o.controlToken, o.siteId === undefined ? undefined : { siteId: o.siteId, apiKey: o.apiKey! });
}

export class SandboxClient {
  readonly base: string;

  constructor(
    baseUrl: string,
    private readonly controlToken?: string,
    /** With them, the marketplace's own routes answer its Basic credentials; the others still want the control token (or a trusted client). */
    readonly site?: SiteCredentials,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** `Basic base64(SiteID:APIKey)` of the marketplace's credentials. */
  get basic(): string | undefined {
    return this.site && 'Basic ' + Buffer.from(`${this.site.siteId}:${this.site.apiKey}`, 'utf8').toString('base64');
  }

  /** Whether `path` is one of the marketplace's own routes, which its credentials open. */
  private ownRoute(path: string): boolean {
    return this.site !== undefined && new RegExp(`^/_sandbox/merchants/${this.site.siteId}(?:[/?]|$)`).test(path);
  }

  /**
   * Any request; the answer whatever its status. Only an unreachable sandbox throws, or one that has
   * not answered within `timeoutMs`.
   */
  async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, timeoutMs?: number): Promise<Answer<T>> {
    // A timer of our own, not AbortSignal.timeout(): that one does not keep the process alive, and a
    // request whose connection was dropped unanswered can leave nothing else that does (the process
    // would end, exit code 0, in the middle of `split-sandbox wait`).
    const controller = new AbortController();
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(), timeoutMs);
    let res: { status: number; text: string };
    let text: string;
    try {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      res = await send(this.base + path, method, { ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers }, payload, controller.signal);
      text = res.text;
    } catch (e) {
      const why = controller.signal.aborted
        ? `no answer within ${timeoutMs} ms`
        : ((e as Error & { cause?: Error }).cause?.message ?? (e as Error).message);
      throw new CliError(`no sandbox answers at ${this.base} (${why}); start one with: split-sandbox start`);
    } finally {
      clearTimeout(timer);
    }
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page, say): kept as text for the message.
    }
    return { status: res.status, body: parsed as T };
  }

  /** A control API call (`/_sandbox/...`) that must succeed: its body, or a CliError saying why not. */
  async control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const authorization = this.ownRoute(path) ? this.basic : this.controlToken === undefined ? undefined : `Bearer ${this.controlToken}`;
    const answer = await this.call<T>(method, path, body, authorization === undefined ? {} : { Authorization: authorization });
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw new CliError(this.refusal(method, path, answer));
  }

  private refusal(method: string, path: string, a: Answer<unknown>): string {
    const message = messageOf(a.body);
    if (this.ownRoute(path) && a.status === 404 && message === 'Merchant not found.') {
      return `the sandbox at ${this.base} has no marketplace ${this.site!.siteId} with the APIKey given (--site-id, --api-key): a marketplace's own SiteID and APIKey, as the API takes them`;
    }
    if (a.status === 401) {
      return this.controlToken === undefined
        ? this.site
          ? `the sandbox at ${this.base} wants its control token for ${method} ${path} (a marketplace's --site-id and --api-key open only its own routes): pass --control-token <token> or set SANDBOX_CONTROL_TOKEN`
          : `the sandbox at ${this.base} wants its control token: pass --control-token <token> or set SANDBOX_CONTROL_TOKEN`
        : `the sandbox at ${this.base} refused the control token given (--control-token or SANDBOX_CONTROL_TOKEN)`;
    }
    if (a.status === 403) {
      return `the sandbox at ${this.base} does not answer this machine on its control API; start it with --control-token <token> and pass the same token here (or with --control-from naming this machine's network)`;
    }
    if (a.status === 404 && message === undefined) {
      return `${method} ${path}: the server at ${this.base} does not know this call (is it a split-sandbox?)`;
    }
    return `${method} ${path} answered ${a.status}${message === undefined ? '' : `: ${message}`}`;
  }
}

/**
 * One request and its whole answer, by node:http (node:https for an https address), not fetch: a
 * command's first fetch loads Node's fetch (undici), a third of a second of a core, which was most
 * of what `wait` or `stop` spent. Refusals and drops reject with the system's own words
 * ("connect ECONNREFUSED …"), as fetch's cause gave them.
 */
async function send(url: string, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal): Promise<{ status: number; text: string }> {
  const request = url.startsWith('https:') ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, signal }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('error', reject);
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.once('close', () => {
        if (!res.complete) reject(new Error('the connection closed before the whole answer came'));
      });
    });
    req.once('error', reject);
    req.end(body);
  });
}

function messageOf(body: unknown): string | undefined {
  if (body !== null && typeof body === 'object' && typeof (body as { Message?: unknown }).Message === 'string') {
    return (body as { Message: string }).Message;
  }
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 200);
  return undefined;
}
