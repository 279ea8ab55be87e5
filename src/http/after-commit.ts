// Answers leave only once the writes they report are committed: with group commit (Store.groupCommits)
// a request's transaction commits at the end of the event loop's turn, and its answer waits for that,
// so that a 2xx always means "on disk". If the commit fails, the answer becomes a 503.
import type { NextFunction, Request, Response } from 'express';
import type { Store } from '../store/store';
import { sendJson } from './reply';

export function answerAfterCommit(store: Store) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const end = res.end;
    res.end = function (this: Response, ...args: unknown[]) {
      store.afterCommit((err) => {
        res.end = end;
        if (err && !res.headersSent) {
          for (const name of res.getHeaderNames()) res.removeHeader(name);
          sendJson(res, 503, { Message: `The change could not be saved: ${err.message}` });
          return;
        }
        (end as (...a: unknown[]) => void).apply(res, args);
      });
      return res;
    } as Response['end'];
    next();
  };
}

/*
 * Answers shaped by a fault. Installed before answerAfterCommit's wrapper, so that they run once the
 * commit is done: the operation is kept whatever happens to its answer.
 */

/** LoseAnswer: the operation commits, then the connection is closed instead of answered. */
export function loseAnswer(res: Response): void {
  res.end = function (this: Response) {
    res.socket?.destroy();
    return res;
  } as Response['end'];
}

/** Delay: the committed answer leaves once `until` resolves. */
export function answerLater(res: Response, until: Promise<void>): void {
  const end = res.end;
  res.end = function (this: Response, ...args: unknown[]) {
    res.end = end;
    void until.then(() => (end as (...a: unknown[]) => void).apply(res, args));
    return res;
  } as Response['end'];
}
