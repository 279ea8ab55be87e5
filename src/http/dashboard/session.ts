// Dashboard sessions: a random id in an HttpOnly cookie, the session itself in memory (one store
// per app, so two sandboxes in one process never share sessions).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

export const COOKIE = 'sandbox_dashboard';
/** Sessions end after this long without a request (wall-clock time, not sandbox time). */
export const IDLE_MS = 8 * 60 * 60 * 1000;
const MAX_SESSIONS = 10_000;

export interface Session {
  siteId: number;
  /** Sent back in every form: a POST without it is refused. */
  csrf: string;
  /** A one-time message for the next page (after a redirect). */
  flash?: string | undefined;
  /** Why the last action was refused, shown once on the page it redirected to. */
  error?: string[] | undefined;
  lastSeen: number;
}

export class Sessions {
  private readonly byId = new Map<string, Session>();

  create(siteId: number): { id: string; session: Session } {
    this.sweep();
    const id = randomBytes(32).toString('base64url');
    const session: Session = { siteId, csrf: randomBytes(24).toString('base64url'), lastSeen: Date.now() };
    this.byId.set(id, session);
    return { id, session };
  }

  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const s = this.byId.get(id);
    if (!s) return undefined;
    if (Date.now() - s.lastSeen > IDLE_MS) {
      this.byId.delete(id);
      return undefined;
    }
    s.lastSeen = Date.now();
    return s;
  }

  delete(id: string | undefined): void {
    if (id !== undefined) this.byId.delete(id);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.byId) if (now - s.lastSeen > IDLE_MS) this.byId.delete(id);
    // Bounded: the oldest sessions go first (a Map keeps insertion order).
    while (this.byId.size >= MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value!);
  }
}

/** The session id the request's cookie carries. */
export function sessionId(req: Request): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setSessionCookie(req: Request, res: Response, id: string): void {
  res.append('Set-Cookie', `${COOKIE}=${id}; Path=/dashboard; HttpOnly; SameSite=Lax${req.secure ? '; Secure' : ''}`);
}

export function clearSessionCookie(res: Response): void {
  res.append('Set-Cookie', `${COOKIE}=; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=0`);
}

export function sameToken(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
