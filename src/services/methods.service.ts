// The methods API's reads: the catalogue, one method, the methods assigned to a site; and the one
// check the create path makes (is a method assigned to the site?).
import { HttpError, notFound } from '../errors/errors';
import { type Reason, reason } from '../errors/reasons';
import { COUNTRIES } from '../schemas/codes';
import type { ServiceContext } from './context';
import { parseId } from './lookup';
import type { MethodRecord, SiteRecord } from '../store/records';

export interface MethodsQuery {
  /** Only the methods available in this country (ISO 3166-1 alpha-2). */
  country?: string;
  /** `additionalDetails=true`: with validators and options. */
  details: boolean;
}

/** Reads `country` and `additionalDetails` (names in any case, as official clients send either); other parameters are ignored. */
export function methodsQuery(raw: Record<string, unknown>): MethodsQuery {
  const q: MethodsQuery = { details: false };
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(raw)) {
    const key = name.toLowerCase();
    if (key !== 'country' && key !== 'additionaldetails') continue;
    if (typeof value !== 'string' || seen.has(key)) throw new HttpError(400, `Invalid ${name}: give it once, as a single value`);
    seen.add(key);
    if (key === 'country') {
      const country = value.toUpperCase();
      if (!COUNTRIES.includes(country)) throw new HttpError(400, `Invalid country: "${value}" is not an ISO 3166-1 alpha-2 code such as DE`);
      q.country = country;
    } else {
      const flag = value.toLowerCase();
      if (flag !== 'true' && flag !== 'false' && flag !== '1' && flag !== '0') {
        throw new HttpError(400, `Invalid additionalDetails: expected true or false`);
      }
      q.details = flag === 'true' || flag === '1';
    }
  }
  return q;
}

const active = (m: MethodRecord) => m.catalogue?.Active ?? true;
const inCountry = (q: MethodsQuery) => (m: MethodRecord) => q.country === undefined || (m.catalogue?.Countries ?? []).includes(q.country);

/** `GET /v1/methods[?country=]`: every active method of the catalogue. */
export function listMethods(ctx: ServiceContext, q: MethodsQuery): MethodRecord[] {
  return ctx.store.methods.list().filter(active).filter(inCountry(q));
}

/** `GET /v1/methods/assigned[?country=]`: the active methods the site may use. */
export function assignedMethods(ctx: ServiceContext, site: SiteRecord, q: MethodsQuery): MethodRecord[] {
  return listMethods(ctx, q).filter((m) => isAssigned(site, m.methodId));
}

/** `GET /v1/methods/{id}`: one method of the catalogue, or 404. */
export function getMethod(ctx: ServiceContext, rawId: string): MethodRecord {
  const id = parseId(rawId);
  const method = id === null ? undefined : ctx.store.methods.get(id);
  if (!method) throw notFound('Method');
  return method;
}

/** Whether `site` may use a method: a site without a list of its own (every fixture site) may use them all. */
export function isAssigned(site: SiteRecord, methodId: number): boolean {
  return site.methods === null || site.methods.includes(methodId);
}

/** Reason 9 when the method is not assigned to the site, for the payment create paths. */
export function unavailableMethod(site: SiteRecord, methodId: number, field: string): Reason | null {
  if (isAssigned(site, methodId)) return null;
  return reason(9, `${field} is unavailable: method ${methodId} is not assigned to site ${site.siteId}`);
}

/** Checks a list of method IDs given to a merchant: each must be a method of the catalogue. */
export function checkAssignable(ctx: ServiceContext, methods: number[] | null | undefined): void {
  for (const id of methods ?? []) {
    if (!ctx.store.methods.get(id)) throw new HttpError(400, `Methods: ${id} is not a method of the catalogue (GET /v1/methods lists them)`);
  }
}
