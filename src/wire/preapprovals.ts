// The wire form of a preapproval (the recurring-payments API), as the real service's documentation
// shows it (docs-apm.nuvei.com "Create a Preapproval", "Close a Preapproval"): every key present.
import { formatAmount } from '../domain/money';
import { preapprovalStatusInfo } from '../domain/preapproval.machine';
import { formatTimestamp } from '../domain/time';
import type { PreapprovalRecord } from '../store/records';

/** The payer page of a Pending preapproval (the sandbox's own address form: the real one is not public). */
export function preapprovalRedirectUrl(baseUrl: string, p: PreapprovalRecord): string | null {
  return p.token === null ? null : `${baseUrl}/Home/Preapproval?PreapprovalToken=${p.token}.${p.id}`;
}

export function preapprovalToWire(p: PreapprovalRecord, baseUrl: string) {
  return {
    ID: p.id,
    Created: formatTimestamp(p.createdAt),
    MethodID: p.methodId,
    SiteID: p.ownerSiteId,
    MerchantPreapprovalID: p.merchantPreapprovalId,
    // Fidelity: 0 and null when not given, as in the documented answers.
    RecurringPeriod: p.recurringPeriod ?? 0,
    PreapprovedMaximumAmount: p.preapprovedMaximumAmount === null ? null : formatAmount(p.preapprovedMaximumAmount),
    Currency: p.currency,
    ReturnURL: p.returnUrl,
    Description: p.description,
    Customer: p.customer,
    BillingAddress: p.billingAddress,
    Status: { ID: p.statusId, Info: preapprovalStatusInfo(p.statusId), Reasons: null },
    RedirectURL: preapprovalRedirectUrl(baseUrl, p),
    MethodOptionID: p.methodOptionId ?? 0,
    PreapprovedFrequency: null,
    MandateReference: null,
  };
}

export const PREAPPROVAL_KEYS = Object.keys(
  preapprovalToWire(
    {
      id: 0, ownerSiteId: 0, merchantPreapprovalId: '', methodId: 0, methodOptionId: null, recurringPeriod: null,
      preapprovedMaximumAmount: null, currency: null, returnUrl: null, description: null, customer: null,
      billingAddress: null, token: null, statusId: 1, createdAt: 0, scenario: null,
    },
    '',
  ),
);
