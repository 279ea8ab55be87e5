// Card authentications (`/v1/card/authenticate` and `/v1/card/token/{value}` on the card address): a
// card verified without a charge, answered at once with a credit card token, read back and cancelled.
import { maskCardNumber } from '../domain/card-data';
import { cardAuthCancel, cardVerifiable, tokenUsable } from '../domain/card-objects.machine';
import { Rejection, notFound } from '../errors/errors';
import { type ReasonCode, reason } from '../errors/reasons';
import { cardAuthenticationRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { CardAuthRecord, Json, SiteRecord } from '../store/records';
import { completeAddress, completeCustomer } from '../wire/serializers';
import type { ServiceContext } from './context';

interface CardAuthInput {
  Customer?: Json | null;
  BillingAddress?: Json | null;
  Card: { HolderName?: string | null; Number: string; ExpirationMonth: string; ExpirationYear: string; IssuingBankCountry?: string | null };
}

/**
 * `POST /v1/card/authenticate`: a card in date with a well-formed number is verified, and a credit card
 * token made for it; an expired card (1205) or a number failing the Luhn check (1201) is refused.
 * Fidelity: the answer's Customer and BillingAddress carry `"ID": 0`, as the card host's documentation shows.
 */
export function authenticateCard(ctx: ServiceContext, site: SiteRecord, body: unknown): CardAuthRecord {
  const problems = validateRequest(cardAuthenticationRequest, body, ctx.settings.strictFields === true);
  if (problems.length > 0) throw new Rejection(problems);
  const input = (body as { CardAuthentication: CardAuthInput }).CardAuthentication;
  const card = input.Card;
  const now = ctx.clock.now();
  const check = cardVerifiable({ number: card.Number, month: card.ExpirationMonth, year: card.ExpirationYear }, now);
  if (!check.ok) throw new Rejection([reason(check.code as ReasonCode, check.info)]);
  return ctx.store.tx(() =>
    ctx.store.cardAuths.insert({
      siteId: site.siteId,
      token: ctx.ids.token(),
      customer: input.Customer ? completeCustomer(input.Customer, 0) : null,
      billingAddress: input.BillingAddress ? completeAddress(input.BillingAddress, 0) : null,
      card: {
        HolderName: card.HolderName ?? null,
        Number: maskCardNumber(card.Number),
        ExpirationMonth: card.ExpirationMonth,
        ExpirationYear: card.ExpirationYear,
        IssuingBankCountry: card.IssuingBankCountry ? card.IssuingBankCountry.toUpperCase() : null,
      },
      createdAt: now,
    }),
  );
}

/** `GET /v1/card/token/{value}`: the site's card authentication of that token, or 404. */
export function getCardAuth(ctx: ServiceContext, site: SiteRecord, token: string): CardAuthRecord {
  const auth = /^[0-9A-Fa-f]{32}$/.test(token) ? ctx.store.cardAuths.byToken(token.toUpperCase(), site.siteId) : undefined;
  if (!auth) throw notFound('Credit card token');
  return auth;
}

/** `POST /v1/card/token/{value}/cancel`: the token stops being usable; a second cancel is refused (2401). */
export function cancelCardAuth(ctx: ServiceContext, site: SiteRecord, token: string): CardAuthRecord {
  return ctx.store.tx(() => {
    const auth = getCardAuth(ctx, site, token);
    const decision = cardAuthCancel(auth.active);
    if (!decision.ok) throw new Rejection([reason(decision.code as ReasonCode, decision.info)]);
    const now = ctx.clock.now();
    ctx.store.cardAuths.cancel(auth.id, now);
    return { ...auth, active: false, cancelledAt: now };
  });
}

/**
 * The card of credit card token `value` of the site, to pay with or pay out to: 2400 when the site has
 * no such token, 2401 when it was cancelled. `field` names it in the reason (`Payment.CreditCardToken`).
 */
export function cardOfToken(ctx: ServiceContext, site: SiteRecord, value: string, field: string): CardAuthRecord {
  const auth = ctx.store.cardAuths.byToken(value.toUpperCase(), site.siteId);
  if (!auth) throw new Rejection([reason(2400, `${field}.Value is invalid: no credit card token ${value} on site ${site.siteId}`)]);
  const usable = tokenUsable(auth.active);
  if (!usable.ok) throw new Rejection([reason(usable.code as ReasonCode, `${field}: ${usable.info}`)]);
  return auth;
}
