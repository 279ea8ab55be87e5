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
