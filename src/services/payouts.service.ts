// Card payouts (`/v1/payouts` on the card address): made with their outcome decided at once, as the
// real card test host answers, and read back one by one, by status, or as a filtered list.
import { payoutOutcome } from '../domain/card-objects.machine';
import { parseAmount } from '../domain/money';
import { Status } from '../domain/statuses';
import { Rejection, notFound } from '../errors/errors';
import { reason } from '../errors/reasons';
import { cardPayoutRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { Json, PayoutRecord, SiteRecord } from '../store/records';
import { completeAddress, completeCustomer } from '../wire/serializers';
import { cardOfToken } from './card-auth.service';
import { maskCardNumber } from '../domain/card-data';
import { recordPayoutStatus } from './changes';
import type { ServiceContext } from './context';
import { ListRejected, payoutsQuery } from './list.service';
import { parseId } from './lookup';

interface PayoutInput {
  MerchantTransactionID: string;
  OriginatorTransactionID?: string | null;
  Amount: number | string;
  Currency: string;
  Description?: string | null;
  StatementDescriptor?: string | null;
  Customer?: Json | null;
  BillingAddress?: Json | null;
  Card?: { HolderName?: string | null; Number: string; ExpirationMonth: string; ExpirationYear: string };
  CreditCardToken?: { Value: string };
}

export interface PayoutMade {
  payout: PayoutRecord;
  /** Fidelity: a payout that failed (an expired card) is answered 400 with its ID and status Failed (SDK-NET PayoutServiceTests). */
  failed: boolean;
}

/** `POST /v1/payouts`: Success (2) at once, or Failed (4) for an expired card, a bad card number or test amount 10001. */
export function createPayout(ctx: ServiceContext, site: SiteRecord, body: unknown): PayoutMade {
  const problems = validateRequest(cardPayoutRequest, body, ctx.settings.strictFields === true);
  if (problems.length > 0) throw new Rejection(problems);
  const input = (body as { Payout: PayoutInput }).Payout;
  const amount = parseAmount(input.Amount)!;
  return ctx.store.tx(() => {
    if (ctx.store.payouts.merchantTransactionIdTaken(site.siteId, input.MerchantTransactionID)) {
      // Fidelity: the card host's own words for a second payout with one MerchantTransactionID.
      throw new Rejection([{ Code: 20, Info: 'Key is duplicated' }]);
    }
    const now = ctx.clock.now();
    const card = cardToPay(ctx, site, input);
    const outcome = payoutOutcome(amount, { number: card.number, month: card.ExpirationMonth, year: card.ExpirationYear }, now);
    const payout = ctx.store.payouts.insert({
      siteId: site.siteId,
      merchantTransactionId: input.MerchantTransactionID,
      originatorTransactionId: input.OriginatorTransactionID ?? null,
      amount,
      currency: input.Currency,
      description: input.Description ?? null,
      statementDescriptor: input.StatementDescriptor ?? null,
      customer: input.Customer ? completeCustomer(input.Customer, ctx.store.counters.next('customer')) : null,
      billingAddress: input.BillingAddress ? completeAddress(input.BillingAddress, ctx.store.counters.next('address')) : null,
      card: { HolderName: card.HolderName, Number: card.Number, ExpirationMonth: card.ExpirationMonth, ExpirationYear: card.ExpirationYear },
      statusId: outcome.status,
      reasons: outcome.reasons,
      createdAt: now,
    });
    // Its outcome is decided at once and notified, as the real service notifies card payouts (the
    // .NET SDK's NotificationProcessor handles {"Payout": …}): Success, or Failed.
    recordPayoutStatus(ctx, payout, outcome.status === Status.Success ? 'payout made' : 'payout failed');
    return { payout, failed: outcome.status !== Status.Success };
  });
}

/** The card a payout goes to: `Card` (masked here; `number` kept for the checks), or a credit card token's. */
function cardToPay(ctx: ServiceContext, site: SiteRecord, input: PayoutInput) {
  if (input.Card && input.CreditCardToken) throw new Rejection([reason(2, 'Payout.CreditCardToken is invalid: send Card or CreditCardToken, not both')]);
  if (input.CreditCardToken) {
    const c = cardOfToken(ctx, site, input.CreditCardToken.Value, 'Payout.CreditCardToken').card as Record<string, string | null>;
    return { number: '', HolderName: c.HolderName ?? null, Number: c.Number!, ExpirationMonth: c.ExpirationMonth!, ExpirationYear: c.ExpirationYear! };
  }
  if (!input.Card) throw new Rejection([reason(1, 'Payout.Card is missing (or give Payout.CreditCardToken)')]);
  const c = input.Card;
  return { number: c.Number, HolderName: c.HolderName ?? null, Number: maskCardNumber(c.Number), ExpirationMonth: c.ExpirationMonth, ExpirationYear: c.ExpirationYear };
}

/** `GET /v1/payouts/{id}` and `/status`: one payout of the site, or 404. */
export function getPayout(ctx: ServiceContext, site: SiteRecord, rawId: string): PayoutRecord {
  const id = parseId(rawId);
  const payout = id === null ? undefined : ctx.store.payouts.get(id, site.siteId);
  if (!payout) throw notFound('Payout');
  return payout;
}

/** `GET /v1/payouts`: the site's payouts, newest first, `limit`/`offset` and filters as the card list takes them. */
export function listPayouts(ctx: ServiceContext, site: SiteRecord, raw: Record<string, unknown>): PayoutRecord[] {
  let query: ReturnType<typeof payoutsQuery>;
  try {
    query = payoutsQuery(ctx, site, raw);
  } catch (e) {
    // The payouts list answers its errors in the payout's envelope (the PHP SDK's error structure).
    if (e instanceof ListRejected) throw new Rejection([{ Code: e.code ?? 2, Info: e.message }]);
    throw e;
  }
  return ctx.store.payouts.list(site.siteId, query.filter, query.limit, query.offset);
}
