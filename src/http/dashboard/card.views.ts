// The dashboard's forms for card payments (capture, part capture, cancel, refund, provider events) and
// for the refund of a whole payment without splits. Every value escaped.
import { escape, money } from '../html';
import type { PaymentDetail } from '../../services/dashboard.service';
import { actionButton, eventButtons } from './views';

const CARD_EVENT_LABELS: Record<string, string> = { authorize: 'Card entered', fail: 'Fail', expire: 'Expire', settle: 'Settle' };

/** The actions of a card payment's page. `csrf` is the form token field; `minor` the note on minor units. */
export function cardActions(d: PaymentDetail, csrf: string, minor: string): string {
  const p = d.view.payment;
  const base = `/dashboard/payments/${p.id}`;
  const splitOptions = d.view.splits
    .map((s) => `<option value="${escape(s.id)}">${escape(s.id)} · ${escape(s.merchantTransactionId)} · ${escape(money(s.amount, p.currency))}</option>`)
    .join('');
  return `<h2>Actions</h2>
<form method="post" action="${base}/events">${csrf}<fieldset><legend>Provider event</legend>
${eventButtons(d.offers.events, (e) => CARD_EVENT_LABELS[e] ?? e)}
<span class="note">as the payer (on the card form) or the card provider would; Settle completes a requested or queued capture or cancel</span></fieldset></form>
<form method="post" action="${base}/card-capture">${csrf}<fieldset><legend>Capture</legend>
<label>Amount <input name="Amount" inputmode="numeric" size="12" placeholder="whole amount"></label> ${minor}
${actionButton('Capture', d.offers.capture, ' class="primary"')} <span class="note">less than the amount: PartiallyCaptured</span></fieldset></form>
<fieldset><legend>Cancel</legend>
<form class="inline" method="post" action="${base}/card-cancel">${csrf}${actionButton('Cancel payment', d.offers.cancel)}</form></fieldset>
<form method="post" action="${base}/card-refund">${csrf}<fieldset><legend>Refund</legend>
${d.view.splits.length ? `<label>Split <select name="SplitID"><option value="">the whole payment</option>${splitOptions}</select></label>` : ''}
<label>MerchantTransactionID <input name="MerchantTransactionID" required value="${escape(`${p.merchantTransactionId}-refund-${d.refunds.length + 1}`)}"></label>
<label>Amount <input name="Amount" inputmode="numeric" size="12" required></label>
<label>Description <input name="Description" size="30"></label> ${minor}
${actionButton('Refund', d.offers.refund)}</fieldset></form>`;
}

/** The refund of a whole payment, for a payment of the API address without splits. */
export function wholeRefundForm(d: PaymentDetail, csrf: string, minor: string): string {
  return `<form method="post" action="/dashboard/payments/${d.view.payment.id}/refund-payment">${csrf}<fieldset><legend>Refund the payment</legend>
<label>Amount <input name="Amount" inputmode="numeric" size="12" required></label>
<label>Description <input name="Description" size="30"></label> ${minor}
${actionButton('Refund', d.offers.refund)} <span class="note">a payment without splits is refunded as a whole</span></fieldset></form>`;
}
