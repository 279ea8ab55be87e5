// Basic authentication of merchant sites.
import { timingSafeEqual } from 'node:crypto';
import { HttpError, UNAUTHORIZED_MESSAGE } from '../errors/errors';
import type { SiteRecord } from '../store/records';
import type { SitesRepo } from '../store/sites.repo';
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

/** Headers whose credentials held, and their sites, while no site has changed since (SitesRepo.generation). */
interface Known {
  generation: number;
  sites: Map<string, SiteRecord>;
}
const KNOWN = new WeakMap<SitesRepo, Known>();
/** Headers kept at most: any more, and the oldest are forgotten (only credentials that held are kept). */
const KNOWN_MAX = 1000;

/**
 * The site the credentials of an Authorization header are, if they are right. A header that held is
 * known until any site changes (a key set, regenerated or removed, a site deleted, the data reset or
 * restored): every request is authenticated once or twice, and a client sends the same header each time.
 */
export function siteOf(ctx: ServiceContext, header: string | undefined): SiteRecord | undefined {
  if (header === undefined) return undefined;
  const repo = ctx.store.sites;
  let known = KNOWN.get(repo);
  if (known === undefined || known.generation !== repo.generation) {
    known = { generation: repo.generation, sites: new Map() };
    KNOWN.set(repo, known);
  }
  const hit = known.sites.get(header);
  if (hit !== undefined) return hit;
  const site = checked(ctx, header);
  if (site !== undefined) {
    if (known.sites.size >= KNOWN_MAX) known.sites.delete(known.sites.keys().next().value!);
    known.sites.set(header, site);
  }
  return site;
}

function checked(ctx: ServiceContext, header: string): SiteRecord | undefined {
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
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
