// The control API for reproducing a case: snapshots of the whole sandbox, the story of a payment,
// and the replay of a story as a new payment.
import { createReadStream, statSync } from 'node:fs';
import type { Request, Response, Router } from 'express';
import { HttpError, Rejection, notFound } from '../../errors/errors';
import { snapshotRequest } from '../../schemas/reproduce';
import { validate } from '../../schemas/validator';
import { parseId } from '../../services/lookup';
import { checkSnapshotName } from '../../snapshots/snapshots';
import { replayStory, storyOf } from '../../stories/story.service';
import { type HttpContext, route, routeAsync } from '../pipeline';

/** A story is served as a file with the name `--scenarios` wants: its Name. */
export function storyAttachment(res: Response, story: { Name: string }): void {
  res.setHeader('Content-Disposition', `attachment; filename="${story.Name}.json"`);
}

export function mountReproduceRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;
  const snapshots = () => {
    if (!ctx.snapshots) throw new HttpError(400, 'this sandbox keeps no snapshots (it runs without a scheduler)');
    return ctx.snapshots;
  };
  const nameOf = (req: Request) => String(req.params.name);

  router.post(
    '/_sandbox/snapshots',
    routeAsync(ctx, 'message', async (_req, body) => {
      const name = (body as { Name?: unknown } | undefined)?.Name;
      // A name that cannot be a file name is refused with what a name may be.
      if (typeof name === 'string') checkSnapshotName(name, 'Name');
      const problems = validate(snapshotRequest, body ?? {});
      if (problems.length > 0) throw new Rejection(problems);
      return { status: 201, body: { Snapshot: await snapshots().save(name as string) } };
    }),
  );

  router.get('/_sandbox/snapshots', route(ctx, 'message', () => ({ status: 200, body: { Snapshots: snapshots().list() } })));

  router.post(
    '/_sandbox/snapshots/:name/restore',
    routeAsync(ctx, 'message', async (req) => ({ status: 200, body: { Snapshot: await snapshots().restore(nameOf(req)) } })),
  );

  router.delete(
    '/_sandbox/snapshots/:name',
    route(ctx, 'message', (req) => {
      snapshots().remove(nameOf(req));
      return { status: 204 };
    }),
  );

  router.get(
    '/_sandbox/snapshots/:name/file',
    routeAsync(ctx, 'message', async (req, _body, res) => {
      const name = nameOf(req);
      const file = snapshots().fileOf(name);
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        throw new HttpError(404, `Snapshot ${name} not found.`);
      }
      // The snapshot as a SQLite file: `split-sandbox start --db <file>` opens it.
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/vnd.sqlite3');
      res.setHeader('Content-Length', size);
      res.setHeader('Content-Disposition', `attachment; filename="${name}.db"`);
      await new Promise<void>((resolve) => {
        const stream = createReadStream(file);
        stream.once('error', () => {
          res.destroy();
          resolve();
        });
        stream.once('end', resolve);
        stream.pipe(res);
      });
      return null;
    }),
  );

  router.get(
    '/_sandbox/payments/:id/story',
    routeAsync(ctx, 'message', async (req, _body, res) => {
      const id = parseId(String(req.params.id));
      if (id === null) throw notFound('Payment');
      const story = storyOf(s, id);
      storyAttachment(res, story);
      return { status: 200, json: JSON.stringify(story, null, 2) + '\n' };
    }),
  );

  router.post(
    '/_sandbox/replay',
    route(ctx, 'message', (_req, body) => {
      if (body === undefined) throw new HttpError(400, 'The request body is missing: send a story (GET /_sandbox/payments/{id}/story gives one)');
      return { status: 201, body: { PaymentID: replayStory(s, body).paymentId } };
    }),
  );
}
