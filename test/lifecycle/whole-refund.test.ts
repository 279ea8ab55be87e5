// The refund of a whole payment follows the scenario's refund policy like a split's refund: Open, then
// Success 1 s later, notified as {"Refund": …} with SplitID 0, signed with the payment's own site.
import request from 'supertest';
import { PLAIN, basic } from '../helpers/world';
import { type Rig, advance, boot, labels, shutdown, stamp } from './harness';

describe('a refund of a whole payment, over time', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('is Open, then Success 1 s later, with its notification', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const auth = basic(PLAIN.SiteID, PLAIN.APIKey);
    const created = await request(sb.baseUrl)
      .post('/v1/payments')
      .set('Authorization', auth)
      .send({ Payment: { MerchantTransactionID: 'plain-life', Amount: '1000', Currency: 'EUR', MethodID: 2, ReturnURL: 'https://shop.example/r' } });
    expect(created.status).toBe(201);
    const id = created.body.Payment.ID;
    await advance(sb, 2);
    expect(labels(rx)).toEqual(['P2']);
    const refund = await request(sb.baseUrl).post(`/v1/payments/${id}/refunds`).set('Authorization', auth).send({ Refund: { Amount: 250 } });
    expect(refund.status).toBe(201);
    expect(refund.body.Refund.Status.ID).toBe(1);
    await advance(sb, 1);
    expect(labels(rx)).toEqual(['P2', 'R2']);
    const n = rx.received[1]!;
    expect(n.headers.authorization).toBe(auth);
    expect(n.body).toEqual({ Refund: { ...refund.body.Refund, Status: { ID: 2, Info: 'Success', Reasons: null } } });
    expect(n.body.Refund.SplitID).toBe(0);
    const read = await request(sb.baseUrl).get(`/v1/payments/${id}/refunds/${refund.body.Refund.ID}`).set('Authorization', auth);
    expect(read.body).toEqual(n.body);
    expect(refund.body.Refund.Created).toBe(stamp(2000));
  });
});
