// Middleware run one after another inside one of Express's layers: what every request goes through before
// the routes, without the router's walk from layer to layer (its matching, prefix trimming and parameter
// processing for each) between them.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * One handler that runs `handlers` in order, as app.use() of each in turn would: a handler that calls
 * next() hands on to the one after it (the last to what follows the chain), one that calls next(err) or
 * throws hands the error on to Express's error handlers, and one that answers ends the chain.
 */
export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      // As the router takes them: 'route' is no error (a middleware is no route), 'router' leaves the app's router.
      if (err !== undefined && err !== null && err !== 'route') return next(err);
      const handler = handlers[i++];
      if (handler === undefined) return next();
      try {
        const ret = handler(req, res, step as NextFunction) as unknown;
        if (ret instanceof Promise) ret.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}
