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

const validator: Schema = {
  type: 'object',
  required: ['Source', 'Regex', 'Required'],
  additionalProperties: false,
  properties: { Source: { type: 'string', minLength: 1 }, Regex: { type: 'string' }, Required: { type: 'boolean' } },
};
const codes = (pattern: string): Schema => ({ type: 'array', uniqueItems: true, items: { type: 'string', pattern } });

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
          Flow: { type: 'string', enum: ['one-step', 'two-step', 'two-step-capture-requested', 'two-step-authorized-at-create', 'card'] },
          Details: { type: 'object' },
          // What the methods API shows (GET /v1/methods): all optional, so older catalogues still load.
          Logo: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*\\.(svg|gif|png)$' },
          Description: { type: 'string' },
          Countries: codes('^[A-Z]{2}$'),
          Currencies: codes('^[A-Z]{3}$'),
          Guaranteed: { type: 'boolean' },
          Active: { type: 'boolean' },
          SupportIframe: { type: 'boolean' },
          IframeWidth: { type: 'integer', minimum: 0, maximum: 32767 },
          IframeHeight: { type: 'integer', minimum: 0, maximum: 32767 },
          DetailsURL: { type: ['string', 'null'], pattern: '^https?://' },
          ValidatorsPayin: { type: 'array', items: validator },
          ValidatorsRecurrent: { type: 'array', items: validator },
          Options: {
            type: 'array',
            items: {
              type: 'object',
              required: ['ID', 'DisplayName'],
              additionalProperties: false,
              properties: { ID: siteId, DisplayName: { type: 'string', minLength: 1 }, Description: { type: 'string' }, Guaranteed: { type: 'boolean' } },
            },
          },
        },
      },
    },
  },
};

/** fixtures/exchange-rates.json: the sandbox's own rates, units of each currency for one unit of Base. */
export const exchangeRatesFixture: Schema = {
  type: 'object',
  required: ['Base', 'Rates'],
  additionalProperties: false,
  properties: {
    Description: { type: 'string' },
    Base: { type: 'string', pattern: '^[A-Z]{3}$' },
    Rates: {
      type: 'object',
      propertyNames: { pattern: '^[A-Z]{3}$' },
      additionalProperties: { type: 'string', pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$' },
    },
  },
};
