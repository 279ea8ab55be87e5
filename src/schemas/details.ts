// A payment's Details (spec 2.6), apart from the other response schemas: the services complete Details
// with its keys, and load without the rest of them (a start answers its first request without them).
import { exact, nstr } from './common';

export const detailsOut = exact(
  {
    AccountNumber: nstr,
    AccountHolder: nstr,
    IBAN: nstr,
    BIC: nstr,
    PrepaidCard: nstr,
    PrepaidCardPIN: nstr,
    SerialNumbers: nstr,
    Wallet: nstr,
    ReferenceNumber: nstr,
    PayerCountry: nstr,
    PayerEmail: nstr,
    PayerPhone: nstr,
    BankCode: nstr,
    BankName: nstr,
    BankSortCode: nstr,
    SocialSecurityNumber: nstr,
    BillingCycleStart: nstr,
    BillingCycleEnd: nstr,
    UnsubscribeInstructions: nstr,
    CustomerLoginID: nstr,
    PaidAmount: nstr,
    PaidCurrency: nstr,
    ProviderExchangeRate: { type: ['number', 'null'] },
    PayerBankAccountID: nstr,
    PayerID: nstr,
  },
  ['object', 'null'],
);

export const DETAILS_KEYS = Object.keys((detailsOut.properties as Record<string, unknown>));
