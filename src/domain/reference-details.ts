// What a payment's ReferenceDetails holds for the methods whose payer pays away from the payment page:
// every key of the real structure (SDK-PHP S2P_SDK_Structure_Payment_Reference_Details, SDK-NET
// AlternativePaymentReferenceDetails), null unless the method fills it.

export const REFERENCE_DETAILS_KEYS = [
  'BankCode',
  'BankName',
  'EntityID',
  'EntityNumber',
  'ReferenceID',
  'ReferenceNumber',
  'SwiftBIC',
  'AccountCurrency',
  'AccountNumber',
  'AccountHolder',
  'IBAN',
  'AmountToPay',
  'QRCodeURL',
] as const;

export type ReferenceDetails = Record<(typeof REFERENCE_DETAILS_KEYS)[number], string | null>;

/** WeChat Pay: the payer scans a QR code that opens the WeChat app on the payment. */
const WECHAT = 1066;

/**
 * The ReferenceDetails of a payment of `methodId`, or null for methods that show none and payments whose
 * create sent no Details.ReferenceNumber. Fidelity: SDK-NET's CreatePaymentTestsWeChat reads a QRCodeURL
 * starting `weixin://wxpay/bizpayurl?pr=` from the real test host (the code after it is the sandbox's own,
 * made from the payment's ID), and CreatePaymentTestsBankTransfer the ReferenceNumber it sent in Details.
 */
export function referenceDetailsOf(methodId: number | null, paymentId: number, referenceNumber: string | null = null): ReferenceDetails | null {
  if (methodId !== WECHAT && referenceNumber === null) return null;
  const details = Object.fromEntries(REFERENCE_DETAILS_KEYS.map((k) => [k, null])) as ReferenceDetails;
  if (methodId === WECHAT) details.QRCodeURL = `weixin://wxpay/bizpayurl?pr=S2P${paymentId.toString(36).toUpperCase()}`;
  details.ReferenceNumber = referenceNumber;
  return details;
}
