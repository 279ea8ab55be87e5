// Migration 21: payments keep the Articles and PreapprovalDetails their create sent, refunds their
// Articles. A database of an older sandbox keeps every row, and its payments and refunds show none.
import Database from 'better-sqlite3';
import { migrate } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';
import { PaymentsRepo } from '../../src/store/payments.repo';
import { RefundsRepo } from '../../src/store/refunds.repo';

describe('migration 21 (request data shown back)', () => {
  it('opens a schema-20 database with its payment and refund, which show no articles nor preapproval terms; new ones keep theirs, figures as sent', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, 20);
    expect(db.pragma('user_version', { simple: true })).toBe(20);
    db.exec(`INSERT INTO sites (site_id, api_key, name) VALUES (30201, 'k', 'Market');
      INSERT INTO payments (surface, owner_site_id, site_id, merchant_transaction_id, amount, currency, status_id, created_at)
        VALUES ('api', 30201, 30201, 'o-1', 1000, 'EUR', 2, 1000);
      INSERT INTO refunds (payment_id, split_id, site_id, merchant_transaction_id, amount, currency, description, type_id, status_id, created_at)
        VALUES (3005001, NULL, 30201, 'r-1', 400, 'EUR', '', 1, 1, 2000);`);
    const paymentId = db.prepare('SELECT id FROM payments').pluck().get() as number;
    const refundId = db.prepare('SELECT id FROM refunds').pluck().get() as number;

    migrate(db);

    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    const payments = new PaymentsRepo(db);
    const refunds = new RefundsRepo(db);
    expect(payments.getAny(paymentId)).toMatchObject({ merchantTransactionId: 'o-1', amount: 1000n, articles: null, preapprovalDetails: null });
    expect(refunds.get(refundId)).toMatchObject({ merchantTransactionId: 'r-1', amount: 400n });
    expect(refunds.get(refundId)!.articles).toBeUndefined();

    const article = { MerchantArticleID: '1231', Price: '1000', Quantity: 2, Type: 1 };
    const id = payments.insert({ ...payments.getAny(paymentId)!, merchantTransactionId: 'o-2', articles: [article], preapprovalDetails: { PreapprovedMaximumAmount: 500 } });
    expect(payments.getAny(id)).toMatchObject({ articles: [article], preapprovalDetails: { PreapprovedMaximumAmount: 500 } });
    // A list reads no JSON column: its items show no articles.
    expect(payments.list({ ownerSiteId: 30201, surface: 'api' }, { sortBy: 'id', descending: false, limit: 10, offset: 0 }, false).items.map((p) => p.articles)).toEqual([null, null]);
    const refund = refunds.insert({ ...refunds.get(refundId)!, merchantTransactionId: 'r-2', articles: [article] });
    expect(refunds.get(refund)!.articles).toEqual([article]);
    db.close();
  });
});
