// The wire format of the card address's other objects: captures, card refunds, card payouts, card
// authentications and disputes. Every key present, nulls where empty, 14-digit UTC timestamps.
import { disputeStatusInfo } from '../domain/card-objects.machine';
import { formatAmount } from '../domain/money';
import { statusInfo } from '../domain/statuses';
import { formatTimestamp } from '../domain/time';
import type { CaptureRecord, CardAuthRecord, DisputeRecord, PayoutRecord, RefundRecord } from '../store/records';
import { refundToWire } from './serializers';

const cardStatus = (id: number, reasons: { Code: number; Info: string }[] = []) => ({ ID: id, Info: statusInfo(id), Reasons: reasons });

/**
 * A capture, as the card host's capture reads show it (docs "Get a list of Captures of a specific card
 * payment"): Amount a JSON number, Reasons an empty array.
 */
export function captureToWire(c: CaptureRecord) {
  return {
    ID: c.id,
    SiteID: c.siteId,
    Created: formatTimestamp(c.createdAt),
    MerchantTransactionID: c.merchantTransactionId,
    OriginatorTransactionID: c.originatorTransactionId,
    PaymentID: c.paymentId,
    Amount: Number(c.amount),
    Currency: c.currency,
    Status: cardStatus(c.statusId),
  };
}

/** A refund on the card address: the refund with the capture it was taken from (the PHP SDK's Card_Refund_Response). */
export function cardRefundToWire(r: RefundRecord) {
  return { ...refundToWire(r), CaptureID: r.captureId ?? null };
}

/** A card payout (docs "Create a payout" on the card host): Amount a digit string, Reasons an array. */
export function payoutToWire(p: PayoutRecord) {
  return {
    ID: p.id,
    SiteID: p.siteId,
    Created: formatTimestamp(p.createdAt),
    MerchantTransactionID: p.merchantTransactionId,
    OriginatorTransactionID: p.originatorTransactionId,
    Amount: formatAmount(p.amount),
    Currency: p.currency,
    Description: p.description,
    StatementDescriptor: p.statementDescriptor,
    Customer: p.customer,
    BillingAddress: p.billingAddress,
    Status: cardStatus(p.statusId, p.reasons),
  };
}

/**
 * A card payout's notification, key for key as SDK-NET's PayoutNotificationTests shows one: Amount a
 * JSON number, Reasons an array, and no Customer, BillingAddress or OriginatorTransactionID.
 */
export function payoutNotificationToWire(p: PayoutRecord) {
  return {
    ID: p.id,
    SiteID: p.siteId,
    Created: formatTimestamp(p.createdAt),
    MerchantTransactionID: p.merchantTransactionId,
    Amount: Number(p.amount),
    Currency: p.currency,
    Description: p.description,
    StatementDescriptor: p.statementDescriptor,
    Status: cardStatus(p.statusId, p.reasons),
  };
}

/** A payout's status read: what SDK-NET's CardPayoutStatusResponse holds. */
export function payoutStatusToWire(p: PayoutRecord) {
  return { ID: p.id, MerchantTransactionID: p.merchantTransactionId, Status: cardStatus(p.statusId, p.reasons) };
}

/** Fidelity: the card host writes a token's `Active` as a string ("true" / "false"). */
const tokenToWire = (a: CardAuthRecord) => ({ Value: a.token, Active: a.active ? 'true' : 'false' });

/** The answer to `POST /v1/card/authenticate` (docs "Generate a Credit Card Token"). */
export function cardAuthToWire(a: CardAuthRecord) {
  return {
    Customer: a.customer,
    BillingAddress: a.billingAddress,
    Card: a.card,
    CreditCardToken: tokenToWire(a),
    Status: cardStatus(a.active ? 2 : 3),
  };
}

/** `GET /v1/card/token/{value}` (docs "Get information on a specific card token"): the card and the token only. */
export function cardTokenToWire(a: CardAuthRecord) {
  return { Card: a.card, CreditCardToken: tokenToWire(a) };
}

/** Fidelity: a cancelled token's answer says "Canceled" (one l), as the card host's documentation shows it. */
export function cardTokenCancelledToWire(a: CardAuthRecord) {
  return { ...cardTokenToWire(a), Status: { ID: 3, Info: 'Canceled', Reasons: [] } };
}

/** A dispute, as its notification carries it (SDK-NET DisputeNotificationTests; the PHP SDK's Dispute_Notification). */
export function disputeToWire(d: DisputeRecord, methodId: number | null) {
  return {
    ID: d.id,
    SiteID: d.siteId,
    Created: formatTimestamp(d.createdAt),
    PaymentID: d.paymentId,
    MethodID: methodId,
    Amount: formatAmount(d.amount),
    Currency: d.currency,
    Status: { ID: d.statusId, Info: disputeStatusInfo(d.statusId), Reasons: null },
  };
}
