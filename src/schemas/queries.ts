// Query parameters as the services check them: their JSON Schemas and descriptions, for the document.
import { CATALOGUE_STATUS_IDS } from '../domain/statuses';
import { COUNTRIES, CURRENCIES } from './codes';
import { INT32_MAX, type Schema } from './common';

/** The largest page of the payment lists (pageSize, limit). */
export const MAX_PAGE_SIZE = 1000;
/** The largest page of the notification journal (PageSize). */
export const MAX_JOURNAL_PAGE_SIZE = 1000;

/** The delivery states of a notification in the journal. */
export const NOTIFICATION_STATES = ['pending', 'delivered', 'failed', 'no-url', 'dropped'] as const;

export interface QueryParameter {
  schema: Schema;
  description: string;
}

const whole = (minimum: number, maximum: number, description: string): QueryParameter => ({ schema: { type: 'integer', minimum, maximum }, description });
const stamp = (description: string): QueryParameter => ({ schema: { type: 'string', pattern: '^[0-9]{14}$' }, description });
const direction = (description: string): QueryParameter => ({ schema: { type: 'string', enum: ['asc', 'desc'] }, description });

/** Every query parameter of the document, by its name in the document. Names are matched case-insensitively. */
export const QUERY_PARAMETERS: Record<string, QueryParameter> = {
  // The payment lists (GET /v1/payments on both addresses).
  pageSize: whole(1, MAX_PAGE_SIZE, `Payments per page, 1 to ${MAX_PAGE_SIZE} (default: the sandbox's page size, 10 unless configured)`),
  pageIndex: whole(1, INT32_MAX, 'The page, counted from 1'),
  sortDirection: direction('asc or desc (any case); desc, newest first, when absent'),
  sortBy: { schema: { type: 'string', enum: ['merchanttransactionid', 'inputdatetime', 'amount'] }, description: 'Sort by MerchantTransactionID, InputDateTime or Amount (any case); by ID when absent' },
  typeID: whole(1, 2, '1: payments; 2: refunds (none are listed)'),
  startDate: stamp('Created at or after this sandbox time: yyyyMMddHHmmss, UTC'),
  endDate: stamp('Created at or before this sandbox time (the whole second): yyyyMMddHHmmss, UTC'),
  methodID: whole(1, INT32_MAX, 'Paid with this payment method'),
  statusID: { schema: { type: 'integer', enum: [...CATALOGUE_STATUS_IDS].sort((a, b) => a - b) }, description: 'In this status: a status ID of the catalogue' },
  currency: { schema: { type: 'string', enum: CURRENCIES }, description: 'ISO 4217 currency code (any case)' },
  country: { schema: { type: 'string', enum: COUNTRIES }, description: 'ISO 3166-1 alpha-2 country code (any case)' },
  minimumAmount: { schema: { type: 'string', pattern: '^[0-9]{1,12}$' }, description: 'Amount at least this, in minor units (digits)' },
  maximumAmount: { schema: { type: 'string', pattern: '^[0-9]{1,12}$' }, description: 'Amount at most this, in minor units (digits)' },
  merchantTransactionID: { schema: { type: 'string' }, description: 'The merchant’s own ID of the payment, exactly' },
  methodTransactionID: { schema: { type: 'string' }, description: 'The payment method’s ID of the payment, exactly' },
  limit: whole(1, MAX_PAGE_SIZE, `Card payments per page, 1 to ${MAX_PAGE_SIZE} (default: the sandbox's page size); preapprovals listed (default 50)`),
  offset: whole(0, INT32_MAX, 'Card payments (or preapprovals) to skip, newest first'),
  // Captures (a split's on the API address, a card payment's on the card address).
  amount: { schema: { type: 'string', pattern: '^(?!0+$)[0-9]{1,12}$' }, description: 'The amount to capture in minor units (1 to 12 digits, more than 0); the whole amount when absent' },
  // The methods API.
  additionalDetails: { schema: { type: 'boolean' }, description: 'true (or 1): each method with its validators and options' },
  // The payer pages.
  PaymentToken: { schema: { type: 'string' }, description: 'The token of the payment’s RedirectURL' },
  PreapprovalToken: { schema: { type: 'string' }, description: 'The token of the preapproval’s RedirectURL' },
  // The notification journal (control API).
  PaymentID: whole(1, INT32_MAX, 'Of this payment'),
  RefundID: whole(1, INT32_MAX, 'Of this refund'),
  PreapprovalID: whole(1, INT32_MAX, 'Of this preapproval'),
  PayoutID: whole(1, INT32_MAX, 'Of this card payout'),
  StatusID: whole(1, INT32_MAX, 'Announcing this status'),
  State: { schema: { type: 'string', enum: [...NOTIFICATION_STATES] }, description: 'In this delivery state' },
  PageSize: whole(1, MAX_JOURNAL_PAGE_SIZE, `Notifications per page, 1 to ${MAX_JOURNAL_PAGE_SIZE} (default 100)`),
  PageIndex: whole(1, INT32_MAX, 'The page, counted from 1'),
  SortDirection: direction('asc or desc (any case); desc, newest first, when absent'),
  TimeoutMs: whole(0, 999999, 'How long to wait, in real milliseconds (default 10000); 408 when nothing matched by then'),
  Delivered: { schema: { type: 'boolean' }, description: 'true: only a delivered notification will do' },
  // The request journal (control API): PaymentID, RefundID and the paging as above.
  SiteID: whole(1, INT32_MAX, 'Of this site (as it authenticated, or tried to)'),
  Method: { schema: { type: 'string', pattern: '^[A-Za-z]{1,16}$' }, description: 'With this HTTP method (any case)' },
  Route: { schema: { type: 'string' }, description: 'On this route template, such as /v1/payments/{id}/capture (any case)' },
  Path: { schema: { type: 'string' }, description: 'On this path as sent, without its query string (any case)' },
  Status: whole(100, 599, 'Answered with this HTTP status'),
  ReasonCode: whole(1, INT32_MAX, 'Answered with this reason code'),
  Address: { schema: { type: 'string', enum: ['api', 'card'] }, description: 'Made on this address' },
  NearMiss: { schema: { type: 'boolean' }, description: 'true: only near misses (no route matched, the credentials failed, or the body had members the API does not read); false: none of them' },
  Unauthenticated: {
    schema: { type: 'boolean' },
    description:
      'true: only the unauthenticated pool’s entries (their credentials failed: they belong to no one); false: none of them. A marketplace’s own journal lists its own entries, and with true only the pool’s that named one of its SiteIDs',
  },
  Since: stamp("Made at or after this sandbox time (the marketplace's own clock's, when it has one): yyyyMMddHHmmss, UTC"),
  Until: stamp("Made at or before this sandbox time (the marketplace's own clock's, when it has one): yyyyMMddHHmmss, UTC"),
  // The document itself.
  surface: { schema: { type: 'string', enum: ['api', 'card'] }, description: 'Which address’s document: api (default) or card' },
};
