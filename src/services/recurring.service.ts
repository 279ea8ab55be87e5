// `POST /v1/payments/recurrent` (SDK-PHP payment_recurrent): a payment charged under an Open
// preapproval, without the payer. As the .NET SDK's integration test against the real test host
// shows it, the answer is 201 with the payment already Success and its PreapprovalID.
import { canChargeRecurring } from '../domain/preapproval.machine';
import { parseAmount } from '../domain/money';
import { Status } from '../domain/statuses';
import { Rejection } from '../errors/errors';
import { type Reason, reason } from '../errors/reasons';
import { recurrentPaymentRequest } from '../schemas/requests';
import { validateRequest } from '../schemas/validator';
import type { Json, PaymentRecord, SiteRecord } from '../store/records';
import { type PaymentView, completeAddress, completeCustomer } from '../wire/serializers';
import { recordPaymentStatus } from './changes';
import type { ServiceContext } from './context';
import { type SplitInput, checkSplits, insertSplits } from './splits.input';

interface RecurrentInput {
  PreapprovalID: number;
  MerchantTransactionID: string;
  OriginatorTransactionID?: string | null;
  Amount: number | string;
  Currency: string;
  MethodID?: number | null;
  MethodOptionID?: number | null;
  ReturnURL?: string | null;
  Description?: string | null;
  Customer?: Json | null;
  BillingAddress?: Json | null;
  Splits?: SplitInput[];
  Capture?: boolean | null;
}

export function createRecurringPayment(ctx: ServiceContext, site: SiteRecord, body: unknown): PaymentView {
  const schemaReasons = validateRequest(recurrentPaymentRequest, body, ctx.settings.strictFields === true);
  if (schemaReasons.length > 0) throw new Rejection(schemaReasons);
  const input = (body as { Payment: RecurrentInput }).Payment;
  const amount = parseAmount(input.Amount)!;
  const splits = input.Splits ?? [];
  const reasons: Reason[] = [];
  const pre = ctx.store.preapprovals.get(input.PreapprovalID, site.siteId);
  if (!pre) {
    reasons.push(reason(12, `Preapproval is invalid: Payment.PreapprovalID ${input.PreapprovalID} names no preapproval of site ${site.siteId}`));
  } else {
    const d = canChargeRecurring(pre.statusId, pre.preapprovedMaximumAmount, amount);
    if (!d.ok) reasons.push(reason(d.code as 12 | 13, d.info));
    if (input.MethodID && input.MethodID !== pre.methodId) {
      reasons.push(reason(5, `Payment.MethodID is invalid: preapproval ${pre.id} was approved for method ${pre.methodId}`));
    }
    if (pre.currency !== null && pre.currency !== input.Currency) {
      reasons.push(reason(100, `Payment.Currency is invalid: preapproval ${pre.id} is in ${pre.currency}`));
    }
  }
  if (splits.length > 0) reasons.push(...checkSplits(ctx, site, splits, amount, 0n, 'Payment.Splits'));
  if (reasons.length > 0 || !pre) throw new Rejection(reasons);

  return ctx.store.tx(() => {
    if (ctx.store.payments.merchantTransactionIdTaken(site.siteId, 'api', input.MerchantTransactionID)) {
      throw new Rejection([reason(20, `Payment.MerchantTransactionID is duplicated: ${input.MerchantTransactionID} was used before on site ${site.siteId}`)]);
    }
    const now = ctx.clock.now();
    const record: Omit<PaymentRecord, 'id'> = {
      surface: 'api',
      ownerSiteId: site.siteId,
      siteId: splits[0]?.SiteID ?? site.siteId,
      merchantTransactionId: input.MerchantTransactionID,
      originatorTransactionId: input.OriginatorTransactionID ?? null,
      amount,
      currency: input.Currency,
      capturedAmount: null,
      returnUrl: input.ReturnURL ? input.ReturnURL : null,
      description: input.Description ?? null,
      statementDescriptor: null,
      methodId: pre.methodId,
      methodOptionId: input.MethodOptionID ? input.MethodOptionID : pre.methodOptionId,
      skinId: null,
      clientIp: null,
      tokenLifetime: null,
      // No payer page: nobody is there to pay.
      token: null,
      statusId: Status.Success,
      createdAt: now,
      notificationAt: null,
      country: (input.BillingAddress?.Country as string | undefined) ?? null,
      customer: input.Customer ? completeCustomer(input.Customer, ctx.store.counters.next('customer')) : null,
      billingAddress: completeAddress(input.BillingAddress ?? null),
      shippingAddress: null,
      details: null,
      card: null,
      capture: input.Capture === true ? true : null,
      retry: null,
      hasSplits: splits.length > 0,
      scenario: null,
      preapprovalId: pre.id,
    };
    const id = ctx.store.payments.insert(record);
    const view: PaymentView = { payment: { id, ...record }, splits: insertSplits(ctx, id, splits, Status.Success, now) };
    // Made in its final status: not notified of it, the merchant has the answer.
    recordPaymentStatus(ctx, view, 'recurring payment under preapproval ' + pre.id, false);
    return view;
  });
}
