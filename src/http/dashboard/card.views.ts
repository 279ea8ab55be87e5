// The dashboard's forms for card payments (capture, part capture, cancel, refund, provider events) and
// for the refund of a whole payment without splits. Every value escaped.
import { escape, money } from '../html';
import { statusInfo } from '../../domain/statuses';
import type { PayoutRecord } from '../../store/records';
import type { PaymentDetail } from '../../services/dashboard.service';
import { actionButton, eventButtons, stamp } from './parts';

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
${d.view.splits.length ? `<label>Split <select name="SplitID"><option value="">the whole payment</option>${splitOptions}</select></label>` : ''}
<label>Amount <input name="Amount" inputmode="numeric" size="12" placeholder="whole amount"></label> ${minor}
${actionButton('Capture', d.offers.capture, ' class="primary"')} <span class="note">less than the amount: PartiallyCaptured</span></fieldset></form>
<fieldset><legend>Cancel</legend>
<form class="inline" method="post" action="${base}/card-cancel">${csrf}${actionButton('Cancel payment', d.offers.cancel)}</form></fieldset>
<form method="post" action="${base}/card-refund">${csrf}<fieldset><legend>Refund</legend>
${d.view.splits.length ? `<label>Split <select name="SplitID"><option value="">the whole payment</option>${splitOptions}</select></label>` : ''}
<label>MerchantTransactionID <input name="MerchantTransactionID" required value="${escape(`${p.merchantTransactionId}-refund-${d.refunds.length + 1}`)}"></label>
<label>Amount <input name="Amount" inputmode="numeric" size="12" required></label>
<label>Description <input name="Description" size="30"></label> ${minor}
${actionButton('Refund', d.offers.refund)}</fieldset></form>
<form method="post" action="${base}/challenge">${csrf}<fieldset><legend>Fraud challenge</legend>
${actionButton('Hold for a fraud challenge', d.offers.challenge, ' name="Event" value="hold"')}
<span class="note">as the card provider’s fraud check would (PendingChallengeConfirmation, 30)</span><br>
${actionButton('Accept challenge', d.offers.challengeAnswer, ' name="Event" value="accept"')}
${actionButton('Reject challenge', d.offers.challengeAnswer, ' name="Event" value="reject"')}
<span class="note">as the merchant would (challenge/accept: it goes on as authorized; challenge/reject: Cancelled)</span></fieldset></form>
<form method="post" action="${base}/dispute">${csrf}<fieldset><legend>Dispute (chargeback)</legend>
<button type="submit" name="Event" value="open">Open a dispute</button>
${d.disputes
  .filter((x) => x.statusId === 1)
  .map((x) => `<input type="hidden" name="DisputeID" value="${escape(x.id)}"><button type="submit" name="Event" value="win">Win dispute ${escape(x.id)}</button><button type="submit" name="Event" value="lose">Lose dispute ${escape(x.id)}</button>`)
  .join('')}
<span class="note">as the card holder’s bank would; each step is notified as {"Dispute": …}</span></fieldset></form>`;
}

// As every other time of the dashboard, in the form its From and To filters take.
const when = (ms: number) => escape(stamp(ms));

/** A card payment's captures and disputes, as tables. */
export function cardTables(d: PaymentDetail): string {
  const cur = d.view.payment.currency;
  const captures = d.captures.length
    ? `<table><thead><tr><th>ID</th><th>Split</th><th>Site</th><th>MerchantTransactionID</th><th class="num">Amount</th><th>Status</th><th>Created</th></tr></thead><tbody>${d.captures
        .map(
          (c) => `<tr><td>${escape(c.id)}</td><td>${escape(c.splitId ?? 'whole payment')}</td><td>${escape(c.siteId)}</td><td>${escape(c.merchantTransactionId)}</td>
<td class="num">${escape(money(c.amount, cur))}</td><td>${escape(`${statusInfo(c.statusId)} (${c.statusId})`)}</td><td>${when(c.createdAt)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="note">No captures.</p>';
  const disputes = d.disputes.length
    ? `<table><thead><tr><th>ID</th><th class="num">Amount</th><th>Status</th><th>Created</th></tr></thead><tbody>${d.disputes
        .map((x) => `<tr><td>${escape(x.id)}</td><td class="num">${escape(money(x.amount, x.currency))}</td><td>${escape(`${statusInfo(x.statusId)} (${x.statusId})`)}</td><td>${when(x.createdAt)}</td></tr>`)
        .join('')}</tbody></table>`
    : '<p class="note">No disputes.</p>';
  return `<h2>Captures</h2>${captures}<h2>Disputes</h2>${disputes}`;
}

/** The merchant's card payouts, newest first: a plain table. */
export function payoutsTable(payouts: PayoutRecord[]): string {
  if (payouts.length === 0) return '<p class="note">No card payouts.</p>';
  return `<table><thead><tr><th>ID</th><th>MerchantTransactionID</th><th class="num">Amount</th><th>Card</th><th>Status</th><th>Created</th></tr></thead><tbody>${payouts
    .map(
      (p) => `<tr><td>${escape(p.id)}</td><td>${escape(p.merchantTransactionId)}</td><td class="num">${escape(money(p.amount, p.currency))}</td>
<td>${escape((p.card?.Number as string | undefined) ?? '')}</td><td>${escape(`${statusInfo(p.statusId)} (${p.statusId})`)}${p.reasons.length ? ` <span class="note">${escape(p.reasons.map((r) => `${r.Code} ${r.Info}`).join('; '))}</span>` : ''}</td><td>${when(p.createdAt)}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

/** The refund of a whole payment, for a payment of the API address without splits. */
export function wholeRefundForm(d: PaymentDetail, csrf: string, minor: string): string {
  return `<form method="post" action="/dashboard/payments/${d.view.payment.id}/refund-payment">${csrf}<fieldset><legend>Refund the payment</legend>
<label>Amount <input name="Amount" inputmode="numeric" size="12" required></label>
<label>Description <input name="Description" size="30"></label> ${minor}
${actionButton('Refund', d.offers.refund)} <span class="note">a payment without splits is refunded as a whole</span></fieldset></form>`;
}
