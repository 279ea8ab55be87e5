// The OpenAPI 3.1 document of each address, built from the same schemas that validate requests and
// describe responses.
import type { Schema } from '../schemas/common';
import { REQUEST_EXAMPLES } from './examples';
import { clockAdvanceRequest, disputeEventRequest, faultRequest, merchantCreateRequest, merchantPatchRequest, paymentEventRequest, refundEventRequest } from '../schemas/control';
import { replayResponse, snapshotRequest, snapshotResponse, snapshotsResponse, storyFile } from '../schemas/reproduce';
import {
  addSplitsRequest,
  captureRequest,
  cardAuthenticationRequest,
  cardCaptureRequest,
  cardPayoutRequest,
  cardRefundRequest,
  createCardPaymentRequest,
  createPaymentRequest,
  refundRequest,
} from '../schemas/requests';
import {
  captureResponse,
  capturesResponse,
  cardAuthenticationErrorResponse,
  cardAuthenticationResponse,
  cardRefundResponse,
  cardRefundsResponse,
  cardSplitCaptureResponse,
  cardTokenCancelResponse,
  cardTokenResponse,
  disputeResponse,
  payoutErrorResponse,
  payoutResponse,
  payoutStatusResponse,
  payoutsResponse,
  cardListResponse,
  cardPaymentResponse,
  faultResponse,
  faultsResponse,
  healthResponse,
  listErrorResponse,
  listResponse,
  merchantsResponse,
  messageResponse,
  methodResponse,
  methodsResponse,
  paymentErrorResponse,
  paymentResponse,
  refundErrorResponse,
  refundResponse,
  refundsResponse,
  splitsErrorResponse,
  splitsResponse,
} from '../schemas/responses';

export type Surface = 'api' | 'card';

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  request?: Schema;
  /** Status code → response schema (undefined: a body of no fixed shape). */
  responses: Record<number, Schema | undefined>;
  query?: string[];
  control?: boolean;
  /** An HTML page for people (the hosted payment page), not JSON. */
  html?: boolean;
  /** An image of this content type (a method logo), not JSON. */
  image?: string;
  /** A file of this media type rather than JSON (a snapshot's SQLite file). */
  file?: string;
  /** A stable name for the operation (code generators use it). */
  operationId?: string;
  /** Query parameters with their own schema and description (`query` lists untyped ones). */
  typedQuery?: { name: string; schema: Schema; description: string }[];
}

/** A capture read's path ID, a payout's ID, a dispute's ID: positive integers. */
const idParamSchema: Schema = { type: 'integer', minimum: 1, maximum: 2147483647 };

const unauthorized = { 401: messageResponse, 404: messageResponse };
const listQuery = [
  'startDate',
  'endDate',
  'methodID',
  'statusID',
  'currency',
  'country',
  'minimumAmount',
  'maximumAmount',
  'merchantTransactionID',
  'methodTransactionID',
];

const CONTROL: Operation[] = [
  { method: 'get', path: '/_sandbox/health', summary: 'Health, both addresses, the number of payments and the database size', responses: { 200: healthResponse }, control: true },
  {
    method: 'post',
    path: '/_sandbox/reset',
    summary: 'Empty all data and load the fixtures again (the configuration stays)',
    responses: { 200: undefined },
    control: true,
  },
  { method: 'get', path: '/_sandbox/merchants', summary: 'Merchants with credentials', responses: { 200: merchantsResponse }, control: true },
  {
    method: 'post',
    path: '/_sandbox/merchants',
    summary: 'Create a marketplace with linked sites and generated credentials, for an isolated test',
    request: merchantCreateRequest,
    responses: { 201: undefined, 400: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/merchants/{siteId}', summary: 'One merchant with its credentials', responses: { 200: undefined, 404: messageResponse }, control: true },
  {
    method: 'patch',
    path: '/_sandbox/merchants/{siteId}',
    summary: 'Set a merchant’s NotificationURL or DefaultScenario',
    request: merchantPatchRequest,
    responses: { 200: undefined, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/scenarios', summary: 'The scenarios payments can follow', responses: { 200: undefined }, control: true },
  {
    method: 'get',
    path: '/_sandbox/payments/{id}',
    summary: 'A payment with its scenario, history, steps and refunds (a card payment also its captures and disputes)',
    responses: { 200: undefined, 404: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/payments/{id}/history',
    summary: 'The statuses a payment and its refunds went through, with sandbox times and causes',
    responses: { 200: undefined, 404: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/payments/{id}/story',
    summary: 'What happened to a payment, as a scenario file (steps at fixed offsets, splits and refunds by index) with its create request: valid for --scenarios, and for POST /_sandbox/replay',
    responses: { 200: storyFile, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/replay',
    summary: 'Replay a story: a new payment (fresh MerchantTransactionIDs) that goes through the same statuses, amounts and notifications',
    request: storyFile,
    responses: { 201: replayResponse, 400: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/payments/{id}/events',
    summary: 'Apply a provider or payer event; Event dispute opens a dispute (chargeback) on a captured card payment and answers {"Dispute"}',
    request: paymentEventRequest,
    responses: { 200: { anyOf: [paymentResponse, disputeResponse] }, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/disputes/{id}/events',
    operationId: 'settleDispute',
    summary: 'Win or lose an Open dispute (DisputeWon 23, DisputeLost 24), notified as {"Dispute"}',
    request: disputeEventRequest,
    responses: { 200: disputeResponse, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/refunds/{id}/events',
    summary: 'Let a refund succeed or fail',
    request: refundEventRequest,
    responses: { 200: refundResponse, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/clock', summary: 'Sandbox time', responses: { 200: undefined }, control: true },
  {
    method: 'post',
    path: '/_sandbox/clock/advance',
    summary: 'Move the manual clock, running every step due on the way',
    request: clockAdvanceRequest,
    responses: { 200: undefined, 400: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/snapshots',
    summary: 'Save a snapshot of the whole sandbox under a name (one of that name is replaced)',
    request: snapshotRequest,
    responses: { 201: snapshotResponse, 400: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/snapshots', summary: 'The saved snapshots', responses: { 200: snapshotsResponse }, control: true },
  {
    method: 'post',
    path: '/_sandbox/snapshots/{name}/restore',
    summary: 'Bring every payment, step, notification, setting and the clock back to the snapshot (ID sequences never go back); pending work resumes',
    responses: { 200: snapshotResponse, 400: messageResponse, 404: messageResponse, 503: messageResponse },
    control: true,
  },
  { method: 'delete', path: '/_sandbox/snapshots/{name}', summary: 'Remove a snapshot', responses: { 204: undefined, 400: messageResponse, 404: messageResponse }, control: true },
  {
    method: 'get',
    path: '/_sandbox/snapshots/{name}/file',
    summary: 'The snapshot as a SQLite file, which split-sandbox start --db opens',
    responses: { 200: undefined, 400: messageResponse, 404: messageResponse },
    control: true,
    file: 'application/vnd.sqlite3',
  },
  {
    method: 'get',
    path: '/_sandbox/notifications',
    summary: 'The notification journal, a page at a time (newest first unless SortDirection=asc), with TotalCount',
    query: ['PaymentID', 'RefundID', 'StatusID', 'State', 'PageSize', 'PageIndex', 'SortDirection'],
    responses: { 200: undefined, 400: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/notifications/wait',
    summary: 'Wait until a matching notification reached its final state (delivered, or journaled unsent); Delivered=true insists on a delivery',
    query: ['PaymentID', 'RefundID', 'StatusID', 'TimeoutMs', 'Delivered'],
    responses: { 200: undefined, 400: messageResponse, 408: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/notifications/{id}/redeliver',
    summary: 'Send a notification again',
    responses: { 202: undefined, 404: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/faults',
    summary: 'Add a fault rule: on the api channel Status, Delay, Reset or LoseAnswer; on the notifications channel Duplicate, Delay or Drop',
    request: faultRequest,
    responses: { 201: faultResponse, 400: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/faults', summary: 'The fault rules, with their Hits', responses: { 200: faultsResponse }, control: true },
  { method: 'delete', path: '/_sandbox/faults', summary: 'Delete every fault rule', responses: { 204: undefined }, control: true },
  { method: 'get', path: '/_sandbox/faults/{id}', summary: 'One fault rule, with its Hits', responses: { 200: faultResponse, 404: messageResponse }, control: true },
  { method: 'delete', path: '/_sandbox/faults/{id}', summary: 'Delete one fault rule', responses: { 204: undefined, 404: messageResponse }, control: true },
  { method: 'get', path: '/_sandbox/openapi.json', summary: 'This document', query: ['surface'], responses: { 200: undefined }, control: true },
];

/** Every /v1 request may carry its own fault (no control access needed). */
const FAULT_HEADER = {
  name: 'X-Sandbox-Fault',
  in: 'header',
  required: false,
  description: 'Sandbox only: a fault for this request alone. 500, 502, 503, 504, 429 or 408 answers that status and does nothing; reset closes the connection (nothing happens); lose-answer commits, then closes the connection with no answer; delay=2s answers late.',
  schema: { type: 'string', pattern: '^(500|502|503|504|429|408|reset|lose-answer|delay=[0-9.]+(ms|s|m|h))$' },
};

const API: Operation[] = [
  {
    method: 'post',
    path: '/v1/payments',
    summary: 'Create a payment, with or without splits (4.1)',
    request: createPaymentRequest,
    responses: { 201: paymentResponse, 400: paymentErrorResponse, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/payments',
    summary: 'List payments (4.8)',
    query: ['pageSize', 'pageIndex', 'sortDirection', 'sortBy', 'typeID', ...listQuery],
    responses: { 200: listResponse, 400: listErrorResponse, 401: messageResponse },
  },
  { method: 'get', path: '/v1/payments/{id}', summary: 'Get a payment', responses: { 200: paymentResponse, ...unauthorized } },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits',
    summary: 'Add splits (4.2)',
    request: addSplitsRequest,
    responses: { 201: splitsResponse, 400: splitsErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/capture',
    summary: 'Capture in full (no body, 4.3) or with amounts per split (4.4)',
    request: captureRequest,
    responses: { 200: paymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits/{splitId}/capture',
    summary: 'Capture one split (4.5)',
    query: ['amount'],
    responses: { 200: paymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/cancel',
    summary: 'Cancel a payment (4.6)',
    responses: { 200: paymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits/{splitId}/refunds',
    summary: 'Refund a split (4.7)',
    request: refundRequest,
    responses: { 201: refundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/status',
    summary: 'A payment’s current status: the payment as GET shows it',
    responses: { 200: paymentResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/refunds',
    summary: 'Refund a payment without splits as a whole (a payment with splits: reason 11, refund per split)',
    request: refundRequest,
    responses: { 201: refundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds',
    summary: 'The payment’s refunds, each in its current status (SplitID 0: a refund of the whole payment)',
    responses: { 200: refundsResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds/{refundId}',
    summary: 'One refund of the payment, in its current status',
    responses: { 200: refundResponse, ...unauthorized },
  },
];

/** The methods API and the method logos its LogoURLs point to. */
const METHODS: Operation[] = [
  {
    method: 'get',
    path: '/v1/methods',
    summary: 'Every active payment method (additionalDetails=true: with validators and options; country: available there)',
    query: ['country', 'additionalDetails'],
    responses: { 200: methodsResponse, 400: messageResponse, 401: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/methods/assigned',
    summary: 'The payment methods assigned to the calling site',
    query: ['country', 'additionalDetails'],
    responses: { 200: methodsResponse, 400: messageResponse, 401: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/methods/{id}',
    summary: 'One payment method, with its validators and options',
    responses: { 200: methodResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/images/methods/{file}',
    summary: 'A method’s (or method option’s) logo, as LogoURL names it (SVG, no credentials needed)',
    responses: { 200: undefined, 404: messageResponse },
    image: 'image/svg+xml',
  },
];

/** The hosted payment page that RedirectURL points to. */
const PAYER: Operation[] = [
  {
    method: 'get',
    path: '/Home',
    summary: 'The hosted payment page of RedirectURL (HTML): the payment and the buttons the payer may press; while it is open, the payment’s scenario steps wait for the payer',
    query: ['PaymentToken'],
    responses: { 200: undefined, 404: undefined, 410: undefined },
    html: true,
  },
  {
    method: 'post',
    path: '/Home/{action}',
    summary: 'A button of the payment page (form field PaymentToken): pay, authorize, fail or cancel; then 303 to ReturnURL',
    responses: { 303: undefined, 404: undefined, 410: undefined },
    html: true,
  },
];

/** The merchant dashboard (HTML forms, session cookie). */
const DASHBOARD: Operation[] = [
  { method: 'get', path: '/dashboard/login', summary: 'Merchant dashboard: the sign-in form (SiteID and APIKey)', responses: { 200: undefined }, html: true },
  { method: 'post', path: '/dashboard/login', summary: 'Sign in: a session cookie (HttpOnly, SameSite=Lax), then 303 to the payments', responses: { 303: undefined, 401: undefined }, html: true },
  { method: 'post', path: '/dashboard/logout', summary: 'Sign out', responses: { 303: undefined }, html: true },
  { method: 'get', path: '/dashboard', summary: 'The merchant’s payments: a paged, filterable table', responses: { 200: undefined, 303: undefined, 400: undefined }, html: true },
  { method: 'get', path: '/dashboard/settings', summary: 'Notification URL and default scenario', responses: { 200: undefined, 303: undefined }, html: true },
  { method: 'get', path: '/dashboard/payouts', operationId: 'dashboardCardPayouts', summary: 'The merchant’s card payouts (the latest 100, newest first)', responses: { 200: undefined, 303: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/dispute', operationId: 'dashboardDispute', summary: 'Dashboard action dispute on a card payment (form field Event: open, win or lose, with DisputeID); 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/settings', summary: 'Save the notification URL and default scenario', responses: { 303: undefined, 400: undefined }, html: true },
  { method: 'get', path: '/dashboard/payments/{id}', summary: 'One payment: splits, refunds, history, steps, notifications and attempts, and its actions', responses: { 200: undefined, 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/events', summary: 'Dashboard action events on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture', summary: 'Dashboard action capture on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture-split', summary: 'Dashboard action capture-split on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture-per-split', summary: 'Dashboard action capture-per-split on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/cancel', summary: 'Dashboard action cancel on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/refund', summary: 'Dashboard action refund on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/refund-payment', summary: 'Dashboard action refund-payment (a whole payment without splits); 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/card-capture', summary: 'Dashboard action card-capture (whole or part) on a card payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/card-cancel', summary: 'Dashboard action card-cancel on a card payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/card-refund', summary: 'Dashboard action card-refund (the payment or one split) on a card payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/splits', summary: 'Dashboard action splits on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'get', path: '/dashboard/payments/{id}/story', summary: 'Download the payment’s story (a JSON file, as GET /_sandbox/payments/{id}/story gives it); 400 for a card payment, which has no story', responses: { 200: undefined, 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/snapshot', summary: 'Save a snapshot of the whole sandbox (form field Name); 303 back to the payment, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/notifications/{notificationId}/redeliver', summary: 'Dashboard action notifications/:notificationId/redeliver on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
];

const CARD: Operation[] = [
  {
    method: 'post',
    path: '/v1/payments',
    summary: 'Create a card payment',
    request: createCardPaymentRequest,
    responses: { 201: cardPaymentResponse, 400: paymentErrorResponse, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/payments',
    summary: 'List card payments (2.9)',
    query: ['limit', 'offset', ...listQuery],
    responses: { 200: cardListResponse, 400: listErrorResponse, 401: messageResponse },
  },
  { method: 'get', path: '/v1/payments/{id}', summary: 'Get a card payment', responses: { 200: cardPaymentResponse, ...unauthorized } },
  {
    method: 'get',
    path: '/v1/payments/{id}/status',
    summary: 'A card payment’s current status: the card payment as GET shows it',
    responses: { 200: cardPaymentResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/capture',
    summary:
      'Capture an Authorized card payment, whole (Captured, 11) or `amount` of it (PartiallyCaptured, 35), with no body; or, with {"Payment": {"Split": {"ID", "Amount"}}}, one split of a marketplace card payment (the answer adds Split with its CaptureDetails)',
    request: cardCaptureRequest,
    query: ['amount'],
    responses: { 200: { anyOf: [cardPaymentResponse, cardSplitCaptureResponse] }, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/statuss',
    operationId: 'getCardPaymentStatusSdkSpelling',
    summary: 'The card payment’s status, at the address the PHP SDK’s payment_status asks for (sic): answered as /status',
    responses: { 200: cardPaymentResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/captures',
    operationId: 'listCardCaptures',
    summary: 'The card payment’s captures (whole, part, or one split’s), oldest first',
    responses: { 200: capturesResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/captures/{captureId}',
    operationId: 'getCardCapture',
    summary: 'One capture of the card payment',
    responses: { 200: captureResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/refunds/{id}/status',
    operationId: 'getCardRefundStatus',
    summary: 'A refund of one of the site’s card payments, by the refund’s ID alone (the PHP SDK’s refund_status)',
    responses: { 200: cardRefundResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payouts',
    operationId: 'createCardPayout',
    summary: 'Pay out to a card: 201 Success (2); 400 with the payout’s ID and Failed (4) for an expired card, a number failing the Luhn check or test amount 10001; 400 with ID null for a rejected request (20 "Key is duplicated")',
    request: cardPayoutRequest,
    responses: { 201: payoutResponse, 400: { anyOf: [payoutResponse, payoutErrorResponse] }, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/payouts',
    operationId: 'listCardPayouts',
    summary: 'The site’s card payouts, newest first',
    typedQuery: [
      { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 1000 }, description: 'How many (default: the configured page size); reason 107 otherwise' },
      { name: 'offset', schema: { type: 'integer', minimum: 0, maximum: 2147483647 }, description: 'How many to skip; reason 106 otherwise' },
      { name: 'startDate', schema: { type: 'string', pattern: '^[0-9]{14}$' }, description: 'Made at or after (yyyyMMddHHmmss, UTC)' },
      { name: 'endDate', schema: { type: 'string', pattern: '^[0-9]{14}$' }, description: 'Made at or before (yyyyMMddHHmmss, UTC)' },
      { name: 'currency', schema: { type: 'string', pattern: '^[A-Za-z]{3}$' }, description: 'ISO 4217 code' },
      { name: 'minimumAmount', schema: { type: 'integer', minimum: 0 }, description: 'Minor units' },
      { name: 'maximumAmount', schema: { type: 'integer', minimum: 0 }, description: 'Minor units' },
      { name: 'merchantTransactionID', schema: { type: 'string', maxLength: 128 }, description: 'Exact match' },
      { name: 'statusID', schema: { type: 'integer', enum: [2, 4] }, description: 'Success (2) or Failed (4)' },
    ],
    responses: { 200: payoutsResponse, 400: payoutErrorResponse, 401: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/payouts/{id}',
    operationId: 'getCardPayout',
    summary: 'One card payout of the site',
    responses: { 200: payoutResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payouts/{id}/status',
    operationId: 'getCardPayoutStatus',
    summary: 'A card payout’s ID, MerchantTransactionID and Status',
    responses: { 200: payoutStatusResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/card/authenticate',
    operationId: 'authenticateCard',
    summary: 'Verify a card without a charge: 201 with a credit card token (Success, 2); 400 for an expired card (1205) or a number failing the Luhn check (1201)',
    request: cardAuthenticationRequest,
    responses: { 201: cardAuthenticationResponse, 400: cardAuthenticationErrorResponse, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/card/token/{token}',
    operationId: 'getCardToken',
    summary: 'A credit card token of the site: its card and whether it is Active ("true" / "false")',
    responses: { 200: cardTokenResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/card/token/{token}/cancel',
    operationId: 'cancelCardToken',
    summary: 'Cancel a credit card token (Status 3 "Canceled"); a second cancel is refused (2401)',
    responses: { 200: cardTokenCancelResponse, 400: cardAuthenticationErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/cancel',
    summary: 'Cancel an Authorized card payment (Cancelled, 3; QueuedForCanceling, 34, for test amount 10006)',
    responses: { 200: cardPaymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/refunds',
    summary: 'Refund a captured card payment, or one split of it (SplitID), optionally from one capture (CaptureID): Success at once (Open for test amount 10004)',
    request: cardRefundRequest,
    responses: { 201: cardRefundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits/{splitId}/refunds',
    summary: 'Refund one split of a marketplace card payment (the PHP SDK’s split_refund, with the CaptureID of the split’s capture)',
    request: cardRefundRequest,
    responses: { 201: cardRefundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds',
    summary: 'The card payment’s refunds, each in its current status',
    responses: { 200: cardRefundsResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds/{refundId}',
    summary: 'One refund of the card payment, in its current status',
    responses: { 200: cardRefundResponse, ...unauthorized },
  },
];

/** The hosted card form that a card payment's RedirectURL points to. */
const CARD_FORM: Operation[] = [
  {
    method: 'get',
    path: '/v1/Payments/FillCardDetails',
    summary: 'The hosted card form of RedirectURL (HTML): the card payment and the buttons the payer may press',
    query: ['PaymentToken'],
    responses: { 200: undefined, 404: undefined, 410: undefined },
    html: true,
  },
  {
    method: 'post',
    path: '/v1/Payments/FillCardDetails/{action}',
    summary: 'A button of the card form (form field PaymentToken): authorize (a card entered), fail or cancel; then 303 to ReturnURL',
    responses: { 303: undefined, 404: undefined, 410: undefined },
    html: true,
  },
];

export function operations(surface: Surface): Operation[] {
  return [...(surface === 'api' ? [...API, ...METHODS, ...PAYER, ...DASHBOARD] : [...CARD, ...CARD_FORM]), ...CONTROL];
}

const json = (schema: Schema | undefined, example?: unknown) => ({
  'application/json': { schema: schema ?? {}, ...(example === undefined ? {} : { example }) },
});

export function openApiDocument(surface: Surface, serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations(surface)) {
    const params = [
      ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema:
          m[1] === 'token'
            ? { type: 'string', pattern: '^[0-9A-Fa-f]{32}$', description: 'A credit card token: 32 hexadecimal characters' }
            : m[1] === 'captureId' || m[1] === 'payoutId' || m[1] === 'disputeId'
              ? idParamSchema
              : { type: m[1] === 'action' || m[1] === 'file' || m[1] === 'name' ? 'string' : 'integer' },
      })),
      ...(op.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
      ...(op.typedQuery ?? []).map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: q.schema })),
      ...(op.path.startsWith('/v1/') ? [FAULT_HEADER] : []),
    ];
    (paths[op.path] ??= {})[op.method] = {
      ...(op.operationId ? { operationId: op.operationId } : {}),
      summary: op.summary,
      tags: [
        op.html
          ? op.path.startsWith('/dashboard')
            ? 'merchant dashboard'
            : 'payment page'
          : op.control
            ? 'sandbox control'
            : op.path.startsWith('/v1/methods') || op.image
              ? 'payment methods'
              : surface === 'api'
                ? 'split payments'
                : 'card payments',
      ],
      ...(op.control || op.image ? {} : { security: [{ basic: [] }] }),
      ...(params.length ? { parameters: params } : {}),
      ...(op.request
        ? { requestBody: { required: false, content: json(op.request, REQUEST_EXAMPLES[`${op.method.toUpperCase()} ${op.path} ${op.control ? 'control' : surface}`]) } }
        : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([code, schema]) => [
          code,
          {
            description: `HTTP ${code}`,
            ...(code === '303' || code === '204'
              ? {}
              : {
                  content: op.html
                    ? { 'text/html': {} }
                    : op.image && code === '200'
                      ? { [op.image]: {} }
                      : op.file && code === '200'
                        ? { [op.file]: { schema: { type: 'string', contentMediaType: op.file } } }
                        : json(schema),
                }),
          },
        ]),
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: surface === 'api' ? 'split-sandbox: split-payments API' : 'split-sandbox: card API',
      version: require('../../package.json').version as string,
      description: 'Amounts are integers in minor units. `x-reason` on a schema names the reason code a value failing it is refused with.',
    },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'base64("SiteID:APIKey")' } } },
    paths,
  };
}
