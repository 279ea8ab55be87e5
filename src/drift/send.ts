// One HTTP exchange of the drift proxy, bodies buffered: to the upstream, the shadow and the integration's notification URL.
import { Agent as HttpAgent, type IncomingHttpHeaders, type OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** Headers that concern one connection, not the exchange: never passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

export interface Answer {
  status: number;
  statusMessage: string;
  /** As received, names in their own case, repeated headers kept: `[name, value, name, value, …]`. */
  rawHeaders: string[];
  body: Buffer;
}

/** The end-to-end headers of raw `[name, value, …]` pairs (plus those the Connection header names as its own). */
export function endToEnd(raw: string[]): string[] {
  const own = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const t of raw[i + 1]!.split(',')) own.add(t.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || own.has(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** A request's end-to-end headers as an object for node:http (their length set anew for the buffered body). */
export function forwardedHeaders(headers: IncomingHttpHeaders, rawHeaders: string[], body: Buffer): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const kept = endToEnd(rawHeaders);
  for (let i = 0; i < kept.length; i += 2) {
    const name = kept[i]!;
    const lower = name.toLowerCase();
    if (lower === 'content-length') continue;
    const prior = out[name];
    out[name] = prior === undefined ? kept[i + 1]! : [...(Array.isArray(prior) ? prior : [String(prior)]), kept[i + 1]!];
  }
  if (body.length > 0 || headers['content-length'] !== undefined) out['Content-Length'] = String(body.length);
  return out;
}

const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 64 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }) };

/** Sends one request and buffers its answer; rejects on a network failure or after `timeoutMs`. */
export function send(url: URL, method: string, headers: OutgoingHttpHeaders, body: Buffer, timeoutMs = 60_000): Promise<Answer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      { method, headers, agent: secure ? agents.https : agents.http, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, statusMessage: res.statusMessage ?? '', rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.origin} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body.length > 0 ? body : undefined);
  });
}

/** A JSON body, or undefined when there is none or it is not JSON. */
export function jsonOf(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
