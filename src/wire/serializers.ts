// The wire format: the only place where payment, split, refund and list JSON is made.
// Every key present, nulls where empty, amounts as digit strings, 14-digit UTC timestamps.
import { referenceDetailsOf } from '../domain/reference-details';
import { formatAmount } from '../domain/money';
import { QUEUED_FOR_CAPTURING_REASON } from '../domain/card.machine';
import { Status, statusInfo } from '../domain/statuses';
import { formatTimestamp } from '../domain/time';
import type { Json, PaymentRecord, RefundRecord, SplitRecord } from '../store/records';

export interface PaymentView {
  payment: PaymentRecord;
  splits: SplitRecord[];
}

export interface WireOptions {
  /** The API address, for RedirectURL. */
  baseUrl: string;
  /** The card API address, for a card payment's RedirectURL (the hosted card form); the API address when absent. */
  cardBaseUrl?: string;
}

const status = (id: number) => ({ ID: id, Info: statusInfo(id), Reasons: null });
const ts = (ms: number | null) => (ms === null ? null : formatTimestamp(ms));

const CUSTOMER_KEYS = [
  'MerchantCustomerID',
  'Email',
  'FirstName',
  'LastName',
  'Gender',
  'SocialSecurityNumber',
  'Phone',
  'Company',
  'DateOfBirth',
] as const;
/** Every member of an article (SDK-NET's Article), echoed as sent: figures stay strings or numbers as they came. */
export const ARTICLE_KEYS = ['MerchantArticleID', 'Name', 'Quantity', 'Price', 'VAT', 'Discount', 'Type', 'DiscountValue', 'TaxType'] as const;
/** Every member of a payment's preapproval terms (SDK-NET's PreapprovalDetails). */
export const PREAPPROVAL_DETAILS_KEYS = ['PreapprovedMaximumAmount', 'MerchantPreapprovalID', 'Frequency', 'PreapprovalDescription'] as const;
const ADDRESS_KEYS = ['City', 'ZipCode', 'State', 'Street', 'StreetNumber', 'HouseNumber', 'HouseExtension', 'Country'] as const;

/** A stored customer or address with every key present; `ID` first where it has one. */
export function completeObject(input: Json | null, keys: readonly string[], id?: number): Json | null {
  if (input === null) return null;
  const out: Json = id === undefined ? {} : { ID: id };
  for (const k of keys) out[k] = input[k] ?? null;
  return out;
}
export const completeCustomer = (c: Json | null, id: number) => completeObject(c, CUSTOMER_KEYS, id);
export const completeAddress = (a: Json | null, id?: number) => completeObject(a, ADDRESS_KEYS, id);

/** The articles a request sent, each with every key; null when none were sent. */
export function articlesToWire(articles: Json[] | null | undefined): Json[] | null {
  return articles == null ? null : articles.map((a) => completeObject(a, ARTICLE_KEYS)!);
}

/** Fidelity: the RedirectURL format of the real hosted page, `/Home?PaymentToken=<32 hex>.<ID>`. */
export function redirectUrl(baseUrl: string, p: PaymentRecord): string | null {
  return p.token === null ? null : `${baseUrl}/Home?PaymentToken=${p.token}.${p.id}`;
}

export function splitToWire(s: SplitRecord, currency: string) {
  return {
    ID: s.id,
    PaymentID: s.paymentId,
    SiteID: s.siteId,
    MerchantTransactionID: s.merchantTransactionId,
    OriginatorTransactionID: s.originatorTransactionId,
    Created: formatTimestamp(s.createdAt),
    Amount: formatAmount(s.amount),
    Currency: currency,
    // Fidelity: "" (not null) when nothing was captured on the split itself (spec 2.2).
    CapturedAmount: s.capturedAmount === null ? '' : formatAmount(s.capturedAmount),
    StateDetails: status(s.statusId),
  };
}

function paymentFields(p: PaymentRecord, reduced: boolean) {
  return {
    ID: p.id,
    SkinID: p.skinId,
    ClientIP: p.clientIp,
    Created: formatTimestamp(p.createdAt),
    MerchantTransactionID: p.merchantTransactionId,
    OriginatorTransactionID: p.originatorTransactionId,
    Amount: formatAmount(p.amount),
    Currency: p.currency,
    CapturedAmount: p.capturedAmount === null ? null : formatAmount(p.capturedAmount),
    ReturnURL: p.returnUrl,
    Description: p.description,
    MethodID: p.methodId,
    MethodOptionID: p.methodOptionId,
    IncludeMethodIDs: null,
    ExcludeMethodIDs: null,
    PrioritizeMethodIDs: null,
    SiteID: p.siteId,
    NotificationDateTime: ts(p.notificationAt),
    // List items carry reduced detail, as the real list does.
    Customer: reduced ? null : p.customer,
    BillingAddress: reduced ? null : p.billingAddress,
    ShippingAddress: reduced ? null : p.shippingAddress,
    // Fidelity: list items show no basket (spec 2.8); the payment shows the one its create sent.
    Articles: reduced ? null : articlesToWire(p.articles),
    Details: reduced ? null : p.details,
    ReferenceDetails: reduced ? null : referenceDetailsOf(p.methodId, p.id, referenceNumberOf(p)),
    CustomParameters: null,
    PreapprovalID: p.preapprovalId ?? null,
    Status: status(p.statusId),
  };
}

/** The ReferenceNumber the create sent in Details, if any. */
function referenceNumberOf(p: PaymentRecord): string | null {
  const n = (p.details as { ReferenceNumber?: unknown } | null)?.ReferenceNumber;
  return typeof n === 'string' ? n : null;
}

type PaymentTail = {
  MethodTransactionID: null;
  TokenLifetime: number | null;
  Capture: boolean | null;
  PreapprovalDetails: Json | null;
  RedirectURL: string | null;
};

/**
 * Adds the last keys to `body` in place: spreading the fields into a new object instead took ten
 * times as long as making them (some 20 µs a payment, twice per payment created under load).
 */
function withTail<T extends object>(body: T, p: PaymentRecord, o: WireOptions): T & PaymentTail {
  const b = body as T & PaymentTail;
  b.MethodTransactionID = null;
  b.TokenLifetime = p.tokenLifetime;
  b.Capture = p.capture;
  b.PreapprovalDetails = completeObject(p.preapprovalDetails ?? null, PREAPPROVAL_DETAILS_KEYS);
  b.RedirectURL = redirectUrl(o.baseUrl, p);
  return b;
}

/** A payment (spec 2.1). `splits` overrides which splits are shown (the one-split capture shows one). */
export function paymentToWire(view: PaymentView, o: WireOptions, splits: SplitRecord[] = view.splits) {
  const p = view.payment;
  const body: Record<string, unknown> = paymentFields(p, false);
  body.Fraud = null;
  withTail(body, p, o);
  if (p.hasSplits) body.Splits = splits.map((s) => splitToWire(s, p.currency));
  return body;
}

/** A list item (spec 2.8): the payment without Fraud and Splits. */
export function listItemToWire(p: PaymentRecord, o: WireOptions) {
  return withTail(paymentFields(p, true), p, o);
}

/** A refund (2.7). Fidelity: a refund of a whole payment shows `"SplitID": 0`, as the real refund read does. */
export function refundToWire(r: RefundRecord) {
  return {
    ID: r.id,
    Created: formatTimestamp(r.createdAt),
    MerchantTransactionID: r.merchantTransactionId,
    OriginatorTransactionID: r.originatorTransactionId,
    InitialPaymentID: r.paymentId,
    Amount: formatAmount(r.amount),
    Currency: r.currency,
    Description: r.description,
    TypeID: r.typeId,
    SiteID: r.siteId,
    Details: null,
    Customer: null,
    BillingAddress: null,
    BankAddress: null,
    Articles: articlesToWire(r.articles),
    Status: status(r.statusId),
    SplitID: r.splitId ?? 0,
  };
}

/**
 * A refund's status read (`GET /v1/payments/{id}/refunds/{refundId}/status`). Fidelity: SDK-NET's
 * CardRefundStatusResponse reads these four keys, the status as `StateDetails`, not `Status`.
 */
export function refundStatusToWire(r: RefundRecord, reasons: null | [] = null) {
  return { ID: r.id, InitialPaymentID: r.paymentId, MerchantTransactionID: r.merchantTransactionId, StateDetails: { ...status(r.statusId), Reasons: reasons } };
}

/** Fidelity: the hosted card form's address, as the real card host's `/v1/Payments/FillCardDetails?PaymentToken=…`. */
export function cardFormUrl(o: WireOptions, p: PaymentRecord): string | null {
  return p.token === null ? null : `${o.cardBaseUrl ?? o.baseUrl}${CARD_FORM_PATH}?PaymentToken=${p.token}.${p.id}`;
}

export const CARD_FORM_PATH = '/v1/Payments/FillCardDetails';

/** The credit card token a card payment was paid with or made for its card, kept in its Details (card payments show none). */
function creditCardTokenOf(p: PaymentRecord): { Value: string } | null {
  const token = (p.details as { CreditCardToken?: unknown } | null)?.CreditCardToken;
  return typeof token === 'string' ? { Value: token } : null;
}

/**
 * A card payment (spec 2.9). Fidelity: CapturedAmount is a JSON number here, and Reasons an empty
 * array, except that QueuedForCapturing carries the card host's return code 5288. `splits` are shown
 * for a payment made with splits (not in list items).
 */
export function cardPaymentToWire(p: PaymentRecord, o: WireOptions, splits?: SplitRecord[]) {
  const body: Record<string, unknown> = {
    ID: p.id,
    ClientIP: p.clientIp,
    SkinID: p.skinId,
    Created: formatTimestamp(p.createdAt),
    MerchantTransactionID: p.merchantTransactionId,
    OriginatorTransactionID: p.originatorTransactionId,
    Amount: formatAmount(p.amount),
    Currency: p.currency,
    CapturedAmount: Number(p.capturedAmount ?? 0n),
    ReturnURL: p.returnUrl,
    Description: p.description,
    StatementDescriptor: p.statementDescriptor,
    MethodID: p.methodId ?? 6,
    MethodOptionID: p.methodOptionId,
    SiteID: p.siteId,
    NotificationDateTime: ts(p.notificationAt),
    Customer: p.customer,
    BillingAddress: p.billingAddress,
    ShippingAddress: p.shippingAddress,
    Articles: null,
    Card: p.card,
    CreditCardToken: creditCardTokenOf(p),
    Status: {
      ID: p.statusId,
      Info: statusInfo(p.statusId),
      Reasons: p.statusId === Status.QueuedForCapturing ? [{ ...QUEUED_FOR_CAPTURING_REASON }] : [],
    },
    MethodTransactionID: null,
    PaymentTokenLifetime: p.tokenLifetime,
    Capture: p.capture,
    Retry: p.retry,
    RedirectURL: cardFormUrl(o, p),
    '3DSecure': null,
    Fraud: cardFraudToWire(p),
  };
  if (splits && p.hasSplits) body.Splits = splits.map((s) => splitToWire(s, p.currency));
  return body;
}

/**
 * Fidelity: a card payment the fraud check challenged shows the check's verdict as the .NET SDK's
 * challenge tests read it (CardFraudDetailsResponse): Status "Challenge", CheckMode
 * "CheckOnPreAuthorisation", a Score above 0 and a Reason; null for one never challenged.
 */
export function cardFraudToWire(p: PaymentRecord) {
  if (!p.fraudReason) return null;
  return { Status: 'Challenge', CheckMode: 'CheckOnPreAuthorisation', Score: FRAUD_CHALLENGE_SCORE, Reason: p.fraudReason };
}

/** The score a challenge shows: the sandbox's check has one verdict, so one score. */
export const FRAUD_CHALLENGE_SCORE = 75;

export interface ListPage<T> {
  items: T[];
  total: number;
  pageIndex: number;
  pageSize: number;
}

/** The list envelope (spec 2.10). */
export function listToWire<T>(page: ListPage<T>) {
  return {
    Payments: page.items,
    Count: page.items.length,
    TotalPages: Math.ceil(page.total / page.pageSize),
    TotalCount: page.total,
    PageIndex: page.pageIndex,
    PageSize: page.pageSize,
  };
}
