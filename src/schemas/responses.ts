// JSON Schemas of every response body: every key present, nulls where empty. The tests check each
// response against them, and the OpenAPI document is built from them.
import { REFERENCE_DETAILS_KEYS } from '../domain/reference-details';
import {
  type Schema,
  amountOut,
  exact,
  int,
  nint,
  nstr,
  nul,
  nullableTimestampOut,
  str,
  timestampOut,
} from './common';
import { NOTIFICATION_STATES } from './queries';
import { DETAILS_KEYS, detailsOut } from './details';

const reasonOut = exact({ Code: int, Info: str });

export const statusOut = exact({
  ID: int,
  Info: str,
  Reasons: { type: ['array', 'null'], items: reasonOut },
});

const customerFields = {
  MerchantCustomerID: nstr,
  Email: nstr,
  FirstName: nstr,
  LastName: nstr,
  Gender: nstr,
  SocialSecurityNumber: nstr,
  Phone: nstr,
  Company: nstr,
  DateOfBirth: nstr,
};
export const customerOut = exact({ ID: int, ...customerFields }, ['object', 'null']);

const addressFields = {
  City: nstr,
  ZipCode: nstr,
  State: nstr,
  Street: nstr,
  StreetNumber: nstr,
  HouseNumber: nstr,
  HouseExtension: nstr,
  Country: nstr,
};
export const addressOut = exact(addressFields, ['object', 'null']);
export const cardAddressOut = exact({ ID: int, ...addressFields }, ['object', 'null']);
/** An API payment's address: numbered on a payment without splits, as the spec shows it (no ID) on one with splits. */
const apiAddressOut: Schema = { anyOf: [addressOut, cardAddressOut] };

/** An article as its request sent it: figures as strings or whole numbers, as they came. */
const figureOut: Schema = { type: ['string', 'integer', 'null'] };
const articleOut = exact({
  MerchantArticleID: nstr,
  Name: nstr,
  Quantity: nint,
  Price: figureOut,
  VAT: figureOut,
  Discount: figureOut,
  Type: nint,
  DiscountValue: figureOut,
  TaxType: nint,
});
/** Null unless the request sent articles: then each as sent (every member present). */
const articlesOut: Schema = { type: ['array', 'null'], items: articleOut, description: 'The articles the request sent, as sent; null when none were sent' };

export { DETAILS_KEYS, detailsOut };

export const splitOut = exact({
  ID: int,
  PaymentID: int,
  SiteID: int,
  MerchantTransactionID: str,
  OriginatorTransactionID: nstr,
  Created: timestampOut,
  Amount: amountOut,
  Currency: str,
  CapturedAmount: { type: 'string', pattern: '^[0-9]*$', description: 'Empty when nothing was captured on the split itself' },
  StateDetails: statusOut,
});

/** The fields of 2.1 in their order, without Splits. */
const paymentFields: Record<string, Schema> = {
  ID: int,
  SkinID: nint,
  ClientIP: nstr,
  Created: timestampOut,
  MerchantTransactionID: str,
  OriginatorTransactionID: nstr,
  Amount: amountOut,
  Currency: str,
  CapturedAmount: { type: ['string', 'null'], pattern: '^[0-9]+$' },
  ReturnURL: nstr,
  Description: nstr,
  MethodID: nint,
  MethodOptionID: nint,
  IncludeMethodIDs: nul,
  ExcludeMethodIDs: nul,
  PrioritizeMethodIDs: nul,
  SiteID: int,
  NotificationDateTime: nullableTimestampOut,
  Customer: customerOut,
  BillingAddress: apiAddressOut,
  ShippingAddress: apiAddressOut,
  Articles: articlesOut,
  Details: detailsOut,
  ReferenceDetails: { anyOf: [nul, exact(Object.fromEntries(REFERENCE_DETAILS_KEYS.map((k) => [k, nstr])))], description: 'What the payer pays with away from the payment page (WeChat Pay: QRCodeURL)' },
  CustomParameters: nul,
  PreapprovalID: nint,
  Status: statusOut,
  Fraud: nul,
  MethodTransactionID: nul,
  TokenLifetime: nint,
  Capture: { type: ['boolean', 'null'], description: 'true when created with Capture: true (captured as soon as authorized)' },
  PreapprovalDetails: {
    anyOf: [nul, exact({ PreapprovedMaximumAmount: nint, MerchantPreapprovalID: nstr, Frequency: nstr, PreapprovalDescription: nstr })],
    description: 'The preapproval terms the create sent, as sent; null when none were sent',
  },
  RedirectURL: nstr,
};

export const PAYMENT_KEYS = [...Object.keys(paymentFields), 'Splits'];

/** A payment (2.1). Splits is there for payments that have splits. */
export const paymentOut: Schema = {
  type: 'object',
  required: Object.keys(paymentFields),
  additionalProperties: false,
  properties: { ...paymentFields, Splits: { type: 'array', items: splitOut } },
};

/** A list item (2.8): the payment without Fraud and Splits. */
const listItemFields = { ...paymentFields };
delete listItemFields.Fraud;
export const listItemOut = exact(listItemFields);

export const refundOut = exact({
  ID: int,
  Created: timestampOut,
  MerchantTransactionID: str,
  OriginatorTransactionID: nstr,
  InitialPaymentID: int,
  Amount: amountOut,
  Currency: str,
  Description: str,
  TypeID: int,
  SiteID: int,
  Details: nul,
  Customer: nul,
  BillingAddress: nul,
  BankAddress: nul,
  Articles: articlesOut,
  Status: statusOut,
  SplitID: int,
});

/** On the card address a refund also names the capture it was taken from (null: none named). */
export const cardRefundOut: Schema = {
  ...refundOut,
  required: [...(refundOut.required as string[]), 'CaptureID'],
  properties: { ...(refundOut.properties as Record<string, Schema>), CaptureID: nint },
};

export const cardOut = exact(
  { HolderName: str, Number: str, ExpirationMonth: str, ExpirationYear: str },
  ['object', 'null'],
);

/** A card payment (2.9); Splits only for a marketplace card payment made with splits, and not in list items. */
const cardPaymentFields: Record<string, Schema> = {
  ID: int,
  ClientIP: nstr,
  SkinID: nint,
  Created: timestampOut,
  MerchantTransactionID: str,
  OriginatorTransactionID: nstr,
  Amount: amountOut,
  Currency: str,
  CapturedAmount: { type: 'integer', description: 'A JSON number on the card address' },
  ReturnURL: nstr,
  Description: nstr,
  StatementDescriptor: nstr,
  MethodID: int,
  MethodOptionID: nint,
  SiteID: int,
  NotificationDateTime: nullableTimestampOut,
  Customer: customerOut,
  BillingAddress: cardAddressOut,
  ShippingAddress: cardAddressOut,
  Articles: nul,
  Card: cardOut,
  CreditCardToken: {
    ...exact({ Value: { type: 'string', pattern: '^[0-9A-F]{32}$' } }, ['object', 'null']),
    description: 'The credit card token the payment was paid with, or made for its card (GenerateCreditCardToken: true)',
  },
  Status: exact({
    ID: int,
    Info: str,
    Reasons: { type: 'array', items: reasonOut, description: 'Empty, but for the return code 5288 of QueuedForCapturing (33)' },
  }),
  MethodTransactionID: nul,
  PaymentTokenLifetime: nint,
  Capture: { type: ['boolean', 'null'] },
  Retry: { type: ['boolean', 'null'] },
  RedirectURL: { type: ['string', 'null'], description: 'The hosted card form, while the payer has a card to enter' },
  '3DSecure': { type: ['boolean', 'null'] },
  Fraud: {
    ...exact(
      {
        Status: { type: 'string', enum: ['Challenge'] },
        CheckMode: { type: 'string', enum: ['CheckOnPreAuthorisation'] },
        Score: { type: 'integer', minimum: 1 },
        Reason: str,
      },
      ['object', 'null'],
    ),
    description: 'The fraud check’s verdict on a payment it challenged (held PendingChallengeConfirmation, 30); null for one never challenged',
  },
};
export const cardPaymentOut: Schema = {
  type: 'object',
  required: Object.keys(cardPaymentFields),
  additionalProperties: false,
  properties: { ...cardPaymentFields, Splits: { type: 'array', items: splitOut } },
};

const envelope = (item: Schema) =>
  exact({
    Payments: { type: 'array', items: item },
    Count: int,
    TotalPages: int,
    TotalCount: int,
    PageIndex: int,
    PageSize: int,
  });

export const paymentResponse = exact({ Payment: paymentOut });
export const splitsResponse = exact({ Splits: { type: 'array', items: splitOut } });
export const refundResponse = exact({ Refund: refundOut });
export const listResponse = envelope(listItemOut);
export const cardPaymentResponse = exact({ Payment: cardPaymentOut });
export const cardListResponse = envelope(exact(cardPaymentFields));
export const refundsResponse = exact({ Refunds: { type: 'array', items: refundOut } });
export const cardRefundResponse = exact({ Refund: cardRefundOut });
export const cardRefundsResponse = exact({ Refunds: { type: 'array', items: cardRefundOut } });

const cardStatusOut = exact({ ID: int, Info: str, Reasons: { type: 'array', items: reasonOut } });

/**
 * A refund's status read by payment and refund (`GET /v1/payments/{id}/refunds/{refundId}/status`):
 * what SDK-NET's CardRefundStatusResponse holds, its status under `StateDetails`.
 */
const refundStatusOf = (state: Schema) => exact({ Refund: exact({ ID: int, InitialPaymentID: int, MerchantTransactionID: str, StateDetails: state }) });
export const refundStatusResponse = refundStatusOf(statusOut);
export const cardRefundStatusResponse = refundStatusOf(cardStatusOut);

/** A capture of a card payment (the card host's capture reads). */
export const captureOut = exact({
  ID: int,
  SiteID: int,
  Created: timestampOut,
  MerchantTransactionID: str,
  OriginatorTransactionID: nstr,
  PaymentID: int,
  Amount: { type: 'integer', description: 'A JSON number, as the card host writes it' },
  Currency: str,
  Status: cardStatusOut,
});
export const capturesResponse = exact({ Captures: { type: 'array', items: captureOut } });
export const captureResponse = exact({ Capture: captureOut });

/** The answer to a capture on the card address: the card payment, and for a split's capture the split with its capture. */
export const cardCaptureResponse = exact({
  Payment: {
    ...cardPaymentOut,
    properties: {
      ...(cardPaymentOut.properties as Record<string, Schema>),
      Split: exact({ ...(splitOut.properties as Record<string, Schema>), CaptureDetails: captureOut }),
    },
  },
});

/** The answer to a split's capture: the card payment with the captured split and its capture (CaptureDetails). */
export const cardSplitCaptureResponse = exact({
  Payment: {
    ...cardPaymentOut,
    required: [...(cardPaymentOut.required as string[]), 'Splits', 'Split'],
    properties: {
      ...(cardPaymentOut.properties as Record<string, Schema>),
      Split: exact({ ...(splitOut.properties as Record<string, Schema>), CaptureDetails: captureOut }),
    },
  },
});

/** A card payout (the card host's payouts API). */
export const payoutOut = exact({
  ID: int,
  SiteID: int,
  Created: timestampOut,
  MerchantTransactionID: str,
  OriginatorTransactionID: nstr,
  Amount: amountOut,
  Currency: str,
  Description: nstr,
  StatementDescriptor: nstr,
  Customer: customerOut,
  BillingAddress: cardAddressOut,
  Status: cardStatusOut,
});
export const payoutResponse = exact({ Payout: payoutOut });
export const payoutsResponse = exact({ Payouts: { type: 'array', items: payoutOut } });
export const payoutStatusResponse = exact({ Payout: exact({ ID: int, MerchantTransactionID: str, Status: cardStatusOut }) });

const tokenCardOut = exact({ HolderName: nstr, Number: str, ExpirationMonth: str, ExpirationYear: str, IssuingBankCountry: nstr });
const tokenOut = exact({ Value: { type: 'string', pattern: '^[0-9A-F]{32}$' }, Active: { type: 'string', enum: ['true', 'false'] } });

/** A card authentication (the card host's tokenization API). */
export const cardAuthenticationOut = exact({
  Customer: customerOut,
  BillingAddress: cardAddressOut,
  Card: tokenCardOut,
  CreditCardToken: tokenOut,
  Status: cardStatusOut,
});
export const cardAuthenticationResponse = exact({ CardAuthentication: cardAuthenticationOut });
export const cardTokenResponse = exact({ CardAuthentication: exact({ Card: tokenCardOut, CreditCardToken: tokenOut }) });
export const cardTokenCancelResponse = exact({ CardAuthentication: exact({ Card: tokenCardOut, CreditCardToken: tokenOut, Status: cardStatusOut }) });

/** A dispute (its notification's body, and the control API's answer). */
export const disputeOut = exact({
  ID: int,
  SiteID: int,
  Created: timestampOut,
  PaymentID: int,
  MethodID: nint,
  Amount: amountOut,
  Currency: str,
  Status: statusOut,
});
export const disputeResponse = exact({ Dispute: disputeOut });

/** A rejected payout request: every Payout key, the request's fields echoed, ID null and InvalidRequestID. */
export const payoutErrorResponse = exact({
  Payout: {
    type: 'object',
    required: ['ID', 'InvalidRequestID', 'Status'],
    properties: { ID: nint, InvalidRequestID: str, Status: exact({ ID: nint, Info: nstr, Reasons: { type: 'array', minItems: 1, items: reasonOut } }) },
  },
});
export const cardAuthenticationErrorResponse = exact({
  CardAuthentication: {
    type: 'object',
    required: ['InvalidRequestID', 'Status'],
    properties: { InvalidRequestID: str, Status: exact({ ID: nul, Info: nul, Reasons: { type: 'array', minItems: 1, items: reasonOut } }) },
  },
});

const validatorOut = exact({ Source: str, Regex: str, Required: { type: 'boolean' } });
const methodOptionOut = exact({ ID: int, DisplayName: str, Description: str, LogoURL: str, Guaranteed: { type: 'boolean' } });
const codesOut = { type: 'array', items: str };
/** A payment method (methods API): validators and options are null in lists without additionalDetails. */
export const methodOut = exact({
  ID: int,
  DisplayName: str,
  Description: str,
  LogoURL: str,
  Guaranteed: { type: 'boolean' },
  Active: { type: 'boolean' },
  SupportIframe: { type: 'boolean' },
  IframeWidth: int,
  IframeHeight: int,
  Countries: codesOut,
  Currencies: codesOut,
  DetailsURL: nstr,
  ValidatorsPayin: { type: ['array', 'null'], items: validatorOut },
  ValidatorsRecurrent: { type: ['array', 'null'], items: validatorOut },
  Options: { type: ['array', 'null'], items: methodOptionOut },
});
export const methodsResponse = exact({ Methods: { type: 'array', items: methodOut } });
export const methodResponse = exact({ Method: methodOut });

const reasonsOut = { type: 'array', minItems: 1, items: reasonOut };
const rejectedStatus = exact({ ID: nint, Info: nstr, Reasons: reasonsOut });

/** A rejected payment request: every Payment key, the request's fields echoed, and InvalidRequestID. */
export const paymentErrorResponse = exact({
  Payment: {
    type: 'object',
    required: ['ID', 'InvalidRequestID', 'Status'],
    properties: { ID: nint, InvalidRequestID: str, Status: rejectedStatus },
  },
});
/**
 * A rejected refund request: every Refund key, the request's fields echoed, InvalidRequestID; ID and TypeID
 * 0 and InitialPaymentID the payment asked of, as the real service's model (non-nullable ints) writes them.
 */
export const refundErrorResponse = exact({
  Refund: {
    type: 'object',
    required: ['ID', 'InvalidRequestID', 'InitialPaymentID', 'TypeID', 'Status'],
    properties: {
      ID: { type: 'integer', const: 0 },
      InvalidRequestID: str,
      InitialPaymentID: { type: 'integer', minimum: 0 },
      TypeID: { type: 'integer', const: 0 },
      Status: exact({ ID: nul, Info: nul, Reasons: reasonsOut }),
    },
  },
});
export const splitsErrorResponse = exact({ Splits: nul, InvalidRequestID: str, Reasons: reasonsOut });
export const listErrorResponse = exact({
  Payments: nul,
  Count: nul,
  TotalPages: nul,
  TotalCount: nul,
  PageIndex: nul,
  PageSize: nul,
  Error: str,
});
export const messageResponse = exact({ Message: str });

const merchantOut = exact({
  SiteID: int,
  APIKey: str,
  Name: str,
  LinkedSiteIDs: { type: 'array', items: int },
  NotificationURL: nstr,
  DefaultScenario: nstr,
  NotifyStatuses: { type: ['array', 'null'], items: int },
  Methods: { type: ['array', 'null'], items: int },
  Clock: { type: 'string', enum: ['manual', 'sandbox'], description: "manual: the marketplace's own clock; sandbox: the sandbox's" },
  /** What applies to the merchant's payments, and where it comes from: its own setting, the sandbox's default, or none. */
  InEffect: exact({
    NotificationURL: exact({ Value: nstr, From: { type: 'string', enum: ['merchant', 'sandbox', 'none'] }, SandboxDefault: nstr }),
    DefaultScenario: exact({ Value: nstr, From: { type: 'string', enum: ['merchant', 'sandbox', 'method'] }, SandboxDefault: nstr }),
  }),
});
export const merchantsResponse = exact({ Merchants: { type: 'array', items: merchantOut } });
export const merchantResponse = exact({ Merchant: merchantOut });
export const healthResponse = exact({
  Status: { const: 'ok' },
  BaseURL: str,
  CardBaseURL: str,
  /** The process serving it (what `split-sandbox stop` checks before it signals one). */
  PID: int,
  /** Payments in the database (what retention keeps in check). */
  Payments: int,
  /** The database's size (pages × page size; the file on disk, once the WAL is checkpointed). */
  DatabaseBytes: int,
  /** Of which free pages, reused by the next writes or given back by retention. */
  DatabaseFreeBytes: int,
  /** The request journal (its own file, `<db>-requests`, not counted above), and its quotas; null when it is off. */
  RequestJournal: exact(
    {
      FileBytes: { type: 'integer', minimum: 0, description: 'The journal file’s size (pages × page size)' },
      FileFreeBytes: { type: 'integer', minimum: 0, description: 'Of which free pages, reused by the next entries' },
      Entries: { type: 'integer', minimum: 0, description: 'Entries kept, of all owners' },
      StoredBytes: { type: 'integer', minimum: 0, description: 'Their StoredBytes together (what the file quota bounds)' },
      Unauthenticated: exact({ Entries: int, StoredBytes: int }),
      LargestMarketplaceStoredBytes: { type: 'integer', minimum: 0, description: 'The StoredBytes of the marketplace holding the most' },
      Quotas: exact({
        Marketplace: exact({ Entries: int, StoredBytes: int }),
        Unauthenticated: exact({ Entries: int, StoredBytes: int }),
        FileStoredBytes: int,
      }),
    },
    ['object', 'null'],
  ),
  /** The marketplaces' own snapshots: how many and how many bytes they hold together, and each marketplace's quota. */
  MerchantSnapshots: exact({ Count: int, Bytes: int, QuotaCount: int, QuotaBytes: int }),
  /** The marketplaces' own fault rules: how many together, and each marketplace's quota. */
  MerchantFaultRules: exact({ Count: int, Quota: int }),
});

/** A fault rule as the control API shows it. */
export const faultOut = exact({
  ID: int,
  Channel: { type: 'string', enum: ['api', 'notifications'] },
  Match: { type: 'object' },
  Action: { type: 'object' },
  Times: nint,
  Probability: { type: 'number' },
  Hits: int,
});
export const faultResponse = exact({ Fault: faultOut });
export const faultsResponse = exact({ Faults: { type: 'array', items: faultOut } });

// The control API's other answers.
export const resetResponse = exact({ Status: { type: 'string', enum: ['reset'] } });
export const clockResponse = exact({
  Mode: { type: 'string', enum: ['manual', 'real'] },
  Now: timestampOut,
  NowMs: int,
  Speed: { type: ['number', 'null'], description: 'How many times as fast as real time sandbox time runs; null for a manual clock' },
});
// A marketplace's own routes.
export const siteResetResponse = exact({ Status: { type: 'string', enum: ['reset'] }, SiteID: int });
export const siteClockResponse = exact({
  Mode: { type: 'string', enum: ['manual', 'real'] },
  Own: { type: 'boolean', description: "Whether the marketplace has a clock of its own (else this is the sandbox's)" },
  Now: timestampOut,
  NowMs: int,
  Speed: { type: ['number', 'null'] },
});
const siteSnapshotOut = exact({
  Name: str,
  Created: timestampOut,
  OwnClock: { type: 'boolean', description: 'Taken on the marketplace’s own clock (a restore gives it that clock back)' },
  Payments: int,
});
export const siteSnapshotResponse = exact({ Snapshot: siteSnapshotOut });
export const siteSnapshotsResponse = exact({ Snapshots: { type: 'array', items: siteSnapshotOut } });
export const siteRestoreResponse = exact({ Snapshot: siteSnapshotOut, Clock: siteClockResponse });
export const scenariosResponse = exact({ Scenarios: { type: 'array', items: exact({ Name: str, Description: nstr, Source: str }) } });

const historyOut: Schema = {
  ...exact({ At: timestampOut, RefundID: nint, StatusID: int, StatusInfo: str, Cause: str }),
  // Only on a dispute's statuses (Open 1, DisputeWon 23, DisputeLost 24).
  properties: { At: timestampOut, RefundID: nint, DisputeID: int, StatusID: int, StatusInfo: str, Cause: str },
};
const stepOut = exact({
  ID: int,
  Step: nint,
  RefundID: nint,
  Do: str,
  Due: timestampOut,
  Planned: nullableTimestampOut,
  State: str,
  Ran: nullableTimestampOut,
  Outcome: nstr,
});
export const historyResponse = exact({ History: { type: 'array', items: historyOut } });
const inspected = exact({
  Payment: paymentOut,
  Scenario: nstr,
  Refunds: { type: 'array', items: refundOut },
  History: { type: 'array', items: historyOut },
  Steps: { type: 'array', items: stepOut },
});
/** A payment as the control API shows it; a card payment adds its Captures and Disputes. */
export const inspectedPaymentResponse: Schema = {
  ...inspected,
  properties: {
    ...(inspected.properties as Record<string, Schema>),
    Captures: { type: 'array', items: captureOut },
    Disputes: { type: 'array', items: disputeOut },
  },
};

const notificationOut = exact({
  ID: int,
  PaymentID: { type: ['integer', 'null'], description: 'null for a preapproval’s or a payout’s notification' },
  RefundID: nint,
  PreapprovalID: { type: ['integer', 'null'], description: 'A preapproval’s notification names it here (PaymentID null)' },
  PayoutID: { type: ['integer', 'null'], description: 'A card payout’s notification names it here (PaymentID null)' },
  SiteID: int,
  StatusID: int,
  StatusInfo: str,
  State: { type: 'string', enum: [...NOTIFICATION_STATES] },
  Created: timestampOut,
  NextAttempt: nullableTimestampOut,
  Delivered: nullableTimestampOut,
  Fault: nstr,
  Body: { type: 'object', description: 'The notification as sent' },
  Attempts: {
    type: 'array',
    items: exact({ At: timestampOut, URL: nstr, HTTPStatus: nint, Error: nstr, DurationMs: { type: ['number', 'null'] } }),
  },
});
export const notificationResponse = exact({ Notification: notificationOut });
export const notificationsResponse = exact({
  Notifications: { type: 'array', items: notificationOut },
  Count: int,
  TotalPages: int,
  TotalCount: int,
  PageIndex: int,
  PageSize: int,
  SortDirection: { type: 'string', enum: ['asc', 'desc'] },
});

/** A request journal entry (src/requests/journal.ts requestView). */
const requestBodyOut = exact({
  Body: { type: ['string', 'null'], description: 'The body as sent, card numbers masked and security codes replaced by *** (docs/journal.md: Card data), up to the cap' },
  Bytes: { type: 'integer', minimum: 0, description: 'Its full size in bytes' },
  CappedAt: { type: ['integer', 'null'], description: 'The cap it was cut at, or null when it is whole' },
});
const requestOut = exact({
  ID: int,
  At: { ...timestampOut, description: "Sandbox time, yyyyMMddHHmmss (UTC): its marketplace's own clock's when it has one, as its payments' times are" },
  AtMs: int,
  WallTime: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$', description: 'Real time, ISO 8601 (UTC)' },
  Address: { type: 'string', enum: ['api', 'card'] },
  Method: str,
  Path: str,
  Query: nstr,
  Route: { type: ['string', 'null'], description: 'The route template, such as /v1/payments/{id}/capture; null when none matched' },
  SiteID: nint,
  Authenticated: { type: 'boolean' },
  Unauthenticated: { type: 'boolean', description: 'It failed authentication (or named no marketplace): it belongs to no one, and is kept in the unauthenticated pool' },
  StoredBytes: { type: 'integer', minimum: 0, description: 'What it counts against its quota: its texts as UTF-8 bytes (bodies as kept) and 256 for the rest' },
  PaymentID: nint,
  RefundID: nint,
  SplitID: nint,
  Status: { type: ['integer', 'null'], description: 'null when no answer left (a reset connection)' },
  ReasonCodes: { type: 'array', items: int },
  DurationMs: { type: ['number', 'null'] },
  Fault: nstr,
  NearMiss: { type: ['string', 'null'], description: 'What a request that matched no route, or failed to authenticate, came nearest to; or the members of its body the API does not read' },
  Request: requestBodyOut,
  Response: requestBodyOut,
});
export const requestResponse = exact({ Request: requestOut });
export const requestsResponse = exact({
  Requests: { type: 'array', items: requestOut },
  Count: int,
  TotalPages: int,
  TotalCount: int,
  PageIndex: int,
  PageSize: int,
  SortDirection: { type: 'string', enum: ['asc', 'desc'] },
});
export const requestCountResponse = exact({ Count: int });
