// The refund types of a method in a country and currency (`GET /v1/refunds/types/{methodId}/{country}/{currency}`),
// from the same documented table as a payment's refund types.
import { HttpError } from '../errors/errors';
import { COUNTRIES, CURRENCIES } from '../schemas/codes';
import { refundTypesToWire } from '../wire/refund-types';
import type { ServiceContext } from './context';

/**
 * A method of the sandbox's catalogue answers its types where it takes that country and currency,
 * and an empty list where it does not. A method the catalogue lacks answers its documented types
 * (Native when the documentation lists none): the real catalogue is larger than the sandbox's, and a
 * sandbox must not refuse what production answers. A country or currency that is no ISO code is a 400.
 */
export function methodRefundTypes(ctx: ServiceContext, rawMethod: string, rawCountry: string, rawCurrency: string): ReturnType<typeof refundTypesToWire> {
  const country = rawCountry.toUpperCase();
  const currency = rawCurrency.toUpperCase();
  if (!/^[0-9]{1,5}$/.test(rawMethod) || Number(rawMethod) === 0) throw new HttpError(400, `MethodID is invalid: expected a method ID, got "${rawMethod}"`);
  if (!COUNTRIES.includes(country)) throw new HttpError(400, `Country code is invalid: expected an ISO 3166-1 alpha-2 code such as NL, got "${rawCountry}"`);
  if (!CURRENCIES.includes(currency)) throw new HttpError(400, `Currency is invalid: expected an ISO 4217 code such as EUR, got "${rawCurrency}"`);
  const methodId = Number(rawMethod);
  const method = ctx.store.methods.get(methodId);
  const catalogue = method?.catalogue;
  if (catalogue?.Countries && !catalogue.Countries.includes(country)) return [];
  if (catalogue?.Currencies && !catalogue.Currencies.includes(currency)) return [];
  return refundTypesToWire(methodId);
}
