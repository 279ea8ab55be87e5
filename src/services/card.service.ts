// Card payments on the card address: created authorized or captured at once, as the card API does.
import { parseAmount } from '../domain/money';
import { Status } from '../domain/statuses';
import { Rejection } from '../errors/errors';
import { reason } from '../errors/reasons';
import { createCardPaymentRequest } from '../schemas/requests';
import { validate } from '../schemas/validator';
import type { Json, PaymentRecord, SiteRecord } from '../store/records';
import { completeAddress, completeCustomer } from '../wire/serializers';
import { recordPaymentStatus } from './changes';
import type { ServiceContext } from './context';
import { loadPayment, reload } from './lookup';

export const CARD_METHOD_ID = 6;

/** Fidelity: the card test host fails amount 10001 (minor units); every other amount succeeds. */
export const CARD_FAILING_AMOUNT = 10001n;

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
  Card: { HolderName: string; Number: string; ExpirationMonth: string; ExpirationYear: string };
  Capture?: boolean | null;
  Retry?: boolean | null;
  PaymentTokenLifetime?: number | null;
}

/** Card numbers are never stored or shown in full: brand and last four digits ("VISA-1111"). */
export function maskCardNumber(number: string): string {
  const brand = /^4/.test(number)
    ? 'VISA'
    : /^(5[1-5]|2[2-7])/.test(number)
      ? 'MASTERCARD'
      : /^3[47]/.test(number)
        ? 'AMEX'
        : /^(6011|65)/.test(number)
          ? 'DISCOVER'
          : 'CARD';
  return `${brand}-${number.slice(-4)}`;
}

export function createCardPayment(ctx: ServiceContext, site: SiteRecord, body: unknown): PaymentRecord {
  const schemaReasons = validate(createCardPaymentRequest, body);
  if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
  const input = (body as { Payment: CardInput }).Payment;
  const amount = parseAmount(input.Amount)!;
  return ctx.store.tx(() => {
    if (ctx.store.payments.merchantTransactionIdTaken(site.siteId, 'card', input.MerchantTransactionID)) {
      throw new Rejection([reason(20, `Payment.MerchantTransactionID is duplicated: ${input.MerchantTransactionID} was used before on site ${site.siteId}`)]);
    }
    const capture = input.Capture ?? true;
    const status = amount === CARD_FAILING_AMOUNT ? Status.Failed : capture ? Status.Captured : Status.Authorized;
    const now = ctx.clock.now();
    const id = ctx.store.payments.insert({
      surface: 'card',
      ownerSiteId: site.siteId,
      siteId: site.siteId,
      merchantTransactionId: input.MerchantTransactionID,
      originatorTransactionId: input.OriginatorTransactionID ?? null,
      amount,
      currency: input.Currency,
      capturedAmount: status === Status.Captured ? amount : null,
      returnUrl: input.ReturnURL ?? null,
      description: input.Description ?? null,
      statementDescriptor: input.StatementDescriptor ?? null,
      methodId: CARD_METHOD_ID,
      methodOptionId: input.MethodOptionID ?? null,
      skinId: input.SkinID ?? null,
      clientIp: input.ClientIP ?? null,
      tokenLifetime: input.PaymentTokenLifetime ?? null,
      token: null,
      statusId: status,
      createdAt: now,
      notificationAt: null,
      country: (input.BillingAddress?.Country as string | undefined) ?? null,
      customer: input.Customer ? completeCustomer(input.Customer, ctx.store.counters.next('customer')) : null,
      billingAddress: input.BillingAddress ? completeAddress(input.BillingAddress, ctx.store.counters.next('address')) : null,
      shippingAddress: input.ShippingAddress ? completeAddress(input.ShippingAddress, ctx.store.counters.next('address')) : null,
      details: null,
      card: {
        HolderName: input.Card.HolderName,
        Number: maskCardNumber(input.Card.Number),
        ExpirationMonth: input.Card.ExpirationMonth,
        ExpirationYear: input.Card.ExpirationYear,
      },
      capture,
      retry: input.Retry ?? false,
      hasSplits: false,
      scenario: null,
    });
    const view = reload(ctx, id);
    recordPaymentStatus(ctx, view, 'created', false);
    return view.payment;
  });
}

export function getCardPayment(ctx: ServiceContext, site: SiteRecord, rawId: string): PaymentRecord {
  return loadPayment(ctx, site, rawId, 'card').payment;
}
