// The request supertest sends, sent on node:http alone, and its answer checked against the OpenAPI document as every supertest answer is (test/setup/conformance.ts).
import { type Agent, type IncomingHttpHeaders, type Server, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Surface } from '../../src/openapi/document';
import { nonConformity } from './conformance';

/**
 * For tests that send thousands of requests: superagent's building, parsing and bookkeeping cost the
 * client about as much as the sandbox's answer costs the server. The bytes on the wire are those
 * supertest 7 / superagent 10 send for `request(server)[method](path).agent(agent).query(query)
 * .set(name, value)….send(text)`, and the answer is read as superagent reads it.
 */
export interface PlainRequest {
  /** Lower case, as supertest names its methods. */
  method: string;
  /** As given to supertest: encoded as a URL would encode it, dot segments kept. */
  path: string;
  query?: Record<string, string>;
  /** In the order they would be `.set()`. */
  headers?: [name: string, value: string][];
  /** A text body, as `.send(text)` takes it. */
  body?: string;
}

export interface PlainAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed JSON of a JSON answer ('' when it is empty), `{}` for any other (superagent's res.body). */
  body: unknown;
}

/** qs.stringify's encoding of a key or value (RFC 3986: only A-Z a-z 0-9 - . _ ~ left as they are). */
function qsEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The path and query superagent puts on the request line: the URL's own encoding, `.` and `..` segments kept as written. */
export function requestTarget(origin: string, path: string, query: Record<string, string> = {}): string {
  const search = Object.entries(query)
    .map(([k, v]) => `${qsEncode(k)}=${qsEncode(v)}`)
    .join('&');
  let url = origin + path;
  if (search) url += (url.includes('?') ? '&' : '?') + search;
  const parts = /^([a-z][a-z\d+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/i.exec(url)!;
  const segments: string[] = [];
  const marked = parts[2]!.replace(/\/((?:\.|%2e){1,2})(?=\/|$)/gi, (_, segment: string) => `/__superagent_dot_segment_${segments.push(segment) - 1}__`);
  const parsed = new URL(parts[1]! + marked + parts[3]!);
  let target = parsed.pathname + parsed.search;
  segments.forEach((segment, i) => (target = target.replace(`__superagent_dot_segment_${i}__`, segment)));
  return target;
}

/** superagent's test for a JSON media type. */
const JSON_TYPE = /[/+]json($|[^-\w])/i;

/**
 * Sends `r` to `server` (or to the port of another process on 127.0.0.1) on `agent`'s connections and
 * resolves with its answer, once the answer was found to be one the `surface`'s OpenAPI document
 * describes (it rejects with supertest's words otherwise).
 */
export function plainRequest(server: Server | number, agent: Agent, surface: Surface, r: PlainRequest): Promise<PlainAnswer> {
  const port = typeof server === 'number' ? server : (server.address() as AddressInfo).port;
  const method = r.method.toUpperCase();
  const headers: Record<string, string> = {};
  const own: Record<string, string> = {};
  const set = (name: string, value: string) => {
    headers[name] = value;
    own[name.toLowerCase()] = value;
  };
  for (const [name, value] of r.headers ?? []) set(name, value);
  // superagent's .send(text) with no type yet: a form.
  if (r.body !== undefined && own['content-type'] === undefined) set('Content-Type', 'application/x-www-form-urlencoded');
  const path = requestTarget(`http://127.0.0.1:${port}`, r.path, r.query);
  return new Promise<PlainAnswer>((resolve, reject) => {
    const req = httpRequest({ method, host: '127.0.0.1', port, path, headers: { ...headers }, agent });
    req.on('error', reject);
    req.setNoDelay(true);
    if (method !== 'HEAD') req.setHeader('Accept-Encoding', 'gzip, deflate');
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
    if (r.body && method !== 'HEAD') req.setHeader('Content-Length', Buffer.byteLength(r.body));
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        try {
          const status = res.statusCode!;
          const contentType = res.headers['content-type'];
          const text = Buffer.concat(chunks).toString('utf8');
          const mime = (contentType ?? '').split(/ *; */)[0]!;
          let body: unknown = {};
          if (JSON_TYPE.test(mime)) {
            const json = text.replace(/^\uFEFF/, '');
            body = json && JSON.parse(json);
          }
          const problem = nonConformity(surface, { method, path: path.replace(/[?#].*$/, ''), status, contentType, body, requestHeaders: own });
          if (problem) throw new Error(`The OpenAPI document does not describe this answer: ${problem}`);
          resolve({ status, headers: res.headers, text, body });
        } catch (e) {
          reject(e);
        }
      });
    });
    req.end(method === 'HEAD' ? undefined : r.body);
  });
}
