// `GET /v1/exchangerates/{from}/{to}/`: a rate from the fixture table of exchange rates (the sandbox's own).
import { crossRate, parseRate } from '../domain/exchange-rates';
import { formatTimestamp } from '../domain/time';
import { HttpError } from '../errors/errors';
import type { ServiceContext } from './context';

const tables = new WeakMap<object, Map<string, bigint>>();

function table(ctx: ServiceContext): Map<string, bigint> {
  const fx = ctx.fixtures?.exchangeRates;
  if (!fx) return new Map();
  let t = tables.get(fx);
  if (!t) {
    t = new Map(Object.entries(fx.Rates).flatMap(([c, r]) => { const n = parseRate(r); return n === null ? [] : [[c, n] as const]; }));
    t.set(fx.Base, 1_000_000n);
    tables.set(fx, t);
  }
  return t;
}

/** The ExchangeRate object (SDK-PHP S2P_SDK_Structure_Exchangerate_Response, SDK-NET ExchangeRateResponse). */
export function exchangeRate(ctx: ServiceContext, fromRaw: string, toRaw: string) {
  const from = fromRaw.toUpperCase();
  const to = toRaw.toUpperCase();
  for (const [name, code] of [['from', fromRaw], ['to', toRaw]] as const) {
    if (!/^[A-Za-z]{3}$/.test(code)) throw new HttpError(400, `The ${name} currency is invalid: ${code} is no ISO 4217 code`);
  }
  const rate = crossRate(table(ctx), from, to);
  if (rate === null) throw new HttpError(404, `No exchange rate from ${from} to ${to}.`);
  // Fidelity: Rate is a JSON number (the SDKs read it as decimal / float); From and To as asked, in upper case.
  return { From: from, To: to, DateTime: formatTimestamp(ctx.clock.now()), Rate: Number(rate) };
}
