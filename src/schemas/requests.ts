// JSON Schemas of every request body. They validate requests and describe them in the OpenAPI document.
import {
  type Schema,
  amountIn,
  countryIn,
  currencyIn,
  id32,
  optText,
  text,
} from './common';

// Fidelity: the official .NET SDK serialises every property of its request classes (nulls, `"ID":0`), and
// its integration tests pass against the real test host; so each of them is named here, with what the
// sandbox makes of it, and none is a near miss or refused under --strict-fields.

/** A member accepted and not acted on (`what` says what it is). */
const ignored = (type: string | string[], what: string): Schema => ({ type, description: `${what}; accepted and ignored by the sandbox` });
/** The record ID the .NET SDK sends on a create (0): nothing is looked up by it. */
const sdkId: Schema = { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, description: 'Ignored on a request (the .NET SDK sends 0)' };
const flag = (what: string): Schema => ignored(['boolean', 'null'], what);

/** The longest MerchantTransactionID the API takes. */
export const MTID_MAX = 128;

export const customerIn: Schema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    ID: sdkId,
    MerchantCustomerID: optText(255),
    // Fidelity: "" is taken (and echoed) as the documented preapproval example and the SDK's own sample send it.
    Email: { 'x-reason': 102, type: ['string', 'null'], maxLength: 255, pattern: '^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
    FirstName: optText(255),
    LastName: optText(255),
    Gender: optText(32),
    SocialSecurityNumber: optText(64),
    Phone: optText(64),
    Company: optText(255),
    DateOfBirth: optText(32),
  },
};

export const addressIn: Schema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    ID: sdkId,
    City: optText(255),
    ZipCode: optText(32),
    State: optText(255),
    Street: optText(255),
    StreetNumber: optText(32),
    HouseNumber: optText(32),
    HouseExtension: optText(32),
    Country: countryIn,
  },
};

export const splitIn: Schema = {
  type: 'object',
  required: ['SiteID', 'Amount', 'MerchantTransactionID'],
  additionalProperties: false,
  properties: {
    SiteID: id32,
    Amount: amountIn,
    MerchantTransactionID: { type: 'string', minLength: 1, maxLength: MTID_MAX },
    OriginatorTransactionID: optText(MTID_MAX),
  },
};

const MAX_SPLITS = 100;
const splitsIn: Schema = { type: 'array', minItems: 1, maxItems: MAX_SPLITS, items: splitIn };

const methodIds: Schema = { type: ['array', 'null'], maxItems: 100, items: id32 };

/** Bounds of a whole JSON number the sandbox can keep and echo exactly. */
const exactWhole = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/** Decimal figures of an article, as the .NET SDK writes them ("1000") or as JSON numbers. */
const articleFigure: Schema = { type: ['string', 'integer', 'null'], maxLength: 32, ...exactWhole };

/** An article of the basket (Klarna's methods read them on the real service; the sandbox shows them back). */
const articlesItems: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    MerchantArticleID: optText(255),
    Name: optText(255),
    Quantity: { type: ['integer', 'null'], ...exactWhole },
    Price: articleFigure,
    VAT: articleFigure,
    Discount: articleFigure,
    DiscountValue: articleFigure,
    Type: { type: ['integer', 'null'], ...exactWhole },
    TaxType: { type: ['integer', 'null'], ...exactWhole },
  },
};
const articles = (description: string): Schema => ({ type: ['array', 'null'], maxItems: 1000, description, items: articlesItems });
/** Articles the answer shows back as sent (a payment create, a refund on the API address). */
const articlesEchoed = articles('The basket; shown back as sent (every member of an article, null where not sent)');
/** Articles accepted and not kept. */
const articlesIn = articles('The basket; accepted and ignored by the sandbox');

const stringsOf = (names: string[]): Record<string, Schema> => Object.fromEntries(names.map((n) => [n, optText(1024)]));

/** The payer's account details sent with a create (the .NET SDK's PaymentCustomerDetails). */
const paymentDetailsIn: Schema = {
  type: ['object', 'null'],
  additionalProperties: false,
  description: "The payer's details for the method; shown back in the payment's Details (its members of 2.6), ReferenceNumber also in ReferenceDetails",
  properties: {
    ...stringsOf(['AccountNumber', 'AccountHolder', 'IBAN', 'BIC', 'PrepaidCard', 'PrepaidCardPIN', 'SerialNumbers', 'Wallet', 'ReferenceNumber', 'PayerCountry', 'PayerEmail', 'PayerPhone', 'BankCode', 'BankName', 'BankSortCode', 'SocialSecurityNumber', 'BillingCycleStart', 'BillingCycleEnd', 'UnsubscribeInstructions', 'StoreName', 'StoreID', 'TerminalID']),
    IsOffline: { type: ['boolean', 'null'] },
  },
};

/** A refund's bank details (the .NET SDK's RefundDetails). */
const refundDetailsIn: Schema = {
  type: ['object', 'null'],
  additionalProperties: false,
  description: 'Where the money goes back to, for methods that need it; accepted and ignored by the sandbox',
  properties: stringsOf(['CustomerAccountNumber', 'CPFAccountHolder', 'BankName', 'BankCode', 'BankAgencyCode', 'BankAccountNumber', 'BankSWIFTID', 'BankSortCode', 'CustomerIBAN', 'BankAccountType', 'BankBranch']),
};

/** Members of an APM create that the sandbox accepts without acting on them. */
const apmExtras: Record<string, Schema> = {
  ID: sdkId,
  Language: { ...optText(16), description: 'The payment page language; accepted and ignored by the sandbox' },
  Guaranteed: flag('Ask for a guaranteed payment'),
  RedirectInIframe: flag('The payment page opens in an iframe'),
  RedirectMerchantInIframe: flag('The return page opens in an iframe'),
  Details: paymentDetailsIn,
  CardDetails: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'Card details on the API address; accepted and ignored (cards are paid on the card address)',
    properties: { ID: sdkId, ...stringsOf(['HolderName', 'Number', 'Type', 'ExpirationMonth', 'ExpirationYear', 'SecurityCode', 'Installments']) },
  },
  PreapprovalDetails: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'Preapproval terms sent with a payment; shown back as sent in the payment\'s PreapprovalDetails',
    properties: {
      PreapprovedMaximumAmount: { type: ['integer', 'null'], minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      MerchantPreapprovalID: optText(MTID_MAX),
      Frequency: optText(64),
      PreapprovalDescription: optText(1024),
    },
  },
};

export const paymentIn: Schema = {
  type: 'object',
  required: ['MerchantTransactionID', 'Amount', 'Currency', 'ReturnURL'],
  additionalProperties: false,
  properties: {
    MerchantTransactionID: { type: 'string', minLength: 1, maxLength: MTID_MAX },
    OriginatorTransactionID: optText(MTID_MAX),
    Amount: amountIn,
    Currency: currencyIn,
    // Fidelity: the official PHP SDK sends 0 for a MethodID or MethodOptionID not set: 0 means none chosen.
    MethodID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, description: '0 or null: none chosen (the payer chooses on the payment page)' },
    MethodOptionID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, description: '0 or null: none' },
    SkinID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 },
    ClientIP: optText(64),
    ReturnURL: { type: 'string', minLength: 1, maxLength: 2048, pattern: '^https?://[^\\s]+$' },
    Description: optText(1024),
    TokenLifetime: { type: ['integer', 'null'], minimum: 1, maximum: 525600, description: 'Minutes' },
    Customer: customerIn,
    BillingAddress: addressIn,
    ShippingAddress: addressIn,
    IncludeMethodIDs: methodIds,
    ExcludeMethodIDs: methodIds,
    PrioritizeMethodIDs: methodIds,
    Articles: articlesEchoed,
    CustomParameters: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] }, description: 'Name/value pairs; accepted and ignored by the sandbox' },
    Capture: { type: ['boolean', 'null'], description: 'true: a two-step method captures the payment as soon as it is authorized (one capture of the whole amount); null or false: the merchant captures' },
    ...apmExtras,
    PreapprovalID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, description: 'Only on POST /v1/payments/recurrent: the Open preapproval charged' },
    Splits: splitsIn,
  },
};

/** `POST /v1/payments/recurrent`: a payment charged under an Open preapproval (SDK-PHP payment_recurrent). */
export const recurrentPaymentRequest: Schema = {
  type: 'object',
  required: ['Payment'],
  additionalProperties: false,
  properties: {
    Payment: {
      ...paymentIn,
      // The SDK makes PreapprovalID, MerchantTransactionID, Amount, Currency and Customer.Email mandatory; no ReturnURL (the payer is not there).
      required: ['PreapprovalID', 'MerchantTransactionID', 'Amount', 'Currency'],
      properties: { ...(paymentIn.properties as object), PreapprovalID: id32, ReturnURL: { type: ['string', 'null'], maxLength: 2048, pattern: '^$|^https?://[^\\s]+$' } },
    },
  },
};

/** `POST /v1/preapprovals` (SDK-PHP preapproval_init; docs-apm.nuvei.com "Create a Preapproval"). */
export const createPreapprovalRequest: Schema = {
  type: 'object',
  required: ['Preapproval'],
  additionalProperties: false,
  properties: {
    Preapproval: {
      type: 'object',
      required: ['MerchantPreapprovalID', 'MethodID'],
      additionalProperties: false,
      properties: {
        MerchantPreapprovalID: { type: 'string', minLength: 1, maxLength: MTID_MAX },
        // Fidelity: the PHP SDK sends 0 (and "" for Currency) for what was not set: 0 and "" mean none.
        MethodID: { type: 'integer', minimum: 0, maximum: 2147483647, description: 'A method of the catalogue (0: missing, reason 1)' },
        MethodOptionID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 },
        RecurringPeriod: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 },
        PreapprovedMaximumAmount: {
          'x-reason': 118,
          description: 'Minor units; 0 or null: no maximum',
          anyOf: [{ type: 'integer', minimum: 0, maximum: 999999999999 }, { type: 'string', pattern: '^[0-9]{1,12}$' }, { type: 'null' }],
        },
        Currency: { 'x-reason': 100, anyOf: [currencyIn, { type: 'string', maxLength: 0 }, { type: 'null' }] },
        ReturnURL: { type: ['string', 'null'], maxLength: 2048, pattern: '^$|^https?://[^\\s]+$' },
        Description: optText(255),
        ExecutionDate: optText(32),
        Customer: customerIn,
        BillingAddress: addressIn,
      },
    },
  },
};

/**
 * `PATCH /v1/preapprovals/{id}` (docs-apm.nuvei.com "Change a Preapproval"; SDK-NET ChangePreapprovalAsync):
 * the create's fields, none required; what is left out, null, 0 or "" keeps what the preapproval has.
 */
export const changePreapprovalRequest: Schema = {
  type: 'object',
  required: ['Preapproval'],
  additionalProperties: false,
  properties: {
    Preapproval: {
      ...(createPreapprovalRequest.properties as { Preapproval: Schema }).Preapproval,
      required: [],
    },
  },
};

/** `POST /v1/payments` on the API address. */
export const createPaymentRequest: Schema = {
  type: 'object',
  required: ['Payment'],
  additionalProperties: false,
  properties: { Payment: paymentIn },
};

/** `POST /v1/payments/{id}/splits`. */
export const addSplitsRequest: Schema = {
  type: 'object',
  required: ['Splits'],
  additionalProperties: false,
  properties: { Splits: splitsIn },
};

/** Every member of a payment create, ignored on a capture (Splits aside). */
function captureIgnored(): Record<string, Schema> {
  const names = Object.keys(paymentIn.properties as object).filter((n) => n !== 'Splits');
  return Object.fromEntries(names.map((n) => [n, { description: 'Ignored on a capture (the amount is the query’s `amount`, else the whole payment)' }]));
}

/** `POST /v1/payments/{id}/capture` with a body: amounts per split (JSON numbers; digit strings accepted). */
export const captureRequest: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Payment: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        // The .NET SDK's capture with a body sends a whole payment request (nulls, and Articles to capture).
        ...captureIgnored(),
        Splits: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_SPLITS,
          items: {
            type: 'object',
            required: ['ID', 'Amount'],
            additionalProperties: false,
            properties: { ID: id32, Amount: amountIn },
          },
        },
      },
    },
  },
};

/** `POST /v1/payments/{id}/splits/{splitId}/refunds`. */
/** What the .NET SDK's refund class sends besides the fields a refund reads: accepted, and ignored. */
const SDK_REFUND_FIELDS = {
  ID: sdkId,
  Details: refundDetailsIn,
  Customer: customerIn,
  BillingAddress: addressIn,
  BankAddress: addressIn,
  Articles: articlesIn,
  TokenLifetime: { type: ['integer', 'null'], minimum: 0, maximum: 525600, description: 'Accepted and ignored by the sandbox' },
} satisfies Record<string, Schema>;

export const refundRequest: Schema = {
  type: 'object',
  required: ['Refund'],
  additionalProperties: false,
  properties: {
    Refund: {
      type: 'object',
      required: ['Amount'],
      additionalProperties: false,
      properties: {
        MerchantTransactionID: { type: ['string', 'null'], minLength: 1, maxLength: MTID_MAX },
        OriginatorTransactionID: optText(MTID_MAX),
        Amount: amountIn,
        Description: optText(1024),
        ...SDK_REFUND_FIELDS,
        // Shown back on the refund (the card address's refunds do not keep them).
        Articles: articlesEchoed,
      },
    },
  },
};

/** A credit card token (a card authentication's), with the card's security code when one is asked. */
const creditCardTokenIn: Schema = {
  type: 'object',
  required: ['Value'],
  additionalProperties: false,
  properties: {
    Value: { type: 'string', pattern: '^[0-9A-Fa-f]{32}$' },
    SecurityCode: { type: ['string', 'null'], pattern: '^[0-9]{3,4}$' },
    RequireSecurityCode: flag('Whether the security code must be given'),
  },
};

/** What the .NET SDK's card details carry besides the card itself. */
const cardExtras: Record<string, Schema> = {
  RequireSecurityCode: flag('false: the card is charged without its security code'),
  Token: ignored(['string', 'null'], 'A card token'),
  MaskedNumber: ignored(['string', 'null'], 'The masked number'),
};

/** `POST /v1/payments` on the card address. */
export const createCardPaymentRequest: Schema = {
  type: 'object',
  required: ['Payment'],
  additionalProperties: false,
  properties: {
    Payment: {
      type: 'object',
      // Without Card the payer enters the card on the hosted card form (RedirectURL).
      required: ['MerchantTransactionID', 'Amount', 'Currency'],
      additionalProperties: false,
      properties: {
        MerchantTransactionID: { type: 'string', minLength: 1, maxLength: MTID_MAX },
        OriginatorTransactionID: optText(MTID_MAX),
        Amount: amountIn,
        Currency: currencyIn,
        MethodID: { type: ['integer', 'null'], enum: [6, null], description: 'Cards are method 6' },
        MethodOptionID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 },
        SkinID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 },
        ClientIP: optText(64),
        ReturnURL: { type: ['string', 'null'], maxLength: 2048, pattern: '^https?://[^\\s]+$' },
        Description: optText(1024),
        StatementDescriptor: optText(64),
        Customer: customerIn,
        BillingAddress: addressIn,
        ShippingAddress: addressIn,
        Card: {
          type: 'object',
          required: ['HolderName', 'Number', 'ExpirationMonth', 'ExpirationYear'],
          additionalProperties: false,
          properties: {
            HolderName: text(255),
            Number: { type: 'string', pattern: '^[0-9]{12,19}$' },
            ExpirationMonth: { type: 'string', pattern: '^(0?[1-9]|1[0-2])$' },
            ExpirationYear: { type: 'string', pattern: '^[0-9]{4}$' },
            SecurityCode: { type: ['string', 'null'], pattern: '^[0-9]{3,4}$' },
            ...cardExtras,
          },
        },
        Capture: { type: ['boolean', 'null'] },
        Retry: { type: ['boolean', 'null'], description: 'Accepted and echoed; the sandbox does not retry' },
        CreditCardToken: { ...creditCardTokenIn, description: 'Instead of Card: the token of a card authentication (POST /v1/card/authenticate)' },
        GenerateCreditCardToken: { type: ['boolean', 'null'], description: 'true: the answer carries a CreditCardToken for the card, as a card authentication gives one' },
        ThreeDSecureCheck: { type: ['boolean', 'null'], description: 'true: the payer confirms the card on the hosted card form (Open, with a RedirectURL)' },
        '3DSecure': { type: ['boolean', 'null'], description: 'The .NET SDK’s name of ThreeDSecureCheck' },
        Language: ignored(['string', 'null'], 'The card form language'),
        Installments: { type: ['integer', 'null'], minimum: 0, maximum: 32767, description: 'Accepted and ignored by the sandbox (0: none)' },
        Articles: articlesIn,
        PaymentTokenLifetime: { type: ['integer', 'null'], minimum: 1, maximum: 525600, description: 'Minutes the hosted card form stays usable' },
        Splits: { ...splitsIn, description: 'A marketplace card payment divided among linked sites' },
      },
    },
  },
};

/**
 * `POST /v1/payments/{id}/capture[?amount=]` on the card address: no body (the amount is in the query),
 * or a body naming one split of a marketplace card payment and the amount of it to capture.
 */
export const cardCaptureRequest: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Payment: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        Split: {
          type: ['object', 'null'],
          required: ['ID'],
          additionalProperties: false,
          description: 'The split to capture, and how much of it (its whole amount when Amount is absent)',
          properties: {
            ID: id32,
            Amount: amountIn,
            OriginatorTransactionID: optText(MTID_MAX),
          },
        },
        TotalCaptureCount: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, description: 'Accepted; the sandbox captures a split once' },
      },
    },
  },
};

/** `POST /v1/payments/{id}/refunds` on the card address (`SplitID` refunds one split of a marketplace card payment). */
export const cardRefundRequest: Schema = {
  type: 'object',
  required: ['Refund'],
  additionalProperties: false,
  properties: {
    Refund: {
      type: 'object',
      required: ['MerchantTransactionID', 'Amount'],
      additionalProperties: false,
      properties: {
        MerchantTransactionID: { type: 'string', minLength: 1, maxLength: MTID_MAX },
        OriginatorTransactionID: optText(MTID_MAX),
        Amount: amountIn,
        Description: optText(1024),
        StatementDescriptor: optText(64),
        ...SDK_REFUND_FIELDS,
        CaptureID: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, description: 'The capture refunded from (GET /v1/payments/{id}/captures); 0 or null: none named' },
        SplitID: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
      },
    },
  },
};

/** Card details sent to a card payout or a card authentication (the PHP SDK's Card_Details). */
const cardDetailsIn: Schema = {
  type: 'object',
  required: ['Number', 'ExpirationMonth', 'ExpirationYear'],
  additionalProperties: false,
  properties: {
    HolderName: optText(255),
    Number: { type: 'string', pattern: '^[0-9]{12,19}$' },
    ExpirationMonth: { type: 'string', pattern: '^(0?[1-9]|1[0-2])$' },
    ExpirationYear: { type: 'string', pattern: '^([0-9]{2}|[0-9]{4})$', description: 'Two or four digits' },
    SecurityCode: { type: ['string', 'null'], pattern: '^[0-9]{3,4}$' },
    IssuingBankCountry: { type: ['string', 'null'], pattern: '^([A-Za-z]{2})?$' },
    ...cardExtras,
  },
};

/** `POST /v1/payouts` on the card address: money paid out to a card. */
export const cardPayoutRequest: Schema = {
  type: 'object',
  required: ['Payout'],
  additionalProperties: false,
  properties: {
    Payout: {
      type: 'object',
      // Card, or the CreditCardToken of a card authentication (checked by the service: reason 1 without either).
      required: ['MerchantTransactionID', 'Amount', 'Currency'],
      additionalProperties: false,
      properties: {
        MerchantTransactionID: { type: 'string', minLength: 1, maxLength: MTID_MAX },
        OriginatorTransactionID: optText(MTID_MAX),
        Amount: amountIn,
        Currency: currencyIn,
        Description: optText(255),
        StatementDescriptor: optText(255),
        MethodID: { type: ['integer', 'null'], enum: [0, 6, null], description: 'Cards are method 6 (0: not chosen)' },
        Customer: customerIn,
        BillingAddress: addressIn,
        Card: cardDetailsIn,
        CreditCardToken: { ...creditCardTokenIn, description: 'Instead of Card: the token of a card authentication' },
        Capture: { type: ['boolean', 'null'] },
        Retry: { type: ['boolean', 'null'] },
      },
    },
  },
};

/** `POST /v1/card/authenticate`: a card verified without a charge; the answer carries a credit card token. */
export const cardAuthenticationRequest: Schema = {
  type: 'object',
  required: ['CardAuthentication'],
  additionalProperties: false,
  properties: {
    CardAuthentication: {
      type: 'object',
      required: ['Card'],
      additionalProperties: false,
      properties: { Customer: customerIn, BillingAddress: addressIn, Card: cardDetailsIn },
    },
  },
};
