// The control API's fault rules ({base_url}/_sandbox/faults): add, list, read and delete them.
import type { Request, Router } from 'express';
import { HttpError, notFound } from '../../errors/errors';
import type { Faults } from '../../faults/faults';
import { parseId } from '../../services/lookup';
import { type HttpContext, route } from '../pipeline';

export function mountFaultRoutes(router: Router, ctx: HttpContext): void {
  const faults = (): Faults => {
    if (!ctx.services.faults) throw new HttpError(400, 'this sandbox runs without faults');
    return ctx.services.faults;
  };
  const id = (req: Request): number => {
    const n = parseId(String(req.params.id));
    if (n === null) throw notFound('Fault');
    return n;
  };

  router.post('/_sandbox/faults', route(ctx, 'message', (_req, body) => ({ status: 201, body: { Fault: faults().add(body) } })));

  router.get('/_sandbox/faults', route(ctx, 'message', () => ({ status: 200, body: { Faults: faults().list() } })));

  router.delete(
    '/_sandbox/faults',
    route(ctx, 'message', () => {
      faults().clear();
      return { status: 204 };
    }),
  );

  router.get(
    '/_sandbox/faults/:id',
    route(ctx, 'message', (req) => {
      const fault = faults().get(id(req));
      if (!fault) throw notFound('Fault');
      return { status: 200, body: { Fault: fault } };
    }),
  );

  router.delete(
    '/_sandbox/faults/:id',
    route(ctx, 'message', (req) => {
      if (!faults().remove(id(req))) throw notFound('Fault');
      return { status: 204 };
    }),
  );
}
