// The dashboard and the control API are made at their first request, once per app, and answer as before.
import request from 'supertest';
import * as control from '../../src/http/control/control.routes';
import * as dashboard from '../../src/http/dashboard/dashboard.routes';
import { makeWorld } from '../helpers/world';

describe('parts of an app made on first use', () => {
  afterEach(() => jest.restoreAllMocks());

  it('makes the dashboard at its first request, and only once', async () => {
    const mount = jest.spyOn(dashboard, 'mountDashboardRoutes');
    const w = makeWorld();
    try {
      await request(w.api).get('/v1/methods').set('Authorization', w.auth).expect(200);
      expect(mount).not.toHaveBeenCalled();
      const page = await request(w.api).get('/DASHBOARD/login/');
      expect(page.status).toBe(200);
      expect(page.text).toContain('<form');
      await request(w.api).get('/dashboard/login').expect(200);
      expect(mount).toHaveBeenCalledTimes(1);
      // Not on the card address, where a dashboard path is no route.
      expect((await request(w.card).get('/dashboard/login')).status).toBe(404);
      expect(mount).toHaveBeenCalledTimes(1);
    } finally {
      w.close();
    }
  });

  it('makes the control API at its first request under /_sandbox, once for each address', async () => {
    const mount = jest.spyOn(control, 'mountControlRoutes');
    const w = makeWorld();
    try {
      await request(w.api).get('/v1/methods').set('Authorization', w.auth).expect(200);
      expect((await request(w.api).get('/_sandboxes/faults')).status).toBe(404);
      expect(mount).not.toHaveBeenCalled();
      const faults = await request(w.api).get('/_SANDBOX/faults');
      expect(faults.status).toBe(200);
      await request(w.api).get('/_sandbox/faults').expect(200);
      expect(mount).toHaveBeenCalledTimes(1);
      await request(w.card).get('/_sandbox/faults').expect(200);
      expect(mount).toHaveBeenCalledTimes(2);
    } finally {
      w.close();
    }
  });

  it('answers health without making the rest of the control API, which its first other request makes', async () => {
    const mount = jest.spyOn(control, 'mountControlRoutes');
    const w = makeWorld();
    try {
      const first = await request(w.api).get('/_sandbox/health');
      expect(first.status).toBe(200);
      expect(first.body.Status).toBe('ok');
      expect((await request(w.api).head('/_SANDBOX/Health/')).status).toBe(200);
      expect(mount).not.toHaveBeenCalled();
      // Another method on health's path is no route of health's: the rest is made, and answers 404 as any unmatched path.
      const posted = await request(w.api).post('/_sandbox/health');
      expect(posted.status).toBe(404);
      expect(posted.body).toEqual({ Message: "No HTTP resource was found that matches the request URI '/_sandbox/health'." });
      expect(mount).toHaveBeenCalledTimes(1);
      await request(w.api).get('/_sandbox/faults').expect(200);
      const after = await request(w.api).get('/_sandbox/health');
      expect(after.status).toBe(200);
      expect(Object.keys(after.body)).toEqual(Object.keys(first.body));
      expect(after.headers['content-type']).toBe(first.headers['content-type']);
      expect(mount).toHaveBeenCalledTimes(1);
    } finally {
      w.close();
    }
  });

  it('lists health once, first of the control API’s routes, to a walk of the app’s routers', () => {
    const w = makeWorld();
    try {
      type Layer = { route?: { path: string }; handle?: { stack?: Layer[] } };
      const paths = (stack: Layer[]): string[] => stack.flatMap((l) => [...(l.route ? [l.route.path] : []), ...paths(l.handle?.stack ?? [])]);
      for (const app of [w.api, w.card]) {
        const control = paths((app as unknown as { router: { stack: Layer[] } }).router.stack).filter((p) => p.startsWith('/_sandbox'));
        expect(control[0]).toBe('/_sandbox/health');
        expect(control.filter((p) => p === '/_sandbox/health')).toHaveLength(1);
        expect(control).toContain('/_sandbox/faults');
      }
    } finally {
      w.close();
    }
  });

  it('lists their routes to a walk of the app’s routers, making them then', () => {
    const mount = jest.spyOn(dashboard, 'mountDashboardRoutes');
    const w = makeWorld();
    try {
      type Layer = { route?: { path: string }; handle?: { stack?: Layer[] } };
      const paths = (stack: Layer[]): string[] => stack.flatMap((l) => [...(l.route ? [l.route.path] : []), ...paths(l.handle?.stack ?? [])]);
      const all = paths((w.api as unknown as { router: { stack: Layer[] } }).router.stack);
      expect(all).toContain('/dashboard/login');
      expect(all).toContain('/_sandbox/faults');
      expect(mount).toHaveBeenCalledTimes(1);
    } finally {
      w.close();
    }
  });
});
