// Card payments on the card address: created as the real card test host answers (CaptureRequested with
// Capture true, Authorized without; Open when the payer enters the card on the hosted form), with its
// test amounts.
import { cardCreated, fraudChecked } from '../domain/card.machine';
import { maskCardNumber } from '../domain/card-data';
import { parseAmount } from '../domain/money';
import { Rejection } from '../errors/errors';
import { type Reason, reason } from '../errors/reasons';
import { createCardPaymentRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { Json, PaymentRecord, SiteRecord } from '../store/records';
import { type PaymentView, completeAddress, completeCustomer } from '../wire/serializers';
import { cardOfToken } from './card-auth.service';
import { scheduleCardOutcome } from './card-actions.service';
import { recordPaymentStatus } from './changes';
import type { ServiceContext } from './context';
import { loadPayment } from './lookup';
import { unavailableMethod } from './methods.service';
import { type SplitInput, checkSplits, insertSplits } from './splits.input';

export const CARD_METHOD_ID = 6;

interface CardInput {
  MerchantTransactionID: string;
  OriginatorTransactionID?: string | null;
  Amount: number | string;
  Currency: string;
  MethodOptionID?: number | null;
  SkinID?: number | null;
  ClientIP?: string | null;
  ReturnURL?: string | null;
  Description?: string | null;
  StatementDescriptor?: string | null;
  Customer?: Json | null;
  BillingAddress?: Json | null;
  ShippingAddress?: Json | null;
  Card?: { HolderName: string; Number: string; ExpirationMonth: string; ExpirationYear: string };
  CreditCardToken?: { Value: string; SecurityCode?: string | null };
  Capture?: boolean | null;
  Retry?: boolean | null;
  ThreeDSecureCheck?: boolean | null;
  '3DSecure'?: boolean | null;
  GenerateCreditCardToken?: boolean | null;
  PaymentTokenLifetime?: number | null;
  Splits?: SplitInput[];
}

export function createCardPayment(ctx: ServiceContext, site: SiteRecord, body: unknown): PaymentView {
  const schemaReasons = validateRequest(createCardPaymentRequest, body, ctx.settings.strictFields === true);
  if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
  const input = (body as { Payment: CardInput }).Payment;
  const amount = parseAmount(input.Amount)!;
  const splits = input.Splits ?? [];
  const reasons: Reason[] = [];
  const unavailable = unavailableMethod(site, CARD_METHOD_ID, 'Payment.MethodID');
  if (unavailable) reasons.push(unavailable);
  if (splits.length > 0) reasons.push(...checkSplits(ctx, site, splits, amount, 0n, 'Payment.Splits'));
  if (input.Card && input.CreditCardToken) reasons.push(reason(2, 'Payment.CreditCardToken is invalid: send Card or CreditCardToken, not both'));
  if (reasons.length > 0) throw new Rejection(reasons);
  return ctx.store.tx(() => {
    if (ctx.store.payments.merchantTransactionIdTaken(site.siteId, 'card', input.MerchantTransactionID)) {
      throw new Rejection([reason(20, `Payment.MerchantTransactionID is duplicated: ${input.MerchantTransactionID} was used before on site ${site.siteId}`)]);
    }
    const capture = input.Capture ?? true;
    // A card authentication's token stands for its card.
    const tokenAuth = input.CreditCardToken ? cardOfToken(ctx, site, input.CreditCardToken.Value, 'Payment.CreditCardToken') : null;
    const tokenCard = tokenAuth?.card ?? null;
    // Without card details, or with 3-D Secure asked for (the .NET SDK names it 3DSecure), the payer enters the card on the hosted form.
    const payerEntersCard = (input.Card === undefined && tokenCard === null) || input.ThreeDSecureCheck === true || input['3DSecure'] === true;
    // The card of the request, kept as a card authentication's token when one is asked for.
    const made = input.Card && input.GenerateCreditCardToken === true ? tokenFor(ctx, site, input.Card, input) : null;
    const creditCardToken = tokenAuth?.token ?? made;
    // The fraud check runs before the authorization, once the card is known.
    const checked = payerEntersCard ? { state: cardCreated(amount, capture, true), fraudReason: null } : fraudChecked(input.Customer?.Email, cardCreated(amount, capture, false));
    const state = checked.state;
    const now = ctx.clock.now();
    const record: Omit<PaymentRecord, 'id'> = {
      surface: 'card',
      ownerSiteId: site.siteId,
      siteId: site.siteId,
      merchantTransactionId: input.MerchantTransactionID,
      originatorTransactionId: input.OriginatorTransactionID ?? null,
      amount,
      currency: input.Currency,
      capturedAmount: state.capturedAmount,
      returnUrl: input.ReturnURL ?? null,
      description: input.Description ?? null,
      statementDescriptor: input.StatementDescriptor ?? null,
      methodId: CARD_METHOD_ID,
      methodOptionId: input.MethodOptionID ?? null,
      skinId: input.SkinID ?? null,
      clientIp: input.ClientIP ?? null,
      tokenLifetime: input.PaymentTokenLifetime ?? null,
      token: payerEntersCard ? ctx.ids.token() : null,
      statusId: state.status,
      createdAt: now,
      notificationAt: null,
      country: (input.BillingAddress?.Country as string | undefined) ?? null,
      customer: input.Customer ? completeCustomer(input.Customer, ctx.store.counters.next('customer')) : null,
      billingAddress: input.BillingAddress ? completeAddress(input.BillingAddress, ctx.store.counters.next('address')) : null,
      shippingAddress: input.ShippingAddress ? completeAddress(input.ShippingAddress, ctx.store.counters.next('address')) : null,
      // A card payment has no Details on the wire: its credit card token is kept there.
      details: creditCardToken === null ? null : { CreditCardToken: creditCardToken },
      card: tokenCard
        ? { HolderName: tokenCard.HolderName, Number: tokenCard.Number, ExpirationMonth: tokenCard.ExpirationMonth, ExpirationYear: tokenCard.ExpirationYear }
        : input.Card
        ? {
            HolderName: input.Card.HolderName,
            Number: maskCardNumber(input.Card.Number),
            ExpirationMonth: input.Card.ExpirationMonth,
            ExpirationYear: input.Card.ExpirationYear,
          }
        : null,
      capture,
      retry: input.Retry ?? false,
      hasSplits: splits.length > 0,
      scenario: null,
      fraudReason: checked.fraudReason,
    };
    const id = ctx.store.payments.insert(record);
    const view: PaymentView = {
      payment: { id, ...record },
      splits: insertSplits(ctx, id, splits, state.status, now),
    };
    // Creation is not a notified change: the merchant has the response.
    recordPaymentStatus(ctx, view, 'created', false);
    scheduleCardOutcome(ctx, id, state);
    return view;
  });
}

/** A credit card token for a payment's card, as a card authentication of it would make (its expiry is not checked: the payment went through). */
function tokenFor(ctx: ServiceContext, site: SiteRecord, card: NonNullable<CardInput['Card']>, input: CardInput): string {
  const auth = ctx.store.cardAuths.insert({
    siteId: site.siteId,
    token: ctx.ids.token(),
    customer: input.Customer ? completeCustomer(input.Customer, 0) : null,
    billingAddress: input.BillingAddress ? completeAddress(input.BillingAddress, 0) : null,
    card: { HolderName: card.HolderName, Number: maskCardNumber(card.Number), ExpirationMonth: card.ExpirationMonth, ExpirationYear: card.ExpirationYear, IssuingBankCountry: null },
    createdAt: ctx.clock.now(),
  });
  return auth.token;
}

export function getCardPayment(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentView {
  return loadPayment(ctx, site, rawId, 'card');
}
