// JSON Schemas of the control API's requests.
import { PAYMENT_EVENTS } from '../domain/payment.machine';
import type { Schema } from './common';

export const paymentEventRequest: Schema = {
  type: 'object',
  required: ['Event'],
  additionalProperties: false,
  properties: { Event: { type: 'string', enum: [...PAYMENT_EVENTS] } },
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

export const merchantPatchRequest: Schema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    NotificationURL: { type: ['string', 'null'], maxLength: 2048, pattern: '^https?://[^\\s]+$' },
    DefaultScenario: { type: ['string', 'null'], maxLength: 64 },
    NotifyStatuses: { type: ['array', 'null'], maxItems: 20, uniqueItems: true, items: { type: 'integer', enum: [2, 3, 4, 5, 9, 13, 35] }, description: 'Status IDs notified; null for all' },
  },
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
    NotificationURL: { type: ['string', 'null'], maxLength: 2048, pattern: '^https?://[^\\s]+$' },
    DefaultScenario: { type: ['string', 'null'], maxLength: 64 },
    NotifyStatuses: { type: ['array', 'null'], maxItems: 20, uniqueItems: true, items: { type: 'integer', enum: [2, 3, 4, 5, 9, 13, 35] }, description: 'Status IDs notified; null for all' },
  },
};
