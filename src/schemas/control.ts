// JSON Schemas of the control API's requests.
import { PREAPPROVAL_EVENTS } from '../domain/preapproval.machine';
import { PAYMENT_EVENTS } from '../domain/payment.machine';
import type { Schema } from './common';

export const paymentEventRequest: Schema = {
  type: 'object',
  required: ['Event'],
  additionalProperties: false,
  properties: {
    Event: {
      type: 'string',
      enum: [...PAYMENT_EVENTS, 'dispute', 'challenge'],
      description:
        'dispute: the card holder disputes a Captured or PartiallyCaptured card payment (a chargeback); answered with the Dispute. challenge: the fraud check holds an Open or Authorized card payment for a challenge (PendingChallengeConfirmation, 30) until the merchant accepts or rejects it',
    },
  },
};

export const disputeEventRequest: Schema = {
  type: 'object',
  required: ['Event'],
  additionalProperties: false,
  properties: { Event: { type: 'string', enum: ['win', 'lose'], description: 'The dispute is won (DisputeWon, 23) or lost (DisputeLost, 24)' } },
};

export const preapprovalEventRequest: Schema = {
  type: 'object',
  required: ['Event'],
  additionalProperties: false,
  properties: { Event: { type: 'string', enum: [...PREAPPROVAL_EVENTS] } },
};

export const refundEventRequest: Schema = {
  type: 'object',
  required: ['Event'],
  additionalProperties: false,
  properties: { Event: { type: 'string', enum: ['succeed', 'fail'] } },
};

export const clockAdvanceRequest: Schema = {
  type: 'object',
  required: ['Seconds'],
  additionalProperties: false,
  properties: { Seconds: { type: 'number', minimum: 0, maximum: 31_536_000 } },
};

/** What a merchant's settings may be set to, on creation and by PATCH. */
const merchantSettings: Record<string, Schema> = {
  NotificationURL: { type: ['string', 'null'], maxLength: 2048, pattern: '^https?://[^\\s]+$' },
  DefaultScenario: { type: ['string', 'null'], maxLength: 64 },
  Clock: {
    type: 'string',
    enum: ['manual', 'sandbox'],
    description: "manual: the marketplace's own manual clock, starting at the sandbox's time (its payments' time moves only by its own advance); sandbox: the sandbox's clock",
  },
  NotifyStatuses: {
    type: ['array', 'null'],
    maxItems: 20,
    uniqueItems: true,
    items: { type: 'integer', enum: [1, 2, 3, 4, 5, 9, 11, 13, 23, 24, 33, 34, 35] },
    description: 'Status IDs notified (a dispute is Open 1, DisputeWon 23, DisputeLost 24); null for all',
  },
  Methods: {
    type: ['array', 'null'],
    maxItems: 500,
    uniqueItems: true,
    items: { type: 'integer', minimum: 1, maximum: 2147483647 },
    description: 'The method IDs assigned to the merchant (GET /v1/methods/assigned); null for every method',
  },
};

export const merchantPatchRequest: Schema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: merchantSettings,
};

export const notificationWaitQuery: Schema = {
  type: 'object',
  properties: { TimeoutMs: { type: 'string', pattern: '^[0-9]{1,6}$' }, Delivered: { type: 'string', enum: ['true', 'false'] } },
};

export const merchantCreateRequest: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Name: { type: 'string', minLength: 1, maxLength: 255 },
    LinkedSites: { type: 'integer', minimum: 0, maximum: 20 },
    ...merchantSettings,
  },
};

const FAULT_DELAY: Schema = {
  type: 'string',
  maxLength: 20,
  pattern: '^[0-9]{1,8}(\\.[0-9]{1,3})?(ms|s|m|h)$',
  description: 'A duration on the sandbox clock: 500ms, 2s, 1.5m, 1h (at most 24h)',
};
const ONLY_TRUE: Schema = { type: 'boolean', enum: [true] };

const faultMatch: Schema = {
  type: 'object',
  additionalProperties: false,
  description: 'All optional; every field given must match',
  properties: {
    Method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], description: 'api' },
    Path: {
      type: 'string',
      minLength: 2,
      maxLength: 300,
      pattern: '^/[^?#\\s]*$',
      description: 'api: a /v1 path of either address, or its template (/v1/payments/{id}/capture)',
    },
    SiteID: { type: 'integer', minimum: 1, maximum: 9999999999, description: 'The authenticated (api) or notified (notifications) site' },
    PaymentID: { type: 'integer', minimum: 1, maximum: 9007199254740991, description: 'The payment the path names (api) or notified (notifications)' },
    StatusID: { type: 'integer', minimum: 1, maximum: 99, description: 'notifications: the status notified' },
  },
};

/** A fault rule (POST /_sandbox/faults). The checks across fields are in src/faults/rules.ts. */
export const faultRequest: Schema = {
  type: 'object',
  required: ['Channel', 'Action'],
  additionalProperties: false,
  properties: {
    Channel: { type: 'string', enum: ['api', 'notifications'] },
    Match: faultMatch,
    Action: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      description: 'One of: api Status, Delay, Reset, LoseAnswer; notifications Duplicate, Delay, Drop',
      properties: {
        Status: { type: 'integer', enum: [500, 502, 503, 504, 429, 408], description: 'api: answer this status and do nothing' },
        Delay: FAULT_DELAY,
        Reset: { ...ONLY_TRUE, description: 'api: close the connection with no answer; nothing happens' },
        LoseAnswer: { ...ONLY_TRUE, description: 'api: commit the operation, then close the connection with no answer' },
        Duplicate: { type: 'integer', minimum: 2, maximum: 10, description: 'notifications: send it this many times in all' },
        Drop: { ...ONLY_TRUE, description: 'notifications: never send it (journal State dropped)' },
      },
    },
    Times: { type: 'integer', minimum: 1, maximum: 1000000, description: 'How many matches it acts on; absent: until deleted' },
    Probability: { type: 'number', minimum: 0, maximum: 1, description: 'Chance to act on a match (default 1); reproducible under --seed' },
  },
};
