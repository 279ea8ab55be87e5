// A read's journal entry is made after its answer has left, off the request's path, and is still seen
// by whoever reads the journal next; a refusal's is made at once (its near miss is known to the log).
import express from 'express';
import request from 'supertest';
import { noteRequests } from '../../src/requests/capture';
import { MARKETPLACE, type World, makeWorld } from '../helpers/world';

function appOf(w: World, status: number, seen: { addsAtEnd?: number; foundAtEnd?: number }) {
  const journal = w.services.requests!;
  const site = w.store.sites.get(MARKETPLACE.SiteID);
  const app = express();
  app.use(noteRequests(journal, w.services, 'api', () => site));
  app.get('/v1/payments/:id', (_req, res) => {
    res.statusCode = status;
    res.end('{"Payment":{"ID":1}}');
    seen.addsAtEnd = add.mock.calls.length;
    seen.foundAtEnd = journal.count({});
  });
  const add = jest.spyOn(journal, 'add');
  return app;
}

describe('a journal entry off the request path', () => {
  it('makes a read’s entry after its answer, and a reader right after the answer finds it', async () => {
    const w = makeWorld();
    const seen: { addsAtEnd?: number; foundAtEnd?: number } = {};
    const res = await request(appOf(w, 200, seen)).get('/v1/payments/1');
    expect(res.status).toBe(200);
    // Nothing of the entry was made while the answer was being given…
    expect(seen.addsAtEnd).toBe(0);
    // …yet a reader in that very turn saw it (a read makes the waiting entries first).
    expect(seen.foundAtEnd).toBe(1);
    const [entry] = w.services.requests!.find({}, { limit: 10, offset: 0, descending: false });
    expect(entry).toMatchObject({ method: 'GET', path: '/v1/payments/1', route: '/v1/payments/{id}', status: 200, paymentId: 1, responseBody: '{"Payment":{"ID":1}}' });
    expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
    w.close();
  });

  it('makes a refusal’s entry at once', async () => {
    const w = makeWorld();
    const seen: { addsAtEnd?: number } = {};
    await request(appOf(w, 404, seen)).get('/v1/payments/1');
    expect(seen.addsAtEnd).toBe(1);
    w.close();
  });

  it('listens for a connection closing only while its answer is still to come, and still keeps one lost', async () => {
    const w = makeWorld();
    const journal = w.services.requests!;
    const site = w.store.sites.get(MARKETPLACE.SiteID);
    const added: Record<string, number> = {};
    const app = express();
    // Around the capture: the 'close' listeners it left on the response once its next() returned.
    app.use((req, res, next) => {
      const before = res.listenerCount('close');
      next();
      added[req.path] = res.listenerCount('close') - before;
    });
    app.use(noteRequests(journal, w.services, 'api', () => site));
    app.get('/v1/payments/1', (_req, res) => void res.end('{"Payment":{"ID":1}}'));
    app.get('/v1/payments/2', (_req, res) => void setImmediate(() => res.end('{"Payment":{"ID":2}}')));
    app.get('/v1/payments/3', (req) => void setImmediate(() => req.socket.destroy()));
    expect((await request(app).get('/v1/payments/1')).status).toBe(200);
    expect((await request(app).get('/v1/payments/2')).status).toBe(200);
    await expect(request(app).get('/v1/payments/3')).rejects.toThrow();
    expect(added).toEqual({ '/v1/payments/1': 0, '/v1/payments/2': 1, '/v1/payments/3': 1 });
    const entries = journal.find({}, { limit: 10, offset: 0, descending: false });
    expect(entries.map((e) => [e.path, e.status, e.responseBody])).toEqual([
      ['/v1/payments/1', 200, '{"Payment":{"ID":1}}'],
      ['/v1/payments/2', 200, '{"Payment":{"ID":2}}'],
      ['/v1/payments/3', null, null],
    ]);
    w.close();
  });

  it('drops the entries not yet made when the data they tell of is replaced', async () => {
    const w = makeWorld();
    const journal = w.services.requests!;
    let made = 0;
    journal.later(() => made++);
    journal.discard();
    await new Promise((r) => setImmediate(r));
    expect(made).toBe(0);
    w.close();
  });
});
