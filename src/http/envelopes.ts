// The error bodies of the real service, one per kind of resource a route answers with.
import { maskCardNumber } from '../domain/card-data';
import { PreapprovalRejection, Rejection } from '../errors/errors';
import { PREAPPROVAL_KEYS, preapprovalToWire } from '../wire/preapprovals';
import { unmark } from '../schemas/json-body';
import { type WireOptions, cardPaymentToWire, paymentToWire } from '../wire/serializers';

export type Envelope = 'payment' | 'card-payment' | 'splits' | 'refund' | 'preapproval' | 'list' | 'message' | 'payout' | 'card-authentication' | 'merchant-site';

/**
 * Each resource's keys, read from its response schema on the first refusal that needs them: a start
 * answers without loading the response schemas.
 */
function keysOf(resource: 'payment' | 'card' | 'refund' | 'payout' | 'cardAuth'): readonly string[] {
  if (keys === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const r = require('../schemas/responses') as typeof import('../schemas/responses');
    keys = {
      payment: r.PAYMENT_KEYS,
      card: Object.keys(r.cardPaymentOut.properties as object),
      refund: Object.keys(r.refundOut.properties as object),
      payout: Object.keys(r.payoutOut.properties as object),
      cardAuth: Object.keys(r.cardAuthenticationOut.properties as object),
    };
  }
  return keys[resource];
}
let keys: Record<Parameters<typeof keysOf>[0], readonly string[]> | undefined;

/** Every key of the resource null, the request's own fields echoed, ID null. */
function shell(keys: readonly string[], sent: unknown, invalidRequestId: string, reasons: Rejection['reasons']) {
  const echo = sent !== null && typeof sent === 'object' && !Array.isArray(sent) ? (unmark(sent) as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ID: null, InvalidRequestID: invalidRequestId };
  for (const k of keys) {
    if (k === 'ID' || k === 'Status') continue;
    out[k] = k in echo ? echo[k] : null;
  }
  out.Status = { ID: null, Info: null, Reasons: reasons };
  return out;
}

function field(body: unknown, key: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
}

/** The route's `{id}` as a number (0 when it is none): the payment a refused refund names. */
function pathId(raw: string | undefined): number {
  return raw !== undefined && /^[0-9]{1,10}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : 0;
}

/**
 * The 400 body of a rejection, in the envelope of the route's resource. `routeId` is the route's `{id}`
 * (the payment of a refund route).
 */
export function rejectionBody(kind: Envelope, r: Rejection, body: unknown, invalidRequestId: string, wire: WireOptions, routeId?: string): unknown {
  switch (kind) {
    case 'payment': {
      if (r.stored) {
        const stored = paymentToWire(r.stored, wire);
        const { ID, Status: status, ...rest } = stored as { ID: number; Status: { ID: number; Info: string } } & Record<string, unknown>;
        return { Payment: { ID, InvalidRequestID: invalidRequestId, ...rest, Status: { ID: status.ID, Info: status.Info, Reasons: r.reasons } } };
      }
      return { Payment: shell(keysOf('payment'), field(body, 'Payment'), invalidRequestId, r.reasons) };
    }
    case 'card-payment': {
      if (r.stored) {
        // An action refused on a stored card payment echoes it, with its real ID and status.
        const { ID, Status: status, ...rest } = cardPaymentToWire(r.stored.payment, wire, r.stored.splits) as { ID: number; Status: { ID: number; Info: string } } & Record<string, unknown>;
        return { Payment: { ID, InvalidRequestID: invalidRequestId, ...rest, Status: { ID: status.ID, Info: status.Info, Reasons: r.reasons } } };
      }
      return { Payment: withoutCardSecrets(shell(keysOf('card'), field(body, 'Payment'), invalidRequestId, r.reasons)) };
    }
    case 'refund': {
      // Fidelity: SDK-NET types a refund's ID, InitialPaymentID and TypeID as int, not int?, and its
      // InvalidRefundTests read a refused refund of the real host: there they are numbers. The real
      // service's model writes 0 for the IDs it has none for, and the refund names the payment it was asked of.
      const refund = shell(keysOf('refund'), field(body, 'Refund'), invalidRequestId, r.reasons);
      return { Refund: { ...refund, ID: 0, InitialPaymentID: r.stored?.payment.id ?? pathId(routeId), TypeID: 0 } };
    }
    case 'preapproval': {
      // A refusal on a stored preapproval (closing a closed one) echoes it with its real ID and status.
      if (r instanceof PreapprovalRejection) {
        const { ID, Status: status, ...rest } = preapprovalToWire(r.preapproval, wire.baseUrl);
        return { Preapproval: { ID, InvalidRequestID: invalidRequestId, ...rest, Status: { ID: status.ID, Info: status.Info, Reasons: r.reasons } } };
      }
      // Fidelity: SDK-NET types a preapproval's Status.ID as byte, not byte?: the real model writes 0 for none.
      const refused = shell(PREAPPROVAL_KEYS, field(body, 'Preapproval'), invalidRequestId, r.reasons);
      return { Preapproval: { ...refused, Status: { ID: 0, Info: null, Reasons: r.reasons } } };
    }
    case 'payout':
      // Fidelity: SDK-NET PayoutServiceTests — ID null, InvalidRequestID set, MerchantTransactionID, Amount and Currency echoed.
      return { Payout: shell(keysOf('payout'), field(body, 'Payout'), invalidRequestId, r.reasons) };
    case 'card-authentication': {
      const { ID: _id, ...rest } = withoutCardSecrets(shell(keysOf('cardAuth'), field(body, 'CardAuthentication'), invalidRequestId, r.reasons));
      return { CardAuthentication: rest };
    }
    case 'merchant-site':
      // [ours] The real shape is not public; MerchantID and ID are 0, as the .NET SDK's MerchantSite (ints) can read them.
      return { MerchantSite: { MerchantID: 0, ID: 0, InvalidRequestID: invalidRequestId, Reasons: r.reasons } };
    case 'splits':
      return { Splits: null, InvalidRequestID: invalidRequestId, Reasons: r.reasons };
    case 'list':
      return listError(r.reasons.map((x) => x.Info).join('; '));
    case 'message':
      return { Message: r.reasons.map((x) => x.Info).join('; ') };
  }
}

/** Fidelity: a card number is never echoed in full, and a security code never, not even in a 400. */
function withoutCardSecrets(echo: Record<string, unknown>) {
  const card = echo.Card;
  if (card !== null && typeof card === 'object' && !Array.isArray(card)) {
    const c = card as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    const digits = typeof c.Number === 'string' ? c.Number.replace(/[^0-9]/g, '') : '';
    echo.Card = {
      HolderName: text(c.HolderName),
      Number: digits === '' ? null : maskCardNumber(digits),
      ExpirationMonth: text(c.ExpirationMonth),
      ExpirationYear: text(c.ExpirationYear),
    };
  } else {
    echo.Card = null;
  }
  echo.CreditCardToken = null;
  return echo;
}

export function listError(text: string) {
  return { Payments: null, Count: null, TotalPages: null, TotalCount: null, PageIndex: null, PageSize: null, Error: text };
}
