// The notification journal pages like the payment list: PageSize, PageIndex, TotalCount, newest first
// unless SortDirection says otherwise; it never stops silently at some count.
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { applyPaymentEvent } from '../../src/services/events.service';
import { createPayment } from '../../src/services/payments.service';
import { journalPageSql } from '../../src/store/notifications.repo';
import { START, paymentBody } from '../helpers/world';

describe('the notification journal, a page at a time', () => {
  let sb: Sandbox;
  /** Payment IDs in creation order; each has one Authorized notification (no URL: journaled at once). */
  let ids: number[];

  /** `n` payments authorized through the services in one go, oldest first. */
  let made = 0;
  function authorized(n: number): number[] {
    const s = sb.services;
    const site = s.store.sites.get(30201)!;
    return s.store.tx(() =>
      Array.from({ length: n }, () => {
        const p = createPayment(s, site, paymentBody({ MerchantTransactionID: `journal-${made++}` }));
        applyPaymentEvent(s, p.payment.id, 'authorize');
        return p.payment.id;
      }),
    );
  }
  const page = (query: string) => request(sb.baseUrl).get(`/_sandbox/notifications${query}`);
  const paymentIds = (res: request.Response) => res.body.Notifications.map((n: { PaymentID: number }) => n.PaymentID);

  beforeEach(async () => {
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 3, quiet: true });
    ids = authorized(7);
  });
  afterEach(() => sb.stop());

  it('answers the newest first, PageSize at a time, with the paging fields of the payment list', async () => {
    const first = await page('?PageSize=3');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['Notifications', 'Count', 'TotalPages', 'TotalCount', 'PageIndex', 'PageSize', 'SortDirection']);
    expect({ ...first.body, Notifications: paymentIds(first) }).toEqual({
      Notifications: [ids[6], ids[5], ids[4]],
      Count: 3,
      TotalPages: 3,
      TotalCount: 7,
      PageIndex: 1,
      PageSize: 3,
      SortDirection: 'desc',
    });
    expect(first.body.Notifications[0]).toMatchObject({ PaymentID: ids[6], StatusID: 9, State: 'no-url', Attempts: [] });
    expect(paymentIds(await page('?pagesize=3&pageindex=3'))).toEqual([ids[0]]);
    const past = await page('?PageSize=3&PageIndex=4');
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ Notifications: [], Count: 0, TotalCount: 7, PageIndex: 4 });
  });

  it('answers the oldest first with SortDirection=asc, and filters before it pages', async () => {
    expect(paymentIds(await page('?SortDirection=asc&PageSize=3&PageIndex=2'))).toEqual([ids[3], ids[4], ids[5]]);
    const one = await page(`?PaymentID=${ids[2]}`);
    expect(one.body).toMatchObject({ TotalCount: 1, Count: 1, PageSize: 100, PageIndex: 1 });
    expect(paymentIds(one)).toEqual([ids[2]]);
    expect((await page('?State=no-url&PageSize=2')).body).toMatchObject({ Count: 2, TotalCount: 7, TotalPages: 4 });
    expect((await page('?State=delivered')).body).toMatchObject({ Notifications: [], TotalCount: 0, TotalPages: 0 });
  });

  it('does not stop at 500: the newest come first and TotalCount counts them all', async () => {
    const more = authorized(600);
    const newest = await page('');
    expect(newest.body).toMatchObject({ Count: 100, TotalCount: 607, TotalPages: 7, PageSize: 100 });
    expect(paymentIds(newest)[0]).toBe(more[599]);
    const all = await page('?PageSize=1000&SortDirection=asc');
    expect(paymentIds(all)).toEqual([...ids, ...more]);
  });

  it('refuses paging it cannot answer with 400 {"Message"}, naming the parameter', async () => {
    const cases: [string, string][] = [
      ['?PageSize=0', 'PageSize must be a whole number from 1 to 1000'],
      ['?PageSize=1001', 'PageSize must be a whole number from 1 to 1000'],
      ['?PageSize=ten', 'PageSize must be a whole number from 1 to 1000'],
      ['?PageIndex=0', 'PageIndex must be a whole number from 1 to 2147483647'],
      ['?PageIndex=-1', 'PageIndex must be a whole number from 1 to 2147483647'],
      ['?SortDirection=up', 'SortDirection must be asc or desc'],
    ];
    for (const [query, message] of cases) {
      const res = await page(query);
      expect([query, res.status, res.body]).toEqual([query, 400, { Message: message }]);
    }
  });

  it('pages the same way from a test file: notifications.list()', () => {
    const newest = sb.notifications.list({ PageSize: 2 });
    expect(newest).toMatchObject({ Count: 2, TotalCount: 7, TotalPages: 4, PageIndex: 1, PageSize: 2, SortDirection: 'desc' });
    expect(newest.Notifications.map((n) => n.PaymentID)).toEqual([ids[6], ids[5]]);
    expect(sb.notifications.list({ SortDirection: 'asc', PageSize: 2, PageIndex: 2 }).Notifications.map((n) => n.PaymentID)).toEqual([ids[2], ids[3]]);
    expect(sb.notifications.list({ PaymentID: ids[0] }).Notifications.map((n) => n.PaymentID)).toEqual([ids[0]]);
    expect(() => sb.notifications.list({ PageSize: 0 })).toThrow('PageSize must be a whole number from 1 to 1000');
  });

  it("reads a payment's page and a state's page through their indexes, in either direction", () => {
    const plan = (sql: string) =>
      (sb.services.store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ paymentId: 1, state: 'pending', limit: 10, offset: 0 }) as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
    for (const descending of [true, false]) {
      expect(plan(journalPageSql({ paymentId: 1 }, descending))).toMatch(/USING INDEX notifications_by_payment/);
      expect(plan(journalPageSql({ state: 'pending' }, descending))).toMatch(/USING INDEX notifications_by_state/);
      expect(plan(journalPageSql({ paymentId: 1 }, descending))).not.toMatch(/TEMP B-TREE/);
    }
  });
});
