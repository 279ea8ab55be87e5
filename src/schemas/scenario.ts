// The schema of scenario files (scenarios/*.json).
import type { Schema } from './common';

/** What a step does: a provider or payer event, or an action of the merchant through the API. */
export const PROVIDER_ACTIONS = ['authorize', 'succeed', 'fail', 'expire', 'cancel', 'settle', 'refund-succeed', 'refund-fail'] as const;
export const MERCHANT_ACTIONS = ['capture', 'capture-splits', 'capture-split', 'merchant-cancel', 'refund', 'add-splits'] as const;

/** What a step waits for: the payment's creation, the step before it, or a merchant action through the API. */
export const TRIGGERS = ['created', 'previous', 'capture', 'cancel', 'refund', 'add-splits'] as const;

// At most 9 digits before the point: any such duration is a whole number of ms that the store holds.
const duration: Schema = { type: 'string', pattern: '^[0-9]{1,9}(\\.[0-9]{1,3})?(ms|s|m|h)$', description: 'e.g. "2s", "500ms", "1m"' };
const stepAmount: Schema = {
  anyOf: [
    { type: 'integer', minimum: 1 },
    { type: 'string', pattern: '^([0-9]{1,12}|[0-9]{1,3}(\\.[0-9]{1,2})?%)$' },
  ],
  description: 'Minor units, or a percentage of the split such as "50%"',
};

export const scenarioFile: Schema = {
  type: 'object',
  required: ['Name', 'Description', 'Steps'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    Name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$' },
    Description: { type: 'string', minLength: 1 },
    CaptureRequested: { type: 'boolean', description: 'A full capture first reports CaptureRequested (13)' },
    Steps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['Do'],
        additionalProperties: false,
        properties: {
          After: duration,
          On: { type: 'string', enum: [...TRIGGERS] },
          Do: { type: 'string', enum: [...PROVIDER_ACTIONS, ...MERCHANT_ACTIONS] },
          Split: { type: 'integer', minimum: 0 },
          Amount: stepAmount,
          Splits: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['Split'],
              additionalProperties: false,
              properties: { Split: { type: 'integer', minimum: 0 }, Amount: stepAmount },
            },
          },
          NewSplits: { type: 'array', minItems: 1, items: { type: 'object' } },
          Refund: { type: 'integer', minimum: 0, description: "refund-succeed / refund-fail: the payment's refund by index (0 = the first made)" },
          Description: { type: 'string', maxLength: 1024, description: "refund: the refund's Description" },
          MerchantTransactionID: { type: 'string', minLength: 1, maxLength: 128, description: "refund: the refund's MerchantTransactionID" },
        },
      },
    },
    Refunds: {
      type: 'object',
      additionalProperties: false,
      properties: { After: duration, Outcome: { type: 'string', enum: ['succeed', 'fail', 'none'] } },
    },
    Request: {
      type: 'object',
      description: 'A story: the create request of the payment it tells of ({"Payment": …}), which a replay sends again',
    },
    Story: {
      type: 'object',
      description: 'A story: where it comes from (PaymentID, SiteID, Scenario, Created) and the statuses it went through',
    },
  },
};
