// Response schemas of the recurring-payments API and the SDK's other reads (refund types, exchange
// rates): the OpenAPI document's, and what the tests check answers against.
import { type Schema, amountOut, exact, int, nint, nstr, nul, nullableTimestampOut, str, timestampOut } from './common';
import { cardAddressOut, customerOut, statusOut } from './responses';

// Status.ID 0 when the request was refused before a preapproval existed (SDK-NET reads it as a byte).
const rejectedStatus = exact({ ID: int, Info: nstr, Reasons: { type: 'array', minItems: 1, items: exact({ Code: int, Info: str }) } });

export const preapprovalOut = exact({
  ID: int,
  Created: timestampOut,
  MethodID: int,
  SiteID: int,
  MerchantPreapprovalID: str,
  RecurringPeriod: int,
  PreapprovedMaximumAmount: { ...amountOut, type: ['string', 'null'] },
  Currency: nstr,
  ReturnURL: nstr,
  Description: nstr,
  Customer: customerOut,
  BillingAddress: cardAddressOut,
  Status: { ...statusOut, description: '1 Pending, 2 Open, 3 Closed, 4 ClosedByCustomer' },
  RedirectURL: { type: ['string', 'null'], description: 'The payer page of a Pending preapproval' },
  MethodOptionID: int,
  PreapprovedFrequency: nul,
  MandateReference: nul,
});

export const preapprovalResponse = exact({ Preapproval: preapprovalOut });
export const preapprovalsResponse = exact({ Preapprovals: { type: 'array', items: preapprovalOut } });
export const preapprovalErrorResponse = exact({
  Preapproval: { type: 'object', required: ['ID', 'InvalidRequestID', 'Status'], properties: { ID: nint, InvalidRequestID: str, Status: rejectedStatus } },
});

const requirements: Schema = { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] }, description: 'The fields a refund of this type needs, each a regex (null: not needed)' };
export const refundTypesResponse = exact({
  RefundTypes: {
    type: 'array',
    items: exact({ Name: str, ID: int, AllowsPartialRefund: { type: 'boolean' }, AllowPartialRefund: { type: 'boolean' }, Customer: requirements, BillingAddress: requirements, BankAddress: requirements, Details: requirements }),
  },
});

export const exchangeRateResponse = exact({
  ExchangeRate: exact({ From: { type: 'string', pattern: '^[A-Z]{3}$' }, To: { type: 'string', pattern: '^[A-Z]{3}$' }, DateTime: timestampOut, Rate: { type: 'number', exclusiveMinimum: 0 } }),
});

/** `GET /_sandbox/preapprovals/{id}`: the preapproval with its scenario, history, steps and recurring payments. */
export const inspectedPreapprovalResponse = exact({
  Preapproval: preapprovalOut,
  Scenario: nstr,
  History: { type: 'array', items: exact({ At: timestampOut, StatusID: int, StatusInfo: str, Cause: str }) },
  Steps: {
    type: 'array',
    items: exact({ Action: str, Due: timestampOut, State: { type: 'string', enum: ['pending', 'done', 'skipped'] }, Outcome: nstr, Ran: nullableTimestampOut }),
  },
  PaymentIDs: { type: 'array', items: int },
});
