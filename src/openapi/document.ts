// The OpenAPI 3.1 document of each address, built from the same schemas that validate requests and
// describe responses.
import type { Schema } from '../schemas/common';
import { REQUEST_EXAMPLES } from './examples';
import { clockAdvanceRequest, merchantCreateRequest, merchantPatchRequest, paymentEventRequest, refundEventRequest } from '../schemas/control';
import {
  addSplitsRequest,
  captureRequest,
  createCardPaymentRequest,
  createPaymentRequest,
  refundRequest,
} from '../schemas/requests';
import {
  cardListResponse,
  cardPaymentResponse,
  healthResponse,
  listErrorResponse,
  listResponse,
  merchantsResponse,
  messageResponse,
  paymentErrorResponse,
  paymentResponse,
  refundErrorResponse,
  refundResponse,
  splitsErrorResponse,
  splitsResponse,
} from '../schemas/responses';

export type Surface = 'api' | 'card';

export interface Operation {
  method: 'get' | 'post' | 'patch';
  path: string;
  summary: string;
  request?: Schema;
  /** Status code → response schema (undefined: a body of no fixed shape). */
  responses: Record<number, Schema | undefined>;
  query?: string[];
  control?: boolean;
  /** An HTML page for people (the hosted payment page), not JSON. */
  html?: boolean;
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
    summary: 'A payment with its scenario, history, steps and refunds',
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
    method: 'post',
    path: '/_sandbox/payments/{id}/events',
    summary: 'Apply a provider or payer event',
    request: paymentEventRequest,
    responses: { 200: paymentResponse, 400: messageResponse, 404: messageResponse },
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
    method: 'get',
    path: '/_sandbox/notifications',
    summary: 'The notification journal',
    query: ['PaymentID', 'RefundID', 'StatusID', 'State'],
    responses: { 200: undefined, 400: messageResponse },
    control: true,
  },
  {
    method: 'get',
    path: '/_sandbox/notifications/wait',
    summary: 'Wait until a matching notification was delivered',
    query: ['PaymentID', 'RefundID', 'StatusID', 'TimeoutMs'],
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
  { method: 'get', path: '/_sandbox/openapi.json', summary: 'This document', query: ['surface'], responses: { 200: undefined }, control: true },
];

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
];

/** The hosted payment page that RedirectURL points to. */
const PAYER: Operation[] = [
  {
    method: 'get',
    path: '/Home',
    summary: 'The hosted payment page of RedirectURL (HTML): the payment and the buttons the payer may press',
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
  { method: 'post', path: '/dashboard/settings', summary: 'Save the notification URL and default scenario', responses: { 303: undefined, 400: undefined }, html: true },
  { method: 'get', path: '/dashboard/payments/{id}', summary: 'One payment: splits, refunds, history, steps, notifications and attempts, and its actions', responses: { 200: undefined, 303: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/events', summary: 'Dashboard action events on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture', summary: 'Dashboard action capture on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture-split', summary: 'Dashboard action capture-split on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/capture-per-split', summary: 'Dashboard action capture-per-split on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/cancel', summary: 'Dashboard action cancel on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/refund', summary: 'Dashboard action refund on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
  { method: 'post', path: '/dashboard/payments/{id}/splits', summary: 'Dashboard action splits on the payment; 303 back to its page, or 400 with the reason', responses: { 303: undefined, 400: undefined, 404: undefined }, html: true },
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
];

export function operations(surface: Surface): Operation[] {
  return [...(surface === 'api' ? [...API, ...PAYER, ...DASHBOARD] : CARD), ...CONTROL];
}

const json = (schema: Schema | undefined, example?: unknown) => ({
  'application/json': { schema: schema ?? {}, ...(example === undefined ? {} : { example }) },
});

export function openApiDocument(surface: Surface, serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations(surface)) {
    const params = [
      ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: m[1] === 'action' ? 'string' : 'integer' } })),
      ...(op.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
    ];
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.html ? (op.path.startsWith('/dashboard') ? 'merchant dashboard' : 'payment page') : op.control ? 'sandbox control' : surface === 'api' ? 'split payments' : 'card payments'],
      ...(op.control ? {} : { security: [{ basic: [] }] }),
      ...(params.length ? { parameters: params } : {}),
      ...(op.request
        ? { requestBody: { required: false, content: json(op.request, REQUEST_EXAMPLES[`${op.method.toUpperCase()} ${op.path} ${op.control ? 'control' : surface}`]) } }
        : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([code, schema]) => [
          code,
          { description: `HTTP ${code}`, ...(code === '303' ? {} : { content: op.html ? { 'text/html': {} } : json(schema) }) },
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
