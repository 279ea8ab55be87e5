// Creating, reading and listing payments on the API address.
import { CAUSE } from '../domain/causes';
import { parseAmount } from '../domain/money';
import { Status } from '../domain/statuses';
import { Rejection } from '../errors/errors';
import { type Reason, reason } from '../errors/reasons';
import { createPaymentRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { Json, PaymentRecord, SiteRecord } from '../store/records';
import { type PaymentView, completeAddress, completeCustomer, completeObject } from '../wire/serializers';
import { DETAILS_KEYS } from '../schemas/details';
import { recordPaymentStatus } from './changes';
import type { ServiceContext } from './context';
import { unavailableMethod } from './methods.service';
import { type SplitInput, checkSplits, insertSplits } from './splits.input';
import { applyEventTo } from './events.service';
import { authorizedAtCreate, chooseScenario, trigger } from './triggers.service';

interface PaymentInput {
  MerchantTransactionID: string;
  OriginatorTransactionID?: string | null;
  Amount: number | string;
  Currency: string;
  MethodID?: number | null;
  MethodOptionID?: number | null;
  SkinID?: number | null;
  ClientIP?: string | null;
  ReturnURL: string;
  Description?: string | null;
  TokenLifetime?: number | null;
  Customer?: Json | null;
  BillingAddress?: Json | null;
  ShippingAddress?: Json | null;
  Splits?: SplitInput[];
  PreapprovalID?: number | null;
  Capture?: boolean | null;
  Details?: Json | null;
  Articles?: Json[] | null;
  PreapprovalDetails?: Json | null;
}

/** Options a create request carries besides its body (the scenario header, later). */
export interface CreateOptions {
  scenario?: string | null;
}

export function createPayment(ctx: ServiceContext, site: SiteRecord, body: unknown, opts: CreateOptions = {}): PaymentView {
  const schemaReasons = validateRequest(createPaymentRequest, body, ctx.settings.strictFields === true);
  if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
  const input = (body as { Payment: PaymentInput }).Payment;
  const amount = parseAmount(input.Amount)!;
  const splits = input.Splits ?? [];

  const reasons: Reason[] = [];
  // Fidelity: the official PHP SDK sends MethodID 0 when none is set: 0 means none chosen.
  const methodId = input.MethodID ? input.MethodID : null;
  if (input.PreapprovalID) {
    reasons.push(reason(11, 'Action is invalid: a payment under a preapproval is made with POST /v1/payments/recurrent'));
  }
  if (splits.length > 0 && methodId === null) reasons.push(reason(1, 'Payment.MethodID is missing'));
  if (methodId !== null) {
    const method = ctx.store.methods.get(methodId);
    if (!method || method.flow === 'card') {
      reasons.push(reason(5, `Payment.MethodID is invalid: ${methodId} is not a method of this address`));
    } else {
      const unavailable = unavailableMethod(site, methodId, 'Payment.MethodID');
      if (unavailable) reasons.push(unavailable);
    }
  }
  if (splits.length > 0) reasons.push(...checkSplits(ctx, site, splits, amount, 0n, 'Payment.Splits'));
  if (reasons.length > 0) throw new Rejection(reasons);
  const method = methodId === null ? undefined : ctx.store.methods.get(methodId);
  const scenario = chooseScenario(ctx, site, opts.scenario, amount, method?.flow ?? null);

  // Every refusal is found before the first write (txChecked): the writes need no savepoint of their own.
  const refuseDuplicate = () => {
    if (ctx.store.payments.merchantTransactionIdTaken(site.siteId, 'api', input.MerchantTransactionID)) {
      reasons.push(reason(20, `Payment.MerchantTransactionID is duplicated: ${input.MerchantTransactionID} was used before on site ${site.siteId}`));
    }
    if (reasons.length > 0) throw new Rejection(reasons);
  };
  return ctx.store.txChecked(refuseDuplicate, () => {
    const now = ctx.clock.now();
    const addressId = (a: Json | null | undefined) => (a && splits.length === 0 ? ctx.store.counters.next('address') : undefined);
    const customer = input.Customer ? completeCustomer(input.Customer, ctx.store.counters.next('customer')) : null;
    const record: Omit<PaymentRecord, 'id'> = {
      surface: 'api',
      ownerSiteId: site.siteId,
      // Fidelity: the real service shows the first split's site as the payment's SiteID.
      siteId: splits[0]?.SiteID ?? site.siteId,
      merchantTransactionId: input.MerchantTransactionID,
      originatorTransactionId: input.OriginatorTransactionID ?? null,
      amount,
      currency: input.Currency,
      capturedAmount: null,
      returnUrl: input.ReturnURL,
      description: input.Description ?? null,
      statementDescriptor: null,
      methodId,
      methodOptionId: input.MethodOptionID ?? null,
      skinId: input.SkinID ?? null,
      clientIp: input.ClientIP ?? null,
      tokenLifetime: input.TokenLifetime ?? null,
      token: ctx.ids.token(),
      statusId: Status.Open,
      createdAt: now,
      notificationAt: null,
      country: (input.BillingAddress?.Country as string | undefined) ?? null,
      customer,
      // Fidelity: the real host numbers the addresses of a payment without splits, as the card address
      // does (SDK-NET's GetPaymentDetails compares BillingAddress.ID); a split payment's are shown as the spec shows them.
      billingAddress: completeAddress(input.BillingAddress ?? null, addressId(input.BillingAddress)),
      shippingAddress: completeAddress(input.ShippingAddress ?? null, addressId(input.ShippingAddress)),
      // Echoed as sent, completed to the Details of a payment (2.6); null when none was sent.
      details: input.Details ? completeObject(input.Details, DETAILS_KEYS) : null,
      articles: input.Articles ?? null,
      preapprovalDetails: input.PreapprovalDetails ?? null,
      card: null,
      // true: captured as soon as it is authorized (events.service); null: the merchant captures.
      capture: input.Capture === true ? true : null,
      retry: null,
      hasSplits: splits.length > 0,
      scenario,
    };
    const id = ctx.store.payments.insert(record);
    // The view is built from what was written (the store adds only the IDs): no read back.
    const view: PaymentView = {
      payment: { id, ...record },
      splits: insertSplits(ctx, id, splits, Status.Open, now),
    };
    // Creation is not a notified change: the merchant has the response.
    recordPaymentStatus(ctx, view, 'created', false);
    trigger(ctx, view.payment, { kind: 'created' });
    // The answer shows the payment as created (Open, as every create); a read right after shows it
    // Authorized, and the merchant is notified of that as of any authorization.
    if (authorizedAtCreate(method?.flow ?? null, scenario)) applyEventTo(ctx, view, 'authorize', { cause: CAUSE.authorizedAtCreate });
    return view;
  });
}
