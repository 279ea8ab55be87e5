// A request journal entry as the control API, the dashboard and the embedded sandbox show it.
import { formatTimestamp } from '../domain/time';
import type { RequestRecord } from '../store/requests.repo';

/** A request or answer body longer than this is kept up to it, and the entry says so. */
export const BODY_CAP = 64 * 1024;

export type RequestEntry = ReturnType<typeof requestView>;

const body = (text: string | null, bytes: number) => ({
  /** The body as it was sent (a card's number masked), up to the cap. */
  Body: text,
  /** Its full size in bytes. */
  Bytes: bytes,
  /** The cap it was cut at, or null when it is whole. */
  CappedAt: bytes > BODY_CAP ? BODY_CAP : null,
});

export function requestView(r: RequestRecord) {
  return {
    ID: r.id,
    /** Sandbox time: its marketplace's own clock's, when it has one (as its payments' times are). */
    At: formatTimestamp(r.at),
    AtMs: r.at,
    /** Real time, ISO 8601. */
    WallTime: new Date(r.wallAt).toISOString(),
    Address: r.address,
    Method: r.method,
    Path: r.path,
    Query: r.query,
    Route: r.route,
    /** The site it authenticated as, or tried to (Authenticated false). */
    SiteID: r.siteId,
    Authenticated: r.authenticated,
    /** It failed authentication (or named no marketplace): it belongs to no one, and is kept in the unauthenticated pool. */
    Unauthenticated: r.ownerSiteId === null,
    /** What it counts against its quota: its texts as UTF-8 bytes (bodies as kept) and 256 for the rest. */
    StoredBytes: r.storedBytes,
    PaymentID: r.paymentId,
    RefundID: r.refundId,
    SplitID: r.splitId,
    /** Null when no answer left (a reset connection). */
    Status: r.status,
    ReasonCodes: r.reasons,
    DurationMs: r.durationMs,
    /** The fault that shaped the answer ("answer lost after the commit by X-Sandbox-Fault"), or null. */
    Fault: r.fault,
    /** What a request that matched no route, or failed to authenticate, came nearest to. */
    NearMiss: r.nearMiss,
    Request: body(r.requestBody, r.requestBytes),
    Response: body(r.responseBody, r.responseBytes),
  };
}
