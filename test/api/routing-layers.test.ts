// How the app's routers pass a request to its route, seen from outside: the automatic OPTIONS answer
// of a path's routes, the 404 of a path no route takes, the guard of /v1 before both, and a route's
// parameters and template, on either address.
// Sent on node:http: an OPTIONS answer and a 401 on /v1 itself are no operation of the OpenAPI document,
// which every supertest answer is checked against.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request from 'supertest';
import { type World, createPayment, makeWorld } from '../helpers/world';

interface Answer {
  status: number;
  allow: string | undefined;
  type: string | undefined;
  nosniff: string | undefined;
  text: string;
}

async function send(app: Express, method: string, path: string, auth?: string): Promise<Answer> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: auth === undefined ? {} : { Authorization: auth } });
    const h = (name: string) => res.headers.get(name) ?? undefined;
    return { status: res.status, allow: h('allow'), type: h('content-type'), nosniff: h('x-content-type-options'), text: await res.text() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the routers before a route', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const options = (app: 'api' | 'card', path: string, auth = true) => send(w[app], 'OPTIONS', path, auth ? w.auth : undefined);
  const notFound = (path: string) => JSON.stringify({ Message: `No HTTP resource was found that matches the request URI '${path}'.` });

  it("answers OPTIONS with the methods of the path's routes, in any case and with a trailing slash", async () => {
    const list = { status: 200, allow: 'GET, HEAD, POST', type: 'text/plain', nosniff: 'nosniff', text: 'GET, HEAD, POST' };
    expect(await options('api', '/v1/payments')).toEqual(list);
    expect(await options('api', '/V1/Payments/')).toEqual(list);
    expect(await options('api', '/v1/payments/5')).toEqual({ ...list, allow: 'GET, HEAD', text: 'GET, HEAD' });
    expect(await options('api', '/v1/merchantsites/5')).toEqual({ ...list, allow: 'DELETE, GET, HEAD, PATCH', text: 'DELETE, GET, HEAD, PATCH' });
    expect(await options('api', '/v1/payments/5/refunds/types')).toEqual({ ...list, allow: 'GET, HEAD', text: 'GET, HEAD' });
    expect(await options('card', '/v1/payments')).toEqual(list);
    // Open pages, before the guard of /v1 or outside it.
    expect(await options('api', '/Home', false)).toEqual({ ...list, allow: 'GET, HEAD', text: 'GET, HEAD' });
    // The card form's path is under /v1: its OPTIONS goes on past the form's route to the guard.
    expect((await options('card', '/v1/Payments/FillCardDetails', false)).status).toBe(401);
    expect(await options('card', '/v1/Payments/FillCardDetails')).toEqual({ ...list, allow: 'GET, HEAD', text: 'GET, HEAD' });
  });

  it('answers OPTIONS on a path no route takes with the 404 of any method, and on /v1 without credentials with 401', async () => {
    for (const app of ['api', 'card'] as const) {
      const none = await options(app, '/v1/nothing/here');
      expect([none.status, none.allow, none.text]).toEqual([404, undefined, notFound('/v1/nothing/here')]);
      const other = await options(app, '/v2/payments', false);
      expect([other.status, other.allow, other.text]).toEqual([404, undefined, notFound('/v2/payments')]);
      const anonymous = await options(app, '/v1/payments', false);
      expect([anonymous.status, anonymous.allow]).toEqual([401, undefined]);
    }
  });

  it('guards every path under /v1 in any case, a route or not, and no path that only starts like it', async () => {
    for (const path of ['/v1/nothing', '/V1/payments/5/nothing', '/v1', '/v1/']) {
      for (const app of [w.api, w.card]) {
        const res = await send(app, 'GET', path);
        expect([path, res.status]).toEqual([path, 401]);
      }
    }
    for (const path of ['/v1x/payments', '/v10/payments', '/x/v1/payments', '/v1.json']) {
      for (const app of [w.api, w.card]) {
        const res = await send(app, 'GET', path);
        expect([path, res.status, res.text]).toEqual([path, 404, notFound(path)]);
      }
    }
  });

  it("gives a route its parameters and the journal its template, whatever the path's case", async () => {
    const p = await createPayment(w);
    const got = await request(w.api).get(`/V1/PAYMENTS/${p.ID}/Status/`).set('Authorization', w.auth);
    expect(got.status).toBe(200);
    expect(got.body.Payment.ID).toBe(p.ID);
    const journal = await request(w.api).get(`/_sandbox/requests?PaymentID=${p.ID}&SortDirection=asc`);
    expect(journal.body.Requests.map((r: { Path: string; Route: string }) => [r.Path, r.Route])).toEqual([
      ['/v1/payments', '/v1/payments'],
      [`/V1/PAYMENTS/${p.ID}/Status/`, '/v1/payments/{id}/status'],
    ]);
  });

  it('answers OPTIONS under /_sandbox and /dashboard in their own parts', async () => {
    const health = await send(w.api, 'OPTIONS', '/_sandbox/health');
    expect([health.status, health.allow, health.text]).toEqual([200, 'GET, HEAD', 'GET, HEAD']);
    const faults = await send(w.card, 'OPTIONS', '/_SANDBOX/faults/');
    expect([faults.status, faults.allow]).toEqual([200, 'DELETE, GET, HEAD, POST']);
    const login = await send(w.api, 'OPTIONS', '/dashboard/login');
    // The dashboard's own routes answer any method of its paths (its sign-in page here).
    expect([login.status, login.allow, login.text.includes('<title>Sign in</title>')]).toEqual([200, undefined, true]);
    const none = await send(w.api, 'OPTIONS', '/_sandbox/nothing');
    expect([none.status, none.text]).toEqual([404, notFound('/_sandbox/nothing')]);
  });

  it('has no route outside the control API that takes a path of its routes (the part comes after them)', () => {
    type Layer = { route?: { path: string }; handle: { stack?: Layer[] }; match(path: string): unknown };
    for (const app of [w.api, w.card]) {
      const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
      const routes = (layers: Layer[]): string[] => layers.flatMap((l) => (l.route ? [l.route.path] : routes(l.handle.stack ?? [])));
      const control = routes(stack).filter((p) => /^\/_sandbox(\/|$)/i.test(p));
      expect(control.length).toBeGreaterThan(50);
      const paths = control.flatMap((p) => [p, p.replace(/:\w+/g, 'x'), p.replace(/:\w+/g, '1')]).concat('/_sandbox', '/_sandbox/');
      // The app's own routes, outside the parts (routers of their own).
      const others = stack.filter((l) => l.route !== undefined);
      expect(others.length).toBeGreaterThan(app === w.api ? 35 : 15);
      const taken = others.flatMap((l) => paths.filter((p) => l.match(p)).map((p) => `${l.route!.path} takes ${p}`));
      expect(taken).toEqual([]);
    }
  });

  it('lets a control request by, without credentials, on either address', async () => {
    for (const app of [w.api, w.card]) {
      const res = await send(app, 'GET', '/_SANDBOX/faults/');
      expect(res.status).toBe(200);
    }
  });
});
