// The records the store hands out: camelCase mirrors of the rows, amounts as bigint.
import type { Flow } from '../domain/flows';

export type Surface = 'api' | 'card';

export interface SiteRecord {
  siteId: number;
  apiKey: string | null;
  name: string;
  marketplaceSiteId: number | null;
  notificationUrl: string | null;
  defaultScenario: string | null;
  /** Status IDs the merchant is notified of; null for every status. */
  notifyStatuses: number[] | null;
  /** Method IDs assigned to the site; null assigns every method of the catalogue. */
  methods: number[] | null;
}

export interface MethodRecord {
  methodId: number;
  name: string;
  flow: Flow;
  detailsTemplate: Record<string, unknown> | null;
  /** What the methods API shows besides the name (null: nothing known, e.g. a catalogue of older fixtures). */
  catalogue: MethodCatalogue | null;
}

/** A validator of a method, as the methods API shows it: `Source` may name several fields. */
export interface MethodValidator {
  Source: string;
  Regex: string;
  Required: boolean;
}

export interface MethodOption {
  ID: number;
  DisplayName: string;
  Description?: string;
  Guaranteed?: boolean;
}

/** A method's entry in the catalogue (fixtures/methods.json), in the methods API's own names. */
export interface MethodCatalogue {
  /** The logo's file name, when the real service's is known (MercadoPago's `mercadopago.gif`). */
  Logo?: string;
  Description?: string;
  Countries?: string[];
  Currencies?: string[];
  Guaranteed?: boolean;
  Active?: boolean;
  SupportIframe?: boolean;
  IframeWidth?: number;
  IframeHeight?: number;
  DetailsURL?: string | null;
  ValidatorsPayin?: MethodValidator[];
  ValidatorsRecurrent?: MethodValidator[];
  Options?: MethodOption[];
}

export type Json = Record<string, unknown>;

export interface PaymentRecord {
  id: number;
  surface: Surface;
  ownerSiteId: number;
  siteId: number;
  merchantTransactionId: string;
  originatorTransactionId: string | null;
  amount: bigint;
  currency: string;
  capturedAmount: bigint | null;
  returnUrl: string | null;
  description: string | null;
  statementDescriptor: string | null;
  methodId: number | null;
  methodOptionId: number | null;
  skinId: number | null;
  clientIp: string | null;
  tokenLifetime: number | null;
  token: string | null;
  statusId: number;
  createdAt: number;
  notificationAt: number | null;
  country: string | null;
  customer: Json | null;
  billingAddress: Json | null;
  shippingAddress: Json | null;
  details: Json | null;
  card: Json | null;
  capture: boolean | null;
  retry: boolean | null;
  hasSplits: boolean;
  scenario: string | null;
  /** The preapproval a recurring payment was charged under (`POST /v1/payments/recurrent`). */
  preapprovalId?: number | null;
  /** Why the card fraud check challenged it (held PendingChallengeConfirmation, 30); null: never challenged. */
  fraudReason?: string | null;
  /** The basket the create sent, each article as sent (figures as strings or numbers); null: none sent. */
  articles?: Json[] | null;
  /** The preapproval terms the create sent (PreapprovalDetails); null: none sent. */
  preapprovalDetails?: Json | null;
}

export interface SplitRecord {
  id: number;
  paymentId: number;
  siteId: number;
  merchantTransactionId: string;
  originatorTransactionId: string | null;
  amount: bigint;
  capturedAmount: bigint | null;
  statusId: number;
  createdAt: number;
}

export interface RefundRecord {
  id: number;
  paymentId: number;
  /** Null for a refund of the whole payment (a payment without splits). */
  splitId: number | null;
  siteId: number;
  merchantTransactionId: string;
  originatorTransactionId: string | null;
  amount: bigint;
  currency: string;
  description: string;
  typeId: number;
  statusId: number;
  createdAt: number;
  /** The capture refunded from (card refunds that name one), or null. */
  captureId?: number | null;
  /** The articles the refund request sent, as sent; null: none sent. */
  articles?: Json[] | null;
}

/** A capture of a card payment: the whole payment, part of it, or one split's share. */
export interface CaptureRecord {
  id: number;
  paymentId: number;
  splitId: number | null;
  siteId: number;
  merchantTransactionId: string;
  originatorTransactionId: string | null;
  amount: bigint;
  currency: string;
  statusId: number;
  createdAt: number;
}

/** A dispute (chargeback) on a payment whose money was taken. */
export interface DisputeRecord {
  id: number;
  paymentId: number;
  siteId: number;
  amount: bigint;
  currency: string;
  statusId: number;
  createdAt: number;
}

/** A payout to a card, with its outcome decided when it was made. */
export interface PayoutRecord {
  id: number;
  siteId: number;
  merchantTransactionId: string;
  originatorTransactionId: string | null;
  amount: bigint;
  currency: string;
  description: string | null;
  statementDescriptor: string | null;
  customer: Json | null;
  billingAddress: Json | null;
  card: Json | null;
  statusId: number;
  reasons: { Code: number; Info: string }[];
  createdAt: number;
}

/** A card authentication: a card verified without a charge, and the credit card token it made. */
export interface CardAuthRecord {
  id: number;
  siteId: number;
  token: string;
  customer: Json | null;
  billingAddress: Json | null;
  card: Json;
  active: boolean;
  createdAt: number;
  cancelledAt: number | null;
}

export interface HistoryRecord {
  id: number;
  paymentId: number;
  refundId: number | null;
  /** Set on a dispute's statuses (refundId is null then). */
  disputeId?: number | null;
  statusId: number;
  at: number;
  cause: string;
}

/** A preapproval (the recurring-payments API): the payer's standing consent to be charged again. */
export interface PreapprovalRecord {
  id: number;
  ownerSiteId: number;
  merchantPreapprovalId: string;
  methodId: number;
  methodOptionId: number | null;
  recurringPeriod: number | null;
  preapprovedMaximumAmount: bigint | null;
  currency: string | null;
  returnUrl: string | null;
  description: string | null;
  customer: Json | null;
  billingAddress: Json | null;
  /** The payer page's token of a Pending preapproval. */
  token: string | null;
  statusId: number;
  createdAt: number;
  scenario: string | null;
}
