// The merchant sites API (/v1/merchantsites, docs-apm.nuvei.com "Websites API"): its request and its
// answers. The request lists every property the official .NET SDK's MerchantSite class sends.
import { type Schema, exact, int, nstr, optText, str } from './common';
import { MERCHANT_SITE_DETAILS } from '../wire/merchant-sites';

const URL_PATTERN = '^$|^https?://[^\\s]+$';
const optUrl: Schema = { type: ['string', 'null'], maxLength: 2048, pattern: URL_PATTERN };

const reasonsIn: Schema = {
  type: ['array', 'null'],
  items: { type: 'object', additionalProperties: false, properties: { Code: { type: ['string', 'integer', 'null'] }, Info: nstr } },
  description: 'Answer-only: ignored',
};

const DETAIL_FIELDS = MERCHANT_SITE_DETAILS;

const detailsIn: Schema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    ID: { type: ['integer', 'null'], description: 'Answer-only: ignored' },
    Info: { ...nstr, description: 'Answer-only: ignored' },
    Reasons: reasonsIn,
    ...Object.fromEntries(DETAIL_FIELDS.map((k) => [k, k === 'Country' ? { 'x-reason': 120, type: ['string', 'null'], pattern: '^$|^[A-Z]{2}$' } : optText(255)])),
    // Fidelity: the documented create example sends MCC as a number.
    MCC: { type: ['string', 'integer', 'null'], maxLength: 16, minimum: 0, maximum: 9999 },
  },
};

/** Sent by the .NET SDK only when set (NullValueHandling.Ignore): accepted, not kept. */
const IGNORED_WHEN_SET = ['LegalName', 'LegalCompanyAddress', 'City', 'Email', 'BankName', 'BankAddress', 'AccountIBAN', 'AccountSWIFT', 'BankSWIFTID', 'BankCode', 'VATNumber', 'RegistrationNumber', 'Country', 'Logo'] as const;

const merchantSiteIn: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // Fidelity: the .NET SDK always sends MerchantID and ID (0), Created and ApiKey (null): what the service sets is not taken from a request.
    MerchantID: { type: ['integer', 'null'], description: 'Ignored: the merchant is the one whose credentials sent the request' },
    ID: { type: ['integer', 'null'], description: 'Ignored: the site is the one of the path (PATCH) or a new one (POST)' },
    Created: { ...nstr, description: 'Ignored' },
    URL: optUrl,
    Active: { type: ['boolean', 'null'], description: 'Kept and shown; false when a create leaves it out (as documented). The sandbox answers an inactive site as an active one' },
    NotificationURL: optUrl,
    ApiKey: { ...nstr, description: 'Ignored: the service makes the key (POST /v1/merchantsites/{id}/regenerateapikey makes a new one)' },
    Alias: optText(255),
    IPList: optText(1024),
    Details: detailsIn,
    Reasons: reasonsIn,
    ...Object.fromEntries(IGNORED_WHEN_SET.map((k) => [k, { ...optText(2048), description: 'Accepted and ignored' }])),
  },
};

/** `POST /v1/merchantsites` and `PATCH /v1/merchantsites/{siteId}`. */
export const merchantSiteRequest: Schema = {
  type: 'object',
  required: ['MerchantSite'],
  additionalProperties: false,
  properties: { MerchantSite: merchantSiteIn },
};

const detailsOut = exact({ Reasons: { type: 'null' }, ...Object.fromEntries(DETAIL_FIELDS.map((k) => [k, nstr])) });

export const merchantSiteOut = exact({
  MerchantID: { ...int, description: 'The SiteID of the marketplace the site belongs to (itself for a marketplace)' },
  ID: int,
  Created: { type: ['string', 'null'], pattern: '^[0-9]{14}$', description: 'null for a site not made through this API' },
  URL: nstr,
  Active: { type: 'boolean' },
  NotificationURL: nstr,
  ApiKey: { ...nstr, description: 'null for a linked site that has no key of its own' },
  Alias: nstr,
  IPList: nstr,
  Details: detailsOut,
});

export const merchantSiteResponse = exact({ MerchantSite: merchantSiteOut });
export const merchantSitesResponse = exact({ MerchantSites: { type: 'array', items: merchantSiteOut } });
export const merchantSiteErrorResponse = exact({
  MerchantSite: {
    type: 'object',
    required: ['MerchantID', 'ID', 'Reasons'],
    properties: { MerchantID: int, ID: int, InvalidRequestID: str, Reasons: { type: 'array', minItems: 1, items: exact({ Code: int, Info: str }) } },
  },
});
