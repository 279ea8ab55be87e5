// Split input: the checks that need the store (linked sites, the payment's total), and writing new splits.
import { sumAmounts } from '../domain/money';
import { type Reason, reason } from '../errors/reasons';
import type { SiteRecord, SplitRecord } from '../store/records';
import type { ServiceContext } from './context';

export interface SplitInput {
  SiteID: number;
  Amount: number | string;
  MerchantTransactionID: string;
  OriginatorTransactionID?: string | null;
}

/**
 * Reasons against a set of new splits: every SiteID must be linked to the marketplace, and all
 * splits of the payment together must not exceed its amount (the rest stays with the marketplace).
 */
export function checkSplits(
  ctx: ServiceContext,
  marketplace: SiteRecord,
  splits: SplitInput[],
  paymentAmount: bigint,
  alreadySplit: bigint,
  field: string,
): Reason[] {
  const reasons: Reason[] = [];
  const linked = new Set(ctx.store.sites.linkedTo(marketplace.siteId).map((s) => s.siteId));
  splits.forEach((s, i) => {
    if (!linked.has(s.SiteID)) {
      reasons.push(reason(2, `${field}[${i}].SiteID is invalid: site ${s.SiteID} is not linked to site ${marketplace.siteId}`));
    }
  });
  const total = alreadySplit + sumAmounts(splits.map((s) => BigInt(s.Amount)));
  if (total > paymentAmount) {
    reasons.push(
      reason(118, `${field} amounts add up to ${total}${alreadySplit > 0n ? ' with the existing splits' : ''}, more than Payment.Amount ${paymentAmount}`),
    );
  }
  return reasons;
}

/** Writes the splits of a new payment, in the payment's status; returns them as stored (no read back). */
export function insertSplits(ctx: ServiceContext, paymentId: number, splits: SplitInput[], statusId: number, now: number): SplitRecord[] {
  const rows = splits.map(
    (s): Omit<SplitRecord, 'id'> => ({
      paymentId,
      siteId: s.SiteID,
      merchantTransactionId: s.MerchantTransactionID,
      originatorTransactionId: s.OriginatorTransactionID ?? null,
      amount: BigInt(s.Amount),
      capturedAmount: null,
      statusId,
      createdAt: now,
    }),
  );
  const ids = rows.length === 0 ? [] : ctx.store.splits.insertAll(rows);
  return rows.map((split, i) => ({ id: ids[i]!, ...split }));
}
