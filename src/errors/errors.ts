// Error classes that the HTTP layer renders in the wire shapes of the real service.
import type { PreapprovalRecord } from '../store/records';
import type { PaymentView } from '../wire/serializers';
import type { Reason } from './reasons';

/**
 * A request rejected with reasons (HTTP 400). `stored` is the resource as it is stored, when the
 * rejection is about an existing resource in the wrong state; without it the body is a shell that
 * echoes the request.
 */
export class Rejection extends Error {
  constructor(
    readonly reasons: Reason[],
    readonly stored?: PaymentView,
  ) {
    super(reasons.map((r) => `${r.Code} - ${r.Info}`).join('; '));
  }
}

/** A request about a stored preapproval refused in its state: the answer echoes it, with the reasons. */
export class PreapprovalRejection extends Rejection {
  constructor(
    reasons: Reason[],
    readonly preapproval: PreapprovalRecord,
  ) {
    super(reasons);
  }
}

/** An error answered with `{"Message": …}`: 401, 404, 413, 415 and the control API's own errors. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const UNAUTHORIZED_MESSAGE = 'Authorization has been denied for this request.';

export function notFound(what: string): HttpError {
  return new HttpError(404, `${what} not found.`);
}
