// chain(): middleware run inside one layer must behave as the same middleware given to app.use() one by one.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { chain } from '../../src/http/chain';

/** The same middleware mounted one by one and as one chain, each app ending in a route and an error handler. */
function apps(make: (seen: string[]) => RequestHandler[]) {
  const build = (chained: boolean) => {
    const seen: string[] = [];
    const app = express();
    const handlers = make(seen);
    if (chained) app.use(chain(handlers));
    else for (const h of handlers) app.use(h);
    app.get('/x', (_req, res) => {
      seen.push('route');
      res.json({ ok: true });
    });
    app.use(((err, _req, res, _next) => {
      seen.push(`error ${(err as Error).message}`);
      res.status(418).json({ error: (err as Error).message });
    }) as ErrorRequestHandler);
    return { app, seen };
  };
  return [build(false), build(true)] as const;
}

async function same(make: (seen: string[]) => RequestHandler[]) {
  const [one, two] = apps(make);
  const a = await request(one.app).get('/x');
  const b = await request(two.app).get('/x');
  expect([b.status, b.body, two.seen]).toEqual([a.status, a.body, one.seen]);
  return { status: a.status, seen: one.seen };
}

const mark = (seen: string[], name: string): RequestHandler => (_req, _res, next) => {
  seen.push(name);
  next();
};

describe('chain', () => {
  it('runs its handlers in order, then what follows it', async () => {
    expect(await same((s) => [mark(s, 'a'), mark(s, 'b'), mark(s, 'c')])).toEqual({ status: 200, seen: ['a', 'b', 'c', 'route'] });
  });

  it('stops where a handler answers', async () => {
    const answer: RequestHandler = (_req, res) => void res.status(403).json({ no: true });
    expect(await same((s) => [mark(s, 'a'), answer, mark(s, 'b')])).toEqual({ status: 403, seen: ['a'] });
  });

  it('hands next(err) and a throw to the error handlers, skipping the rest', async () => {
    const fails: RequestHandler = (_req, _res, next) => next(new Error('bad'));
    const throws: RequestHandler = () => {
      throw new Error('thrown');
    };
    expect(await same((s) => [mark(s, 'a'), fails, mark(s, 'b')])).toEqual({ status: 418, seen: ['a', 'error bad'] });
    expect(await same((s) => [throws, mark(s, 'b')])).toEqual({ status: 418, seen: ['error thrown'] });
  });

  it('goes on when a handler calls next later, and hands on what it throws then', async () => {
    const later: RequestHandler = (_req, _res, next) => void setImmediate(() => next());
    const rejects: RequestHandler = (async () => {
      await Promise.resolve();
      throw new Error('rejected');
    }) as unknown as RequestHandler;
    expect(await same((s) => [mark(s, 'a'), later, mark(s, 'b')])).toEqual({ status: 200, seen: ['a', 'b', 'route'] });
    expect(await same((s) => [later, rejects, mark(s, 'b')])).toEqual({ status: 418, seen: ['error rejected'] });
  });

  it("takes next('route') as next(), as the router does for a middleware", async () => {
    const route: RequestHandler = (_req, _res, next) => next('route');
    expect(await same((s) => [route, mark(s, 'b')])).toEqual({ status: 200, seen: ['b', 'route'] });
  });
});
