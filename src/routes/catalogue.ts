// The route catalogue: every route of both addresses once (method, path template, operationId, who
// may call it, its request and answer schemas). The HTTP layer's guard, the OpenAPI document, the
// fault rules and the request journal's near misses all read it, so it sits low, beside the schemas.
import type { Schema } from '../schemas/common';
import type { RequestQuery } from '../requests/journal';
import { clockAdvanceRequest, faultRequest, merchantCreateRequest, merchantPatchRequest, disputeEventRequest, paymentEventRequest, preapprovalEventRequest, refundEventRequest } from '../schemas/control';
import { replayResponse, snapshotRequest, snapshotResponse, snapshotsResponse, storyFile } from '../schemas/reproduce';
import {
  addSplitsRequest,
  captureRequest,
  cardAuthenticationRequest,
  cardCaptureRequest,
  cardPayoutRequest,
  cardRefundRequest,
  changePreapprovalRequest,
  createCardPaymentRequest,
  createPaymentRequest,
  createPreapprovalRequest,
  recurrentPaymentRequest,
  refundRequest,
} from '../schemas/requests';
import { merchantSiteErrorResponse, merchantSiteRequest, merchantSiteResponse, merchantSitesResponse } from '../schemas/merchant-sites';
import { exchangeRateResponse, inspectedPreapprovalResponse, preapprovalErrorResponse, preapprovalResponse, preapprovalsResponse, refundTypesResponse } from '../schemas/preapprovals';
import {
  captureResponse,
  capturesResponse,
  cardAuthenticationErrorResponse,
  cardAuthenticationResponse,
  cardRefundResponse,
  cardRefundStatusResponse,
  cardRefundsResponse,
  cardCaptureResponse,
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
  clockResponse,
  healthResponse,
  historyResponse,
  inspectedPaymentResponse,
  listErrorResponse,
  listResponse,
  merchantResponse,
  merchantsResponse,
  notificationResponse,
  notificationsResponse,
  messageResponse,
  methodResponse,
  methodsResponse,
  paymentErrorResponse,
  paymentResponse,
  refundErrorResponse,
  refundResponse,
  refundStatusResponse,
  refundsResponse,
  resetResponse,
  siteClockResponse,
  siteResetResponse,
  siteRestoreResponse,
  siteSnapshotResponse,
  siteSnapshotsResponse,
  scenariosResponse,
  splitsErrorResponse,
  splitsResponse,
  requestCountResponse,
  requestResponse,
  requestsResponse,
} from '../schemas/responses';
import { UNGUARDED_CONTROL_PATH } from './unguarded';

export { UNGUARDED_CONTROL_PATH };

/** The request journal's filters' names, as the control API's query takes them (in any case). */
export const REQUEST_FILTERS: readonly (keyof RequestQuery)[] = ['SiteID', 'PaymentID', 'RefundID', 'Method', 'Route', 'Path', 'Status', 'ReasonCode', 'Address', 'NearMiss', 'Unauthenticated', 'Since', 'Until'];

export type Surface = 'api' | 'card';

/**
 * Who may call an operation, as the route's guard decides: `basic` the merchant's credentials (/v1),
 * `control` the control API's guard (a bearer control token, or a trusted client without one),
 * `session` the dashboard's sign-in cookie, `open` anyone.
 */
export type Guard = 'basic' | 'control' | 'session' | 'open' | 'own';

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  /** The name client generators give the operation's method: unique in the document, never changed. */
  operationId: string;
  summary: string;
  request?: Schema;
  /** Status code → response schema (undefined: a body of no fixed shape). */
  responses: Record<number, Schema | undefined>;
  /** Request headers the operation reads, beyond credentials. */
  headers?: Record<string, unknown>[];
  /** Names in QUERY_PARAMETERS (src/schemas/queries.ts). */
  query?: string[];
  control?: boolean;
  /** Set only where the route's guard is not the one its path implies (see guardOf). */
  guard?: Guard;
  /** An HTML page for people (the hosted payment page), not JSON. */
  html?: boolean;
  /** An image of this content type (a method logo), not JSON. */
  image?: string;
  /** A file of this media type rather than JSON (a snapshot's SQLite file). */
  file?: string;
  /**
   * Fidelity: the status the real service answers when the operation is done, where that is not a
   * 2xx (a rejected fraud challenge: 400). Served as `x-done-with`; the lint's success rule passes it.
   */
  doneWith?: number;
}

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
  { method: 'get', path: '/_sandbox/health', operationId: 'getHealth', summary: 'Health, both addresses, the number of payments and the database size', responses: { 200: healthResponse }, control: true },
  {
    method: 'post',
    path: '/_sandbox/reset',
    operationId: 'resetSandbox',
    summary: 'Empty all data and load the fixtures again (the configuration stays)',
    responses: { 200: resetResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/merchants', operationId: 'listMerchants', summary: 'Merchants with credentials', responses: { 200: merchantsResponse }, control: true },
  {
    method: 'post',
    path: '/_sandbox/merchants',
    operationId: 'createMerchant',
    summary: 'Create a marketplace with linked sites and generated credentials, for an isolated test',
    request: merchantCreateRequest,
    responses: { 201: merchantResponse, 400: messageResponse },
    control: true,
  },
  // Also the marketplace's own (its Basic credentials open them, as its other own routes).
  { method: 'get', path: '/_sandbox/merchants/{siteId}', operationId: 'getMerchant', summary: 'One merchant with its credentials', responses: { 200: merchantResponse, 404: messageResponse }, control: true, guard: 'own' },
  {
    method: 'patch',
    path: '/_sandbox/merchants/{siteId}',
    operationId: 'updateMerchant',
    summary: 'Set a merchant’s NotificationURL or DefaultScenario',
    request: merchantPatchRequest,
    responses: { 200: merchantResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  // A marketplace's own routes: the control API's clients, or the marketplace's own Basic credentials (another's: 404).
  {
    method: 'delete',
    path: '/_sandbox/merchants/{siteId}',
    operationId: 'removeMerchant',
    summary: 'Remove a marketplace whole, its data, clock and snapshots (its SiteIDs never return)',
    responses: { 204: undefined, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/reset',
    operationId: 'resetMerchant',
    summary: 'Delete a marketplace’s payments, notifications and fault rules; credentials, settings and clock stay',
    responses: { 200: siteResetResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/clock',
    operationId: 'getMerchantClock',
    summary: 'A marketplace’s time: its own clock (Own) or the sandbox’s',
    responses: { 200: siteClockResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/clock/advance',
    operationId: 'advanceMerchantClock',
    summary: 'Move a marketplace’s own clock, running its steps due on the way; nobody else’s time moves',
    request: clockAdvanceRequest,
    responses: { 200: siteClockResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/snapshots',
    operationId: 'saveMerchantSnapshot',
    summary: 'Save a marketplace’s own snapshot (its data and clock) under a name of its own',
    request: snapshotRequest,
    responses: { 201: siteSnapshotResponse, 400: messageResponse, 404: messageResponse, 409: messageResponse, 503: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/snapshots',
    operationId: 'listMerchantSnapshots',
    summary: 'A marketplace’s own snapshots',
    responses: { 200: siteSnapshotsResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/snapshots/{name}/restore',
    operationId: 'restoreMerchantSnapshot',
    summary: 'Bring a marketplace’s data and clock back to its snapshot; no other marketplace is touched',
    responses: { 200: siteRestoreResponse, 400: messageResponse, 404: messageResponse, 503: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'delete',
    path: '/_sandbox/merchants/{siteId}/snapshots/{name}',
    operationId: 'deleteMerchantSnapshot',
    summary: 'Delete a marketplace’s snapshot',
    responses: { 204: undefined, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/notifications',
    operationId: 'listMerchantNotifications',
    summary: 'A marketplace’s notification journal, paged, newest first',
    query: ['PaymentID', 'RefundID', 'StatusID', 'State', 'PageSize', 'PageIndex', 'SortDirection'],
    responses: { 200: notificationsResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/faults',
    operationId: 'addMerchantFault',
    summary: 'Add a fault rule acting on this marketplace’s requests and notifications only',
    request: faultRequest,
    responses: { 201: faultResponse, 400: messageResponse, 404: messageResponse, 409: messageResponse },
    control: true,
    guard: 'own',
  },
  { method: 'get', path: '/_sandbox/merchants/{siteId}/faults', operationId: 'listMerchantFaults', summary: 'A marketplace’s fault rules', responses: { 200: faultsResponse, 404: messageResponse }, control: true, guard: 'own' },
  { method: 'delete', path: '/_sandbox/merchants/{siteId}/faults', operationId: 'clearMerchantFaults', summary: 'Delete a marketplace’s fault rules', responses: { 204: undefined, 404: messageResponse }, control: true, guard: 'own' },
  {
    method: 'delete',
    path: '/_sandbox/merchants/{siteId}/faults/{id}',
    operationId: 'deleteMerchantFault',
    summary: 'Delete one of a marketplace’s fault rules',
    responses: { 204: undefined, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  // A marketplace's payments, as its dashboard offers them; another marketplace's payment is a 404 as for one that does not exist.
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/payments/{id}',
    operationId: 'inspectMerchantPayment',
    summary: 'One of the marketplace’s payments with its scenario, history, steps and refunds (as GET /_sandbox/payments/{id})',
    responses: { 200: inspectedPaymentResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/payments/{id}/story',
    operationId: 'getMerchantPaymentStory',
    summary: 'The story of one of the marketplace’s payments (as GET /_sandbox/payments/{id}/story)',
    responses: { 200: storyFile, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/payments/{id}/events',
    operationId: 'applyMerchantPaymentEvent',
    summary: 'A provider or payer event on one of the marketplace’s payments (as POST /_sandbox/payments/{id}/events), on the marketplace’s clock',
    request: paymentEventRequest,
    responses: { 200: { anyOf: [paymentResponse, cardPaymentResponse, disputeResponse] }, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/refunds/{id}/events',
    operationId: 'applyMerchantRefundEvent',
    summary: 'Let a refund of one of the marketplace’s payments succeed or fail',
    request: refundEventRequest,
    responses: { 200: refundResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/disputes/{id}/events',
    operationId: 'settleMerchantDispute',
    summary: 'Win or lose an Open dispute of one of the marketplace’s card payments',
    request: disputeEventRequest,
    responses: { 200: disputeResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/notifications/{id}/redeliver',
    operationId: 'redeliverMerchantNotification',
    summary: 'Send one of the marketplace’s notifications again; 400 when there is no notification URL to send it to',
    responses: { 202: notificationResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'post',
    path: '/_sandbox/merchants/{siteId}/replay',
    operationId: 'replayMerchantStory',
    summary: 'Replay a story as a new payment of the marketplace (whatever SiteID the story names), on its clock',
    request: storyFile,
    responses: { 201: replayResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  { method: 'get', path: '/_sandbox/scenarios', operationId: 'listScenarios', summary: 'The scenarios payments can follow', responses: { 200: scenariosResponse }, control: true },
  {
    method: 'get',
    path: '/_sandbox/payments/{id}',
    operationId: 'inspectPayment',
    summary: 'A payment with its scenario, history, steps and refunds (a card payment also its captures and disputes)',
    responses: { 200: inspectedPaymentResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/payments/{id}/history',
    operationId: 'getPaymentHistory',
    summary: 'The statuses a payment and its refunds went through, with sandbox times and causes',
    responses: { 200: historyResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/payments/{id}/story',
    operationId: 'getPaymentStory',
    summary: 'What happened to a payment, as a scenario file (steps at fixed offsets, splits and refunds by index) with its create request: valid for --scenarios, and for POST /_sandbox/replay',
    responses: { 200: storyFile, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/replay',
    operationId: 'replayStory',
    summary: 'Replay a story: a new payment (fresh MerchantTransactionIDs) that goes through the same statuses, amounts and notifications',
    request: storyFile,
    responses: { 201: replayResponse, 400: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/payments/{id}/events',
    operationId: 'applyPaymentEvent',
    summary:
      'Apply a provider or payer event; Event dispute opens a dispute (chargeback) on a captured card payment and answers {"Dispute"}; Event challenge holds an Open or Authorized card payment for a fraud challenge (PendingChallengeConfirmation, 30)',
    request: paymentEventRequest,
    responses: { 200: { anyOf: [paymentResponse, cardPaymentResponse, disputeResponse] }, 400: messageResponse, 404: messageResponse },
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
    operationId: 'applyRefundEvent',
    summary: 'Let a refund succeed or fail',
    request: refundEventRequest,
    responses: { 200: refundResponse, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/clock', operationId: 'getClock', summary: 'Sandbox time', responses: { 200: clockResponse }, control: true },
  {
    method: 'post',
    path: '/_sandbox/clock/advance',
    operationId: 'advanceClock',
    summary: 'Move the manual clock, running every step due on the way',
    request: clockAdvanceRequest,
    responses: { 200: clockResponse, 400: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/snapshots',
    operationId: 'saveSnapshot',
    summary: 'Save a snapshot of the whole sandbox under a name (one of that name is replaced)',
    request: snapshotRequest,
    responses: { 201: snapshotResponse, 400: messageResponse, 503: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/snapshots', operationId: 'listSnapshots', summary: 'The saved snapshots', responses: { 200: snapshotsResponse }, control: true },
  {
    method: 'post',
    path: '/_sandbox/snapshots/{name}/restore',
    operationId: 'restoreSnapshot',
    summary: 'Bring every payment, step, notification, setting and the clock back to the snapshot (ID sequences never go back); pending work resumes',
    responses: { 200: snapshotResponse, 400: messageResponse, 404: messageResponse, 503: messageResponse },
    control: true,
  },
  { method: 'delete', path: '/_sandbox/snapshots/{name}', operationId: 'deleteSnapshot', summary: 'Remove a snapshot', responses: { 204: undefined, 400: messageResponse, 404: messageResponse }, control: true },
  {
    method: 'get',
    path: '/_sandbox/snapshots/{name}/file',
    operationId: 'downloadSnapshot',
    summary: 'The snapshot as a SQLite file, which split-sandbox start --db opens',
    responses: { 200: undefined, 400: messageResponse, 404: messageResponse },
    control: true,
    file: 'application/vnd.sqlite3',
  },
  {
    method: 'get',
    path: '/_sandbox/notifications',
    operationId: 'listNotifications',
    summary: 'The notification journal, a page at a time (newest first unless SortDirection=asc), with TotalCount',
    query: ['PaymentID', 'RefundID', 'PreapprovalID', 'PayoutID', 'StatusID', 'State', 'PageSize', 'PageIndex', 'SortDirection'],
    responses: { 200: notificationsResponse, 400: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/notifications/wait',
    operationId: 'waitForNotification',
    summary: 'Wait until a matching notification reached its final state (delivered, or journaled unsent); Delivered=true insists on a delivery',
    query: ['PaymentID', 'RefundID', 'PreapprovalID', 'PayoutID', 'StatusID', 'TimeoutMs', 'Delivered'],
    responses: { 200: notificationResponse, 400: messageResponse, 408: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/notifications/{id}/redeliver',
    operationId: 'redeliverNotification',
    summary: 'Send a notification again; 400 when there is no notification URL to send it to',
    responses: { 202: notificationResponse, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/faults',
    operationId: 'addFault',
    summary: 'Add a fault rule: on the api channel Status, Delay, Reset or LoseAnswer; on the notifications channel Duplicate, Delay or Drop',
    request: faultRequest,
    responses: { 201: faultResponse, 400: messageResponse },
    control: true,
  },
  { method: 'get', path: '/_sandbox/faults', operationId: 'listFaults', summary: 'The fault rules, with their Hits', responses: { 200: faultsResponse }, control: true },
  { method: 'delete', path: '/_sandbox/faults', operationId: 'deleteFaults', summary: 'Delete every fault rule', responses: { 204: undefined }, control: true },
  { method: 'get', path: '/_sandbox/faults/{id}', operationId: 'getFault', summary: 'One fault rule, with its Hits', responses: { 200: faultResponse, 404: messageResponse }, control: true },
  { method: 'delete', path: '/_sandbox/faults/{id}', operationId: 'deleteFault', summary: 'Delete one fault rule', responses: { 204: undefined, 404: messageResponse }, control: true },
  {
    method: 'get',
    path: '/_sandbox/requests',
    operationId: 'listRequests',
    summary: 'The request journal, a page at a time (newest first unless SortDirection=asc): every /v1 request of both addresses and the payer’s buttons, with bodies, status, reason codes and near misses',
    query: [...REQUEST_FILTERS, 'PageSize', 'PageIndex', 'SortDirection'],
    responses: { 200: requestsResponse, 400: messageResponse },
    control: true,
  },
  { method: 'delete', path: '/_sandbox/requests', operationId: 'clearRequests', summary: 'Empty the request journal', responses: { 204: undefined, 400: messageResponse }, control: true },
  {
    method: 'get',
    path: '/_sandbox/requests/count',
    operationId: 'countRequests',
    summary: 'How many journal entries match the filters: {"Count": n}, to verify what an integration sent',
    query: [...REQUEST_FILTERS],
    responses: { 200: requestCountResponse, 400: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/requests/{requestId}',
    operationId: 'getRequest',
    summary: 'One request journal entry',
    responses: { 200: requestResponse, 400: messageResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/requests',
    operationId: 'listMerchantRequests',
    summary: 'The request journal of one marketplace: its own entries (its credentials’, its payment pages’ presses), with the same filters and paging; with Unauthenticated=true, the unauthenticated pool’s that claimed one of its SiteIDs',
    query: [...REQUEST_FILTERS, 'PageSize', 'PageIndex', 'SortDirection'],
    responses: { 200: requestsResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'delete',
    path: '/_sandbox/merchants/{siteId}/requests',
    operationId: 'clearMerchantRequests',
    summary: 'Empty the request journal of one marketplace (its own entries)',
    responses: { 204: undefined, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/requests/count',
    operationId: 'countMerchantRequests',
    summary: 'How many of one marketplace’s journal entries match the filters',
    query: [...REQUEST_FILTERS],
    responses: { 200: requestCountResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  {
    method: 'get',
    path: '/_sandbox/merchants/{siteId}/requests/{requestId}',
    operationId: 'getMerchantRequest',
    summary: 'One of a marketplace’s journal entries (with Unauthenticated=true, one of the pool’s that claimed one of its SiteIDs)',
    query: ['Unauthenticated'],
    responses: { 200: requestResponse, 400: messageResponse, 404: messageResponse },
    control: true,
    guard: 'own',
  },
  { method: 'get', path: '/_sandbox/openapi.json', operationId: 'getOpenApiDocument', summary: 'This document', query: ['surface'], responses: { 200: undefined, 400: messageResponse }, control: true },
];

/** The scenario of a payment created on the API address, chosen per request. */
const SCENARIO_HEADER = {
  name: 'X-Sandbox-Scenario',
  in: 'header',
  required: false,
  description: 'Sandbox only: the scenario the new payment follows (GET /_sandbox/scenarios lists them: two-step, payer-decides, …); refused with reason 2 when unknown.',
  schema: { type: 'string' },
};

const API: Operation[] = [
  {
    method: 'post',
    path: '/v1/payments',
    operationId: 'createPayment',
    summary: 'Create a payment, with or without splits (4.1)',
    request: createPaymentRequest,
    headers: [SCENARIO_HEADER],
    responses: { 201: paymentResponse, 400: paymentErrorResponse, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/payments',
    operationId: 'listPayments',
    summary: 'List payments (4.8)',
    query: ['pageSize', 'pageIndex', 'sortDirection', 'sortBy', 'typeID', ...listQuery],
    responses: { 200: listResponse, 400: listErrorResponse, 401: messageResponse },
  },
  { method: 'get', path: '/v1/payments/{id}', operationId: 'getPayment', summary: 'Get a payment', responses: { 200: paymentResponse, ...unauthorized } },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits',
    operationId: 'addSplits',
    summary: 'Add splits (4.2)',
    request: addSplitsRequest,
    responses: { 201: splitsResponse, 400: splitsErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/capture',
    operationId: 'capturePayment',
    summary: 'Capture in full (no body, 4.3) or with amounts per split (4.4); `amount` below the amount of a payment without splits captures that part (PartiallyCaptured, 35)',
    request: captureRequest,
    query: ['amount'],
    responses: { 200: paymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits/{splitId}/capture',
    operationId: 'captureSplit',
    summary: 'Capture one split (4.5)',
    query: ['amount'],
    responses: { 200: paymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/cancel',
    operationId: 'cancelPayment',
    summary: 'Cancel a payment (4.6)',
    responses: { 200: paymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits/{splitId}/refunds',
    operationId: 'refundSplit',
    summary: 'Refund a split (4.7)',
    request: refundRequest,
    responses: { 201: refundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/status',
    operationId: 'getPaymentStatus',
    summary: 'A payment’s current status: the payment as GET shows it',
    responses: { 200: paymentResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/refunds',
    operationId: 'refundPayment',
    summary: 'Refund a payment without splits as a whole (a payment with splits: reason 11, refund per split)',
    request: refundRequest,
    responses: { 201: refundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds',
    operationId: 'listRefunds',
    summary: 'The payment’s refunds, each in its current status (SplitID 0: a refund of the whole payment)',
    responses: { 200: refundsResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds/{refundId}',
    operationId: 'getRefund',
    summary: 'One refund of the payment, in its current status',
    responses: { 200: refundResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds/{refundId}/status',
    operationId: 'getRefundStatus',
    summary: 'One refund’s status: ID, InitialPaymentID, MerchantTransactionID and StateDetails (SDK-NET GetRefundStatusAsync)',
    responses: { 200: refundStatusResponse, ...unauthorized },
  },
];

/** The scenario of a preapproval, chosen per create request. */
const PREAPPROVAL_SCENARIO_HEADER = {
  name: 'X-Sandbox-Scenario',
  in: 'header',
  required: false,
  description: 'Sandbox only: the scenario the new preapproval follows: preapproval-opens (default: Open 2 s later), preapproval-declined or preapproval-payer-decides; refused with reason 2 when unknown.',
  schema: { type: 'string', enum: ['preapproval-opens', 'preapproval-declined', 'preapproval-payer-decides'] },
};

/** The recurring-payments API (preapprovals) and the official SDK's other reads. */
const PREAPPROVALS: Operation[] = [
  {
    method: 'post',
    path: '/v1/preapprovals',
    operationId: 'createPreapproval',
    summary: 'Create a preapproval (SDK preapproval_init): 201 Pending, with the payer page in RedirectURL',
    request: createPreapprovalRequest,
    headers: [PREAPPROVAL_SCENARIO_HEADER],
    responses: { 201: preapprovalResponse, 400: preapprovalErrorResponse, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/preapprovals',
    operationId: 'listPreapprovals',
    summary: 'The site’s preapprovals, newest first (SDK list_all)',
    query: ['limit', 'offset'],
    responses: { 200: preapprovalsResponse, 400: messageResponse, 401: messageResponse },
  },
  { method: 'get', path: '/v1/preapprovals/{id}', operationId: 'getPreapproval', summary: 'One preapproval (SDK preapproval_details)', responses: { 200: preapprovalResponse, ...unauthorized } },
  {
    method: 'patch',
    path: '/v1/preapprovals/{id}',
    operationId: 'changePreapproval',
    summary:
      'Change a Pending or Open preapproval (SDK-NET ChangePreapprovalAsync): 201, its status unchanged, with a RedirectURL; what is left out, null, 0 or "" is kept; a closed one: reason 12; another MethodID: reason 5',
    request: changePreapprovalRequest,
    responses: { 201: preapprovalResponse, 400: preapprovalErrorResponse, ...unauthorized },
  },
  {
    method: 'delete',
    path: '/v1/preapprovals/{id}',
    operationId: 'closePreapproval',
    summary: 'Close a Pending or Open preapproval (SDK preapproval_close): 200 ClosedByCustomer (4); a closed one: 400, reason 12',
    responses: { 200: preapprovalResponse, 400: preapprovalErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/preapprovals/{id}/payments',
    operationId: 'listPreapprovalPayments',
    summary: 'The recurring payments charged under a preapproval, newest first (SDK preapproval_payments)',
    query: ['pageSize', 'pageIndex'],
    responses: { 200: listResponse, 400: listErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/recurrent',
    operationId: 'createRecurringPayment',
    summary: 'Charge an Open preapproval (SDK payment_recurrent): 201, the payment Success at once with its PreapprovalID; reason 12 (the preapproval not Open), 13 (above its maximum)',
    request: recurrentPaymentRequest,
    responses: { 201: paymentResponse, 400: paymentErrorResponse, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds/types',
    operationId: 'getRefundTypes',
    summary: 'The refund types of the payment’s method (SDK refund_types)',
    responses: { 200: refundTypesResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/refunds/types/{methodId}/{country}/{currency}',
    operationId: 'getMethodRefundTypes',
    summary:
      'The refund types of a method in a country and currency (SDK-NET GetRefundTypesAsync): an empty list where a method of the catalogue does not take that country or currency; 400 for a country or currency that is no ISO code',
    responses: { 200: refundTypesResponse, 400: messageResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/exchangerates/{from}/{to}',
    operationId: 'getExchangeRate',
    summary: 'An exchange rate from the sandbox’s own table, fixtures/exchange-rates.json (SDK exchangerates)',
    responses: { 200: exchangeRateResponse, 400: messageResponse, 401: messageResponse, 404: messageResponse },
  },
];

/** The merchant sites API (docs-apm.nuvei.com "Websites API"; SDK-NET WebsiteManagementService). */
const MERCHANT_SITES: Operation[] = [
  {
    method: 'get',
    path: '/v1/merchantsites',
    operationId: 'listMerchantSites',
    summary: 'The calling site and the sites linked to it (a marketplace’s own sites), by SiteID',
    responses: { 200: merchantSitesResponse, 401: messageResponse },
  },
  {
    method: 'post',
    path: '/v1/merchantsites',
    operationId: 'createMerchantSite',
    summary: 'A new site of the calling marketplace: 201 with its own ApiKey, usable at once as credentials and as a split’s SiteID; URL missing: reason 1',
    request: merchantSiteRequest,
    responses: { 201: merchantSiteResponse, 400: merchantSiteErrorResponse, 401: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/merchantsites/{siteId}',
    operationId: 'getMerchantSite',
    summary: 'One site: the caller itself or a site linked to it (another’s, or a deleted one: 404)',
    responses: { 200: merchantSiteResponse, ...unauthorized },
  },
  {
    method: 'patch',
    path: '/v1/merchantsites/{siteId}',
    operationId: 'changeMerchantSite',
    summary: 'Change a site: what is sent (not null) replaces what it had, Details field by field; 200',
    request: merchantSiteRequest,
    responses: { 200: merchantSiteResponse, 400: merchantSiteErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/merchantsites/{siteId}/regenerateapikey',
    operationId: 'regenerateMerchantSiteApiKey',
    summary: 'A new ApiKey for the site: 200; the old key is refused (401) from then on',
    responses: { 200: merchantSiteResponse, ...unauthorized },
  },
  {
    method: 'delete',
    path: '/v1/merchantsites/{siteId}',
    operationId: 'deleteMerchantSite',
    summary: 'Delete a site: 200 with the site as it was; its key is refused (401) and no split may name it from then on; a marketplace itself: 400, reason 11',
    responses: { 200: merchantSiteResponse, 400: merchantSiteErrorResponse, ...unauthorized },
  },
];

/** The payer page of a preapproval's RedirectURL. */
const PREAPPROVAL_PAGE: Operation[] = [
  {
    method: 'get',
    path: '/Home/Preapproval',
    operationId: 'showPreapprovalPage',
    summary: 'The payer page of a Pending preapproval’s RedirectURL (HTML): Approve or Decline',
    query: ['PreapprovalToken'],
    responses: { 200: undefined, 404: undefined, 410: undefined },
    html: true,
  },
  {
    method: 'post',
    path: '/Home/Preapproval/{action}',
    operationId: 'pressPreapprovalPageButton',
    summary: 'A button of the preapproval page (form field PreapprovalToken): approve (Open) or decline (Closed); then 303 to ReturnURL',
    responses: { 303: undefined, 404: undefined, 410: undefined },
    html: true,
  },
];

/** The control API of preapprovals (on both addresses, as the rest of the control API). */
const PREAPPROVAL_CONTROL: Operation[] = [
  {
    method: 'get',
    path: '/_sandbox/preapprovals/{id}',
    operationId: 'inspectPreapproval',
    summary: 'A preapproval with its scenario, history, steps and recurring payments',
    responses: { 200: inspectedPreapprovalResponse, 404: messageResponse },
    control: true,
  },
  {
    method: 'post',
    path: '/_sandbox/preapprovals/{id}/events',
    operationId: 'applyPreapprovalEvent',
    summary: 'A provider or payer event on a preapproval: open, decline (Closed) or close (ClosedByCustomer)',
    request: preapprovalEventRequest,
    responses: { 200: preapprovalResponse, 400: messageResponse, 404: messageResponse },
    control: true,
  },
];

/** The methods API and the method logos its LogoURLs point to. */
const METHODS: Operation[] = [
  {
    method: 'get',
    path: '/v1/methods',
    operationId: 'listMethods',
    summary: 'Every active payment method (additionalDetails=true: with validators and options; country: available there)',
    query: ['country', 'additionalDetails'],
    responses: { 200: methodsResponse, 400: messageResponse, 401: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/methods/assigned',
    operationId: 'listAssignedMethods',
    summary: 'The payment methods assigned to the calling site',
    query: ['country', 'additionalDetails'],
    responses: { 200: methodsResponse, 400: messageResponse, 401: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/methods/{id}',
    operationId: 'getMethod',
    summary: 'One payment method, with its validators and options',
    responses: { 200: methodResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/images/methods/{file}',
    operationId: 'getMethodLogo',
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
    operationId: 'showPaymentPage',
    summary: 'The hosted payment page of RedirectURL (HTML): the payment and the buttons the payer may press; while it is open, the payment’s scenario steps wait for the payer',
    query: ['PaymentToken'],
    responses: { 200: undefined, 404: undefined, 410: undefined },
    html: true,
  },
  {
    method: 'post',
    path: '/Home/{action}',
    operationId: 'pressPaymentPageButton',
    summary: 'A button of the payment page (form field PaymentToken): pay, authorize, fail or cancel; then 303 to ReturnURL',
    responses: { 303: undefined, 404: undefined, 410: undefined },
    html: true,
  },
];

/** The merchant dashboard (HTML forms, session cookie). */
const DASHBOARD: Operation[] = [
  { method: 'get', path: '/dashboard/login', operationId: 'dashboardLoginForm', guard: 'open', summary: 'Merchant dashboard: the sign-in form (SiteID and APIKey)', responses: { 200: undefined }, html: true },
  { method: 'post', path: '/dashboard/login', operationId: 'dashboardLogin', guard: 'open', summary: 'Sign in: a session cookie (HttpOnly, SameSite=Lax), then 303 to the payments', responses: { 303: undefined, 401: undefined }, html: true },
  { method: 'post', path: '/dashboard/logout', operationId: 'dashboardLogout', summary: 'Sign out', responses: { 303: undefined }, html: true },
  { method: 'get', path: '/dashboard', operationId: 'dashboardPayments', summary: 'The merchant’s payments: a paged, filterable table', responses: { 200: undefined, 303: undefined, 400: undefined }, html: true },
  { method: 'get', path: '/dashboard/requests', operationId: 'dashboardRequests', summary: 'The merchant’s recent requests, near misses included, with their bodies', responses: { 200: undefined, 303: undefined }, html: true },
  { method: 'get', path: '/dashboard/settings', operationId: 'dashboardSettings', summary: 'Notification URL and default scenario', responses: { 200: undefined, 303: undefined }, html: true },
  { method: 'get', path: '/dashboard/preapprovals', operationId: 'dashboardPreapprovals', summary: 'The merchant’s preapprovals, with their status, recurring payments and history', responses: { 200: undefined, 303: undefined }, html: true },
  { method: 'post', path: '/dashboard/settings', operationId: 'dashboardSaveSettings', summary: 'Save the notification URL and default scenario', responses: { 303: undefined, 400: undefined }, html: true },
  { method: 'get', path: '/dashboard/payments/{id}', operationId: 'dashboardPayment', summary: 'One payment: splits, refunds, history, steps, notifications and attempts, and its actions', responses: { 200: undefined, 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/events', operationId: 'dashboardPaymentEvent', summary: 'Dashboard action events on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture', operationId: 'dashboardCapture', summary: 'Dashboard action capture on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture-split', operationId: 'dashboardCaptureSplit', summary: 'Dashboard action capture-split on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture-per-split', operationId: 'dashboardCapturePerSplit', summary: 'Dashboard action capture-per-split on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/cancel', operationId: 'dashboardCancel', summary: 'Dashboard action cancel on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/refund', operationId: 'dashboardRefund', summary: 'Dashboard action refund on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/refund-payment', operationId: 'dashboardRefundPayment', summary: 'Dashboard action refund-payment (a whole payment without splits); 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/card-capture', operationId: 'dashboardCardCapture', summary: 'Dashboard action card-capture (whole or part) on a card payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/card-cancel', operationId: 'dashboardCardCancel', summary: 'Dashboard action card-cancel on a card payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/card-refund', operationId: 'dashboardCardRefund', summary: 'Dashboard action card-refund (the payment or one split) on a card payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/splits', operationId: 'dashboardAddSplits', summary: 'Dashboard action splits on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'get', path: '/dashboard/payments/{id}/story', operationId: 'dashboardDownloadStory', summary: 'Download the payment’s story (a JSON file, as GET /_sandbox/payments/{id}/story gives it); 400 for a card payment, which has no story', responses: { 200: storyFile, 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/snapshot', operationId: 'dashboardSaveSnapshot', summary: 'Save a snapshot of the signed-in marketplace (form field Name; never a whole-sandbox one); 303 back to the payment, saved or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/notifications/{notificationId}/redeliver', operationId: 'dashboardRedeliverNotification', summary: 'Dashboard action notifications/:notificationId/redeliver on the payment; 303 back to its page, done or refused (the page then says which, once)', responses: { 303: undefined, 404: undefined }, html: true },
  { method: 'get', path: '/dashboard/payouts', operationId: 'dashboardCardPayouts', summary: 'The merchant’s card payouts (the latest 100, newest first)', responses: { 200: undefined, 303: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/challenge', operationId: 'dashboardChallenge', summary: 'Dashboard action challenge on a card payment (form field Event: hold, accept or reject); 303 back to its page, done or refused (the page then says which, once), or 400 for another Event', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/dispute', operationId: 'dashboardDispute', summary: 'Dashboard action dispute on a card payment (form field Event: open, win or lose, with DisputeID); 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
];

const CARD: Operation[] = [
  {
    method: 'post',
    path: '/v1/payments',
    operationId: 'createCardPayment',
    summary: 'Create a card payment',
    request: createCardPaymentRequest,
    responses: { 201: cardPaymentResponse, 400: paymentErrorResponse, 401: messageResponse, 413: messageResponse },
  },
  {
    method: 'get',
    path: '/v1/payments',
    operationId: 'listCardPayments',
    summary: 'List card payments (2.9)',
    query: ['limit', 'offset', ...listQuery],
    responses: { 200: cardListResponse, 400: listErrorResponse, 401: messageResponse },
  },
  { method: 'get', path: '/v1/payments/{id}', operationId: 'getCardPayment', summary: 'Get a card payment', responses: { 200: cardPaymentResponse, ...unauthorized } },
  {
    method: 'get',
    path: '/v1/payments/{id}/status',
    operationId: 'getCardPaymentStatus',
    summary: 'A card payment’s current status: the card payment as GET shows it',
    responses: { 200: cardPaymentResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/capture',
    operationId: 'captureCardPayment',
    summary:
      'Capture an Authorized card payment, whole (Captured, 11) or `amount` of it (PartiallyCaptured, 35), with no body; or, with {"Payment": {"Split": {"ID", "Amount"}}}, one split of a marketplace card payment (the answer adds Split with its CaptureDetails)',
    request: cardCaptureRequest,
    query: ['amount'],
    responses: { 200: cardCaptureResponse, 400: paymentErrorResponse, ...unauthorized },
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
    query: ['limit', 'offset', 'startDate', 'endDate', 'currency', 'minimumAmount', 'maximumAmount', 'merchantTransactionID', 'statusID'],
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
    operationId: 'cancelCardPayment',
    summary: 'Cancel an Authorized card payment (Cancelled, 3; QueuedForCanceling, 34, for test amount 10006)',
    responses: { 200: cardPaymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/challenge/accept',
    operationId: 'acceptCardChallenge',
    summary:
      'Accept the fraud challenge of a card payment held for one (PendingChallengeConfirmation, 30): it goes on as its authorization would have (Authorized, 9; CaptureRequested, 13, then Captured, when it asked for Capture); a payment not held is refused (1006)',
    responses: { 200: cardPaymentResponse, 400: paymentErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/challenge/reject',
    operationId: 'rejectCardChallenge',
    summary:
      'Reject the fraud challenge of a card payment held for one: answered 400 as the real host does, with the payment now Cancelled (3) and return code 118 "Challenge rejected"; a payment not held is refused (1006) and stays as it was',
    responses: { 400: { anyOf: [cardPaymentResponse, paymentErrorResponse] }, ...unauthorized },
    doneWith: 400,
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/refunds',
    operationId: 'refundCardPayment',
    summary: 'Refund a captured card payment, or one split of it (SplitID), optionally from one capture (CaptureID): Success at once (Open for test amount 10004)',
    request: cardRefundRequest,
    responses: { 201: cardRefundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}/splits/{splitId}/refunds',
    operationId: 'refundCardSplit',
    summary: 'Refund one split of a marketplace card payment (the PHP SDK’s split_refund, with the CaptureID of the split’s capture)',
    request: cardRefundRequest,
    responses: { 201: cardRefundResponse, 400: refundErrorResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds',
    operationId: 'listCardRefunds',
    summary: 'The card payment’s refunds, each in its current status',
    responses: { 200: cardRefundsResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds/{refundId}',
    operationId: 'getCardRefund',
    summary: 'One refund of the card payment, in its current status',
    responses: { 200: cardRefundResponse, ...unauthorized },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}/refunds/{refundId}/status',
    operationId: 'getCardRefundStatusOfPayment',
    summary: 'One card refund’s status: ID, InitialPaymentID, MerchantTransactionID and StateDetails (SDK-NET GetRefundStatusAsync)',
    responses: { 200: cardRefundStatusResponse, ...unauthorized },
  },
];

/** The hosted card form that a card payment's RedirectURL points to. */
const CARD_FORM: Operation[] = [
  {
    method: 'get',
    path: '/v1/Payments/FillCardDetails',
    operationId: 'showCardForm',
    summary: 'The hosted card form of RedirectURL (HTML): the card payment and the buttons the payer may press',
    query: ['PaymentToken'],
    responses: { 200: undefined, 404: undefined, 410: undefined },
    html: true,
  },
  {
    method: 'post',
    path: '/v1/Payments/FillCardDetails/{action}',
    operationId: 'pressCardFormButton',
    summary: 'A button of the card form (form field PaymentToken): authorize (a card entered), fail or cancel; then 303 to ReturnURL',
    responses: { 303: undefined, 404: undefined, 410: undefined },
    html: true,
  },
];

export function operations(surface: Surface): Operation[] {
  return [...(surface === 'api' ? [...API, ...PREAPPROVALS, ...MERCHANT_SITES, ...METHODS, ...PAYER, ...PREAPPROVAL_PAGE, ...DASHBOARD] : [...CARD, ...CARD_FORM]), ...CONTROL, ...PREAPPROVAL_CONTROL];
}

/** The guard of an operation, from its path unless it names its own. */
export function guardOf(op: Operation): Guard {
  if (op.guard) return op.guard;
  if (op.control) return UNGUARDED_CONTROL_PATH.test(op.path) ? 'open' : 'control';
  if (op.path.startsWith('/dashboard')) return 'session';
  return op.path.startsWith('/v1/') && !op.html ? 'basic' : 'open';
}
