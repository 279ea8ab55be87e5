// The payment lists of both addresses: query parameters, filters and paging.
import { parseAmount } from '../domain/money';
import { CATALOGUE_STATUS_IDS } from '../domain/statuses';
import { TIMESTAMP_EXPECTED, parseTimestamp } from '../domain/time';
import { CURRENCIES, COUNTRIES } from '../schemas/codes';
import { MAX_PAGE_SIZE } from '../schemas/queries';
import type { PaymentFilter, SortBy } from '../store/payments.repo';
import type { PayoutFilter } from '../store/payouts.repo';
import type { PaymentRecord, SiteRecord, Surface } from '../store/records';
import type { ListPage } from '../wire/serializers';
import type { ServiceContext } from './context';

/** A list request that cannot be answered; rendered in the list envelope with `Error`. */
export class ListRejected extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

export { MAX_PAGE_SIZE };
const SORTS: readonly SortBy[] = ['merchanttransactionid', 'inputdatetime', 'amount'];

/** Query parameter names are matched case-insensitively, as official clients send both forms. */
export type Query = Map<string, string>;

export function queryOf(raw: Record<string, unknown>): Query {
  const q: Query = new Map();
  for (const [k, v] of Object.entries(raw)) {
    const key = k.toLowerCase();
    if (typeof v !== 'string') throw new ListRejected(`Invalid ${k}: give it once, as a single value`);
    if (q.has(key)) throw new ListRejected(`Invalid ${k}: given more than once`);
    q.set(key, v);
  }
  return q;
}

function wholeNumber(q: Query, key: string, name: string, min: number, max: number, code?: number): number | undefined {
  const v = q.get(key);
  if (v === undefined) return undefined;
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) throw new ListRejected(`Invalid ${name}: expected a whole number from ${min} to ${max}`, code);
  return n;
}

function filterOf(q: Query, site: SiteRecord, surface: Surface): PaymentFilter {
  const f: PaymentFilter = { ownerSiteId: site.siteId, surface };
  for (const [key, name] of [['startdate', 'startDate'], ['enddate', 'endDate']] as const) {
    const v = q.get(key);
    if (v === undefined) continue;
    const ms = parseTimestamp(v);
    if (ms === null) throw new ListRejected(`Invalid ${name}: ${TIMESTAMP_EXPECTED}`, 112);
    if (key === 'startdate') f.startMs = ms;
    else f.endMs = ms + 999; // the whole last second
  }
  f.methodId = wholeNumber(q, 'methodid', 'methodID', 1, 2147483647);
  const statusId = wholeNumber(q, 'statusid', 'statusID', 1, 2147483647);
  if (statusId !== undefined && !CATALOGUE_STATUS_IDS.has(statusId)) throw new ListRejected(`Invalid statusID: ${statusId} is not a status`);
  f.statusId = statusId;
  f.typeId = wholeNumber(q, 'typeid', 'typeID', 1, 2);
  const currency = q.get('currency');
  if (currency !== undefined) {
    if (!CURRENCIES.includes(currency.toUpperCase())) throw new ListRejected('Invalid currency: expected an ISO 4217 code such as EUR', 109);
    f.currency = currency.toUpperCase();
  }
  const country = q.get('country');
  if (country !== undefined) {
    if (!COUNTRIES.includes(country.toUpperCase())) throw new ListRejected('Invalid country: expected an ISO 3166-1 alpha-2 code such as NL', 108);
    f.country = country.toUpperCase();
  }
  for (const [key, name] of [['minimumamount', 'minimumAmount'], ['maximumamount', 'maximumAmount']] as const) {
    const v = q.get(key);
    if (v === undefined) continue;
    const amount = v === '0' ? 0n : parseAmount(v);
    if (amount === null) throw new ListRejected(`Invalid ${name}: expected an amount in minor units (digits only)`, 111);
    if (key === 'minimumamount') f.minimumAmount = amount;
    else f.maximumAmount = amount;
  }
  const mtid = q.get('merchanttransactionid');
  if (mtid !== undefined) f.merchantTransactionId = mtid;
  const methodTx = q.get('methodtransactionid');
  if (methodTx !== undefined) f.methodTransactionId = methodTx;
  return f;
}

/**
 * `GET /v1/payments` on the API address: `pageSize`, `pageIndex` (1-based), sorting and filters.
 * The dashboard pages through the card address's payments the same way (`surface`).
 */
export function listPayments(ctx: ServiceContext, site: SiteRecord, raw: Record<string, unknown>, surface: Surface = 'api'): ListPage<PaymentRecord> {
  const q = queryOf(raw);
  const pageSize = wholeNumber(q, 'pagesize', 'pageSize', 1, MAX_PAGE_SIZE) ?? ctx.settings.pageSize;
  const pageIndex = wholeNumber(q, 'pageindex', 'pageIndex', 1, 2147483647) ?? 1;
  const direction = q.get('sortdirection')?.toLowerCase();
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') {
    throw new ListRejected('Invalid sortDirection: expected asc or desc');
  }
  const sortBy = q.get('sortby')?.toLowerCase();
  if (sortBy !== undefined && !SORTS.includes(sortBy as SortBy)) {
    throw new ListRejected(`Invalid sortBy: expected one of ${SORTS.join(', ')}`);
  }
  const filter = filterOf(q, site, surface);
  const { total, items } = ctx.store.payments.list(filter, {
    sortBy: (sortBy as SortBy | undefined) ?? 'id',
    descending: direction === undefined ? true : direction === 'desc',
    limit: pageSize,
    offset: (pageIndex - 1) * pageSize,
  }, false); // list items show no customer or addresses (reduced detail)
  return { items, total, pageIndex, pageSize };
}

/** `GET /v1/payments` on the card address: `limit`/`offset` and the same filters. */
export function listCardPayments(ctx: ServiceContext, site: SiteRecord, raw: Record<string, unknown>): ListPage<PaymentRecord> {
  const q = queryOf(raw);
  const limit = wholeNumber(q, 'limit', 'limit', 1, MAX_PAGE_SIZE, 107) ?? ctx.settings.pageSize;
  const offset = wholeNumber(q, 'offset', 'offset', 0, 2147483647, 106) ?? 0;
  const filter = filterOf(q, site, 'card');
  const { total, items } = ctx.store.payments.list(filter, { sortBy: 'id', descending: true, limit, offset });
  return { items, total, pageIndex: Math.floor(offset / limit) + 1, pageSize: limit };
}

/** The card payouts list's query (`GET /v1/payouts`): `limit`/`offset` and the card list's filters that a payout has. */
export function payoutsQuery(ctx: ServiceContext, site: SiteRecord, raw: Record<string, unknown>): { filter: PayoutFilter; limit: number; offset: number } {
  const q = queryOf(raw);
  const limit = wholeNumber(q, 'limit', 'limit', 1, MAX_PAGE_SIZE, 107) ?? ctx.settings.pageSize;
  const offset = wholeNumber(q, 'offset', 'offset', 0, 2147483647, 106) ?? 0;
  const f = filterOf(q, site, 'card');
  const filter: PayoutFilter = {};
  if (f.startMs !== undefined) filter.startDate = f.startMs;
  if (f.endMs !== undefined) filter.endDate = f.endMs;
  if (f.currency !== undefined) filter.currency = f.currency;
  if (f.minimumAmount !== undefined) filter.minimumAmount = Number(f.minimumAmount);
  if (f.maximumAmount !== undefined) filter.maximumAmount = Number(f.maximumAmount);
  if (f.merchantTransactionId !== undefined) filter.merchantTransactionId = f.merchantTransactionId;
  if (f.statusId !== undefined) filter.statusId = f.statusId;
  return { filter, limit, offset };
}
