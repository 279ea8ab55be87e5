// Schemas of the fixture files, checked when they are loaded.
import type { Schema } from './common';

const siteId: Schema = { type: 'integer', minimum: 1, maximum: 2147483647 };
const url: Schema = { type: ['string', 'null'], pattern: '^https?://' };

export const merchantsFixture: Schema = {
  type: 'object',
  required: ['Merchants'],
  additionalProperties: false,
  properties: {
    Merchants: {
      type: 'array',
      items: {
        type: 'object',
        required: ['SiteID', 'APIKey', 'Name'],
        additionalProperties: false,
        properties: {
          SiteID: siteId,
          APIKey: { type: 'string', minLength: 1 },
          Name: { type: 'string' },
          NotificationURL: url,
          DefaultScenario: { type: ['string', 'null'] },
          LinkedSites: {
            type: 'array',
            items: {
              type: 'object',
              required: ['SiteID', 'Name'],
              additionalProperties: false,
              properties: { SiteID: siteId, Name: { type: 'string' }, APIKey: { type: 'string', minLength: 1 } },
            },
          },
        },
      },
    },
  },
};

export const methodsFixture: Schema = {
  type: 'object',
  required: ['Methods'],
  additionalProperties: false,
  properties: {
    Methods: {
      type: 'array',
      items: {
        type: 'object',
        required: ['ID', 'Name', 'Flow'],
        additionalProperties: false,
        properties: {
          ID: siteId,
          Name: { type: 'string' },
          Flow: { type: 'string', enum: ['one-step', 'two-step', 'two-step-capture-requested', 'card'] },
          Details: { type: 'object' },
        },
      },
    },
  },
};
