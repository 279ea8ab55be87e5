// Answers leave only once the writes they report are committed: with group commit (Store.groupCommits)
// a request's transaction commits at the end of the event loop's turn, and its answer waits for that,
// so that a 2xx always means "on disk". If the commit fails, the answer becomes a 503.
// A read waits for nothing: it first commits what the turn wrote so far, so that it sees only what is
// on disk and its answer cannot share the fate of a commit it took no part in (the scheduler's
// background writes failing on a full disk made reads answer 503 with them).
import type { NextFunction, Request, Response } from 'express';
import type { Store } from '../store/store';
import { cannotSave } from './pipeline';
import { sendJson } from './reply';

/**
 * @param released told of each answer as it is released (the request journal): after the answer is
 * queued behind the open commit group, so that a write's entry joins that group and a read's answer
 * leaves before its entry is written.
 */
export function answerAfterCommit(store: Store, released?: (req: Request, res: Response, chunk: unknown) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = res.end;
    res.end = function (this: Response, ...args: unknown[]) {
      store.afterCommit((err) => {
        res.end = end;
        if (err && !res.headersSent) {
          for (const name of res.getHeaderNames()) res.removeHeader(name);
          sendJson(res, 503, cannotSave(err));
          return;
        }
        (end as (...a: unknown[]) => void).apply(res, args);
      });
      released?.(req, res, args[0]);
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

/** Before a read (GET, HEAD) runs: commit what is pending, so that it reads committed data only. */
export function readCommitted(store: Store) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.method === 'GET' || req.method === 'HEAD') store.flush();
    next();
  };
}
