// One notification POST over node:http with kept-alive connections: lighter than fetch for many
// small requests. Only the status line is read; a body, however large, is never downloaded.
import type * as Dns from 'node:dns';
import http from 'node:http';
import type * as Https from 'node:https';
import { type LookupFunction, type Socket, isIP } from 'node:net';
import { noteOutgoing } from './own-listeners';

// node:https (with node:tls under it) and node:dns are loaded by the first notification that needs
// them, not by every start: loading them was some 4 ms of a start that sends no notification yet.
/* eslint-disable @typescript-eslint/no-require-imports */
let httpsLib: typeof Https | undefined;
const httpsOf = (): typeof Https => (httpsLib ??= require('node:https') as typeof Https);
let dnsLib: typeof Dns | undefined;
const dnsOf = (): typeof Dns => (dnsLib ??= require('node:dns') as typeof Dns);
/* eslint-enable @typescript-eslint/no-require-imports */

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let httpsAgent: Https.Agent | undefined;
function agentFor(protocol: string): http.Agent | undefined {
  if (protocol === 'http:') return httpAgent;
  if (protocol === 'https:') return (httpsAgent ??= new (httpsOf().Agent)({ keepAlive: true, maxSockets: 64 }));
  return undefined;
}

/** Kept-alive sockets already noted as the sandbox's own outgoing connections. */
const noted = new WeakSet<Socket>();

function note(socket: Socket): void {
  if (noted.has(socket)) return;
  noted.add(socket);
  noteOutgoing(socket);
}

export interface PostResult {
  status: number | null;
  error: string | null;
  /** Not sent: the address it would have connected to is the sandbox's own listener. */
  own?: true;
}

/** Why a connection to `address:port` (what `url`'s host is or resolves to) would reach the sandbox itself, or null. */
export type OwnAddress = (url: string, address: string, port: number) => string | null;

/** Refused before connecting: the name resolved to the sandbox's own listener. */
class OwnAddressError extends Error {}

/**
 * A name lookup that refuses, before any connection, a name resolving to the sandbox's own listener
 * (a name in /etc/hosts or DNS that means this machine): decided on the addresses it resolves to.
 */
function refusingLookup(url: string, port: number, own: OwnAddress): LookupFunction {
  return (hostname, options, callback) => {
    dnsOf().lookup(hostname, options, (err, address, family) => {
      if (err) return callback(err, address as string, family);
      const found = typeof address === 'string' ? [address] : (address as { address: string }[]).map((a) => a.address);
      for (const a of found) {
        const why = own(url, a, port);
        if (why !== null) return callback(new OwnAddressError(why), '', 0);
      }
      (callback as (e: null, a: typeof address, f?: number) => void)(null, address, family);
    });
  };
}

function portOf(u: URL): number {
  if (u.port !== '') return Number(u.port);
  return u.protocol === 'https:' ? 443 : 80;
}

/**
 * POSTs `body`; resolves with the status code, or with an error code or message (never rejects).
 * With `own`, a URL whose address (as written, or as its name resolves) is the sandbox's own listener
 * is not sent: no connection is made.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal,
  own?: OwnAddress,
): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ status: null, error: `invalid URL ${url}` });
    }
    const agent = agentFor(target.protocol);
    if (!agent) return resolve({ status: null, error: `unsupported protocol ${target.protocol}` });
    const lib = target.protocol === 'https:' ? httpsOf() : http;
    const port = portOf(target);
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (own && isIP(literal) !== 0) {
      const why = own(url, literal, port);
      if (why !== null) return resolve({ status: null, error: why, own: true });
    }
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const req = lib.request(target, {
      method: 'POST',
      agent,
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      ...(own ? { lookup: refusingLookup(url, port, own) } : {}),
    });
    // The control API refuses what the sandbox itself sends, should a notification reach it.
    req.on('socket', (socket: Socket) => {
      if (socket.connecting) socket.once('connect', () => note(socket));
      else note(socket);
    });
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    const onAbort = () => {
      finish({ status: null, error: String((signal.reason as Error)?.message ?? 'aborted') });
      req.destroy();
    };
    signal.addEventListener('abort', onAbort);
    req.on('response', (res) => {
      finish({ status: res.statusCode ?? null, error: null });
      // 204 has no body and keeps the connection; anything else is dropped unread.
      if (res.statusCode === 204) res.resume();
      else res.destroy();
    });
    req.on('error', (e: Error & { code?: string }) =>
      finish(e instanceof OwnAddressError ? { status: null, error: e.message, own: true } : { status: null, error: e.code ?? e.message }),
    );
    req.end(body);
  });
}
