// serverFor: Node makes each request and response with the Express app's prototypes, so that Express
// has nothing to change on them, and the app answers as it does on a plain server.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { serverFor, serverOfAppMadeLater } from '../../src/http/server';

describe('serverFor (the HTTP server of an Express app)', () => {
  it("makes requests and responses with the app's prototypes, before Express sees them, and Express's methods work", async () => {
    const app = express();
    app.get('/v1/things/:id', (req, res) => {
      res.status(200).json({ id: req.params.id, header: req.get('x-thing'), q: req.query.q });
    });
    const server = serverFor(app);
    const made: boolean[] = [];
    // Runs before the app does: what Node made, not what Express turned it into.
    server.prependListener('request', (req, res) => {
      made.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v1/things/42?q=yes`, { headers: { 'X-Thing': 'blue' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: '42', header: 'blue', q: 'yes' });
      expect(made).toEqual([true]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('makes a later app on its first connection, before Node reads a request of it, with the same prototypes, and once', async () => {
    let made = 0;
    let app: ReturnType<typeof express> | undefined;
    const server = serverOfAppMadeLater(() => {
      made++;
      app = express();
      app.get('/v1/things/:id', (req, res) => {
        res.status(200).json({ id: req.params.id });
      });
      return app;
    });
    const sameProtos: boolean[] = [];
    server.prependListener('request', (req, res) => {
      sameProtos.push(Object.getPrototypeOf(req) === app!.request && Object.getPrototypeOf(res) === app!.response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(made).toBe(0);
      const { port } = server.address() as AddressInfo;
      for (const id of ['1', '2']) {
        const res = await fetch(`http://127.0.0.1:${port}/v1/things/${id}`, { headers: { connection: 'close' } });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ id });
      }
      expect(made).toBe(1);
      expect(sameProtos).toEqual([true, true]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
