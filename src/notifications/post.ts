// One notification POST over node:http with kept-alive connections: lighter than fetch for many
// small requests. Only the status line is read; a body, however large, is never downloaded.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { noteOutgoing } from './own-listeners';

const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };

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
}

/** POSTs `body`; resolves with the status code, or with an error code or message (never rejects). */
export function postJson(url: string, body: string, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ status: null, error: `invalid URL ${url}` });
    }
    const lib = target.protocol === 'https:' ? https : http;
    const agent = agents[target.protocol as 'http:' | 'https:'];
    if (!agent) return resolve({ status: null, error: `unsupported protocol ${target.protocol}` });
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
    req.on('error', (e: Error & { code?: string }) => finish({ status: null, error: e.code ?? e.message }));
    req.end(body);
  });
}
