// test/helpers/plain-http.ts: the request supertest would send, byte for byte, and the answer checked against the OpenAPI document as supertest's is.
import { Agent, type IncomingMessage, type Server, createServer } from 'node:http';
import request from 'supertest';
import { type PlainRequest, plainRequest } from '../helpers/plain-http';
import { makeWorld } from '../helpers/world';

/** What a server got: the request line, the headers as sent (in order, the port left out) and the body. */
function recorder(): Promise<{ server: Server; got: string[] }> {
  const got: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = req.rawHeaders.map((h) => h.replace(/^127\.0\.0\.1:\d+$/, '127.0.0.1:PORT'));
      got.push(JSON.stringify([req.method, req.url, req.httpVersion, headers, Buffer.concat(chunks).toString('latin1')]));
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"Message":"No HTTP resource was found that matches the request URI x"}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, got })));
}

const CASES: PlainRequest[] = [
  { method: 'get', path: '/v1/payments' },
  { method: 'get', path: '/v1/payments/%E2%82%AC/../x/./y', query: { pageSize: "a b!'()*~", statusID: 'é€' } },
  { method: 'post', path: '/v1/payments/1%2F..', headers: [['Authorization', 'Basic eA=='], ['Content-Type', 'application/json; charset=latin1']], body: '{"Payment":{"Amount":"€"}}' },
  { method: 'post', path: '/v1/payments/ 1\\2', headers: [['Authorization', '']], body: 'text without a type' },
  { method: 'post', path: '/v1/payments', headers: [['Content-Type', 'text/plain']], body: '' },
  { method: 'post', path: '/_sandbox/clock/advance', headers: [['X-Sandbox-Fault', 'nope']] },
  { method: 'delete', path: '/v1/preapprovals/7', query: { limit: '' }, body: '{}' },
  { method: 'put', path: '/v1/payments/3', headers: [['content-type', 'application/xml']], body: '<a/>' },
];

describe('plainRequest', () => {
  it('sends what supertest sends for the same request, byte for byte', async () => {
    const { server, got } = await recorder();
    const viaSupertest = new Agent({ keepAlive: true, maxSockets: 1 });
    const plain = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const r of CASES) {
        let req = request(server)[r.method as 'get'](r.path).agent(viaSupertest);
        if (r.query) req = req.query(r.query);
        for (const [name, value] of r.headers ?? []) req = req.set(name, value);
        if (r.body !== undefined) req = req.send(r.body);
        await req;
        // The recorder's answer is not one of the document's for most of these paths: only the bytes sent count here.
        await plainRequest(server, plain, 'api', r).catch(() => undefined);
        expect(got).toHaveLength(2);
        expect(got[1]).toBe(got[0]);
        got.length = 0;
      }
    } finally {
      viaSupertest.destroy();
      plain.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads an answer as superagent does, and refuses one the OpenAPI document does not describe', async () => {
    const w = makeWorld();
    const server = createServer(w.api);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ keepAlive: true });
    try {
      const denied = await plainRequest(server, agent, 'api', { method: 'get', path: '/v1/payments/1' });
      const viaSupertest = await request(server).get('/v1/payments/1');
      expect([denied.status, denied.headers['content-type'], denied.text, denied.body]).toEqual([
        viaSupertest.status,
        viaSupertest.headers['content-type'],
        viaSupertest.text,
        viaSupertest.body,
      ]);
      const page = await plainRequest(server, agent, 'api', { method: 'get', path: '/Home', query: { PaymentToken: 'x' } });
      expect([page.status, page.headers['content-type']?.startsWith('text/html'), page.body]).toEqual([404, true, {}]);
      // The card address's document has no /Home: the same answer does not conform there.
      await expect(plainRequest(server, agent, 'card', { method: 'get', path: '/Home', query: { PaymentToken: 'x' } })).rejects.toThrow(
        /^The OpenAPI document does not describe this answer: GET \/Home on the card address answered 404/,
      );
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
      w.close();
    }
  });
});
