// The refund types of a payment as `GET /v1/payments/{id}/refunds/types` answers them
// (docs-apm.nuvei.com "Get refund types for a certain payment"): what each type needs, as regexes.
import { refundTypesOf } from '../domain/refund-types';

/** Documented for SEPA Bank Transfer (2): the customer's names, and the bank's code and IBAN. */
const SEPA_NEEDS = {
  Customer: {
    MerchantCustomerID: null,
    Email: null,
    FirstName: '^.{1,50}$',
    LastName: '^.{1,50}$',
    Gender: null,
    SocialSecurityNumber: null,
    Phone: null,
    Company: null,
  },
  Details: {
    BankCode: '^[a-zA-Z]{4}[a-zA-Z]{2}[a-zA-Z0-9]{2}[XXX0-9]{0,3}',
    CustomerIBAN: '^[a-zA-Z]{2}[0-9]{2}[a-zA-Z0-9]{4}[0-9]{7}([a-zA-Z0-9]?){0,16}$',
  },
};

export function refundTypesToWire(methodId: number | null) {
  return refundTypesOf(methodId).map(({ type, partial }) => ({
    Name: type.Name,
    ID: type.ID,
    // Fidelity: the two official clients read this flag under two names (SDK-PHP's Refund_Types_Response
    // AllowsPartialRefund, SDK-NET's RefundTypesResponse AllowPartialRefund) and no public source shows the
    // real answer: both are sent, so that each reads the true value rather than its default, false.
    AllowsPartialRefund: partial,
    AllowPartialRefund: partial,
    // What the other types need is not public: the sandbox asks for nothing more.
    Customer: type.ID === 2 ? SEPA_NEEDS.Customer : null,
    BillingAddress: null,
    BankAddress: null,
    Details: type.ID === 2 ? SEPA_NEEDS.Details : null,
  }));
}
