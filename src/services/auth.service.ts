// Basic authentication of merchant sites.
import { timingSafeEqual } from 'node:crypto';
import { HttpError, UNAUTHORIZED_MESSAGE } from '../errors/errors';
import type { SiteRecord } from '../store/records';
import type { ServiceContext } from './context';

/**
 * The site whose `SiteID:APIKey` the header carries, or a 401. Keys may hold `+ / = :`, so the
 * pair splits at the first colon only.
 */
export function authenticate(ctx: ServiceContext, header: string | undefined): SiteRecord {
  const site = siteOf(ctx, header);
  if (!site) throw new HttpError(401, UNAUTHORIZED_MESSAGE, { 'WWW-Authenticate': 'Basic' });
  return site;
}

/** The site the credentials of an Authorization header are, if they are right. */
export function siteOf(ctx: ServiceContext, header: string | undefined): SiteRecord | undefined {
  const m = header === undefined ? null : /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  const siteId = decoded.slice(0, colon);
  if (!/^[0-9]{1,10}$/.test(siteId)) return undefined;
  const site = ctx.store.sites.get(Number(siteId));
  if (!site || site.apiKey === null) return undefined;
  return sameText(decoded.slice(colon + 1), site.apiKey) ? site : undefined;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
