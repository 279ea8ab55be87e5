// A real HTTP receiver for notifications: records every request and answers as the test says.
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** How the receiver answers the next requests: a status code, 'hang' (never answers) or 'reset'. */
export type Answer = number | 'hang' | 'reset';

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for the coming requests, in order; after them, `fallback` (204). */
  answers: Answer[];
  fallback: Answer;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const r: Receiver = { url: '', received: [], answers: [], fallback: 204, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const answer = r.answers.length > 0 ? r.answers.shift()! : r.fallback;
      if (answer === 'hang') return; // the sandbox's timeout ends it
      if (answer === 'reset') return req.socket.destroy();
      r.received.push({ path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
  r.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}
