// supertest as the test files get it (test/setup/shared/supertest.cjs): an app's requests go to one
// server, kept listening on the loopback address for the test file, over a connection kept alive; a
// connection the server closes is not used again; the file's end stops them all.
import type { Server } from 'node:http';
import request from 'supertest';
import { type World, authorizedPayment, makeWorld } from '../helpers/world';

/** The server a request is sent to (supertest's Test keeps it as `app`). */
const serverOf = (t: unknown) => (t as { app: Server }).app;

/** Counts the connections `server` accepts from now on. */
function connections(server: Server): () => number {
  let n = 0;
  server.on('connection', () => n++);
  return () => n;
}

describe('supertest on an app', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('sends every request to one server on the loopback address, over one connection', async () => {
    const first = request(w.api).get('/v1/payments').set('Authorization', w.auth);
    const server = serverOf(first);
    const made = connections(server);
    expect((await first).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const next = request(w.api).get('/v1/payments').set('Authorization', w.auth);
      expect(serverOf(next)).toBe(server);
      expect((await next).status).toBe(200);
    }
    expect(server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(made()).toBe(1);
    // The card address's app is another app: a server of its own.
    expect(serverOf(request(w.card).get('/v1/payments'))).not.toBe(server);
  });

  it('answers requests sent together, each on a connection of its own', async () => {
    const server = serverOf(request(w.api).get('/'));
    const made = connections(server);
    const answers = await Promise.all([1, 2, 3].map(() => request(w.api).get('/v1/payments').set('Authorization', w.auth)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(made()).toBe(3);
    // Then kept: the next ones find them open.
    await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect(made()).toBe(3);
  });

  it('does not send on a connection again after an answer that closed it', async () => {
    const server = serverOf(request(w.api).get('/'));
    const made = connections(server);
    const closing = await request(w.api).get('/v1/payments').set('Authorization', w.auth).set('Connection', 'close');
    expect([closing.status, closing.headers.connection]).toEqual([200, 'close']);
    expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status).toBe(200);
    expect(made()).toBe(2);
  });

  it('fails only the request whose connection the sandbox drops, on a kept connection too', async () => {
    const p = await authorizedPayment(w);
    const server = serverOf(request(w.api).get('/'));
    const made = connections(server);
    expect((await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth)).status).toBe(200);
    const dropped = await request(w.api)
      .get(`/v1/payments/${p.ID}`)
      .set('Authorization', w.auth)
      .set('X-Sandbox-Fault', 'Reset')
      .then(
        () => 'answered',
        (e: NodeJS.ErrnoException) => e.code,
      );
    expect(dropped).toBe('ECONNRESET');
    expect((await request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth)).status).toBe(200);
    // The first two on the connection the payment was made on; the last on a new one.
    expect(made()).toBe(1);
  });

  it('sends request.agent(app) (a cookie jar) to the same server, a connection per request', async () => {
    const server = serverOf(request(w.api).get('/'));
    const made = connections(server);
    const agent = request.agent(w.api);
    for (let i = 0; i < 2; i++) {
      const res = agent.get('/dashboard/login');
      expect(serverOf(res)).toBe(server);
      expect((await res).status).toBe(200);
    }
    expect(made()).toBe(2);
  });
});

it('keeps a few servers open for a file of many apps, and never closes one a request is still to reach', async () => {
  const worlds = Array.from({ length: 12 }, () => makeWorld());
  try {
    const waiting = request(worlds[0]!.api).get('/v1/payments').set('Authorization', worlds[0]!.auth);
    const servers: Server[] = [];
    for (const w of worlds.slice(1)) {
      const res = request(w.api).get('/v1/payments').set('Authorization', w.auth);
      servers.push(serverOf(res));
      expect((await res).status).toBe(200);
    }
    expect(servers.filter((s) => s.listening).length).toBeLessThanOrEqual(8);
    expect(serverOf(waiting).listening).toBe(true);
    expect((await waiting).status).toBe(200);
    // A closed one's app gets a server again.
    const again = request(worlds[1]!.api).get('/v1/payments').set('Authorization', worlds[1]!.auth);
    expect(serverOf(again)).not.toBe(servers[0]);
    expect((await again).status).toBe(200);
  } finally {
    for (const w of worlds) w.close();
  }
});

it("stops the servers and their connections when the test file ends, and leaves later requests to supertest's own", async () => {
  const AT_FILE_END = Symbol.for('split-sandbox.at-file-end');
  const global = globalThis as unknown as Record<symbol, (stop: () => Promise<void>) => void>;
  const environment = global[AT_FILE_END]!;
  const stops: (() => Promise<void>)[] = [];
  let own: typeof request;
  global[AT_FILE_END] = (stop) => void stops.push(stop);
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      own = require('supertest') as typeof request;
    });
  } finally {
    global[AT_FILE_END] = environment;
  }
  expect(stops).toHaveLength(1);
  const w = makeWorld();
  try {
    const sent = own!(w.api).get('/v1/payments').set('Authorization', w.auth);
    const server = serverOf(sent);
    expect((await sent).status).toBe(200);
    const open = () => new Promise<number>((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    expect([server.listening, await open()]).toEqual([true, 1]);
    await stops[0]!();
    expect([server.listening, await open()]).toEqual([false, 0]);
    const later = own!(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect(serverOf(later)).not.toBe(server);
    expect((await later).status).toBe(200);
  } finally {
    w.close();
  }
});
