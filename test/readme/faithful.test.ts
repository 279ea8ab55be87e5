// "What is faithful" says what a payment's SiteID is, and the sandbox does as it says: the first split's
// site for a payment with splits, the marketplace's for one without; the payment is the marketplace's either way.
import request from 'supertest';
import { MARKETPLACE, type World, makeWorld, paymentBody } from '../helpers/world';
import { section as sectionOf } from './readme';

const section = sectionOf('docs/faithful.md', 'What is faithful');

describe('"What is faithful": a payment\'s SiteID', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('is said: the first split\'s site, not the marketplace\'s', () => {
    expect(section).toMatch(/first split's\*\* site as its `SiteID`/);
  });

  it('is so: the first split\'s site with splits, the marketplace\'s without; listed and read by the marketplace', async () => {
    const body = paymentBody();
    const created = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);
    expect(created.status).toBe(201);
    expect(created.body.Payment.SiteID).toBe(body.Payment.Splits[0].SiteID);
    expect(created.body.Payment.SiteID).not.toBe(MARKETPLACE.SiteID);
    const { Splits: _, ...plain } = body.Payment;
    const alone = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send({ Payment: { ...plain, MerchantTransactionID: 'alone-1' } });
    expect(alone.body.Payment.SiteID).toBe(MARKETPLACE.SiteID);
    const list = await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect(list.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([alone.body.Payment.ID, created.body.Payment.ID]);
  });
});
