import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { type Receiver, startReceiver } from '../helpers/receiver';

describe('scenario two-step under the manual clock', () => {
  let sb: Sandbox;
  let rx: Receiver;
  const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

  beforeEach(async () => {
    rx = await startReceiver();
    sb = await startSandbox({
      port: 0,
      cardPort: 0,
      db: ':memory:',
      clock: 'manual',
      startTime: START,
      seed: 7,
      quiet: true,
      notifyUrl: rx.url,
    });
  });
  afterEach(async () => {
    await sb.stop();
    await rx.close();
  });

  it('authorizes after 2 s, notifies Authorized, and notifies Success after a capture', async () => {
    const created = await request(sb.baseUrl)
      .post('/v1/payments')
      .set('Authorization', auth)
      .set('X-Sandbox-Scenario', 'two-step')
      .send(paymentBody());
    expect(created.status).toBe(201);
    const id = created.body.Payment.ID;

    await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 1.999 }).expect(200);
    expect(rx.received).toHaveLength(0);
    const adv = await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 0.001 }).expect(200);
    expect(adv.body).toEqual({ Mode: 'manual', Now: '20260115100002', NowMs: START + 2000, Speed: null });
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.headers.authorization).toBe(auth);
    expect(rx.received[0]!.body.Payment.Status).toEqual({ ID: 9, Info: 'Authorized', Reasons: null });
    expect(rx.received[0]!.body.Payment.Splits.map((s: { StateDetails: { ID: number } }) => s.StateDetails.ID)).toEqual([9, 9, 9]);

    const captured = await request(sb.baseUrl).post(`/v1/payments/${id}/capture`).set('Authorization', auth);
    expect(captured.status).toBe(200);
    expect(captured.body.Payment.Status.ID).toBe(2);
    const waited = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${id}&StatusID=2&TimeoutMs=2000`);
    expect(waited.status).toBe(200);
    expect(rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([9, 2]);
  });

  it('Klarna Invoice (75, flow two-step-authorized-at-create): Authorized as it is created, notified at once, and its 2 s step skipped', async () => {
    const created = await request(sb.baseUrl)
      .post('/v1/payments')
      .set('Authorization', auth)
      .send(paymentBody({ MethodID: 75, Currency: 'DKK', BillingAddress: { Country: 'DK' } }));
    expect(created.status).toBe(201);
    expect(created.body.Payment.Status.ID).toBe(1);
    const id = created.body.Payment.ID;
    await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${id}&StatusID=9&TimeoutMs=2000`).expect(200);
    expect(rx.received.map((r) => [r.body.Payment.ID, r.body.Payment.Status.ID])).toEqual([[id, 9]]);
    await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 2 }).expect(200);
    const inspected = (await request(sb.baseUrl).get(`/_sandbox/payments/${id}`)).body;
    expect(inspected.Scenario).toBe('two-step');
    expect(inspected.Steps.map((x: { Do: string; State: string }) => [x.Do, x.State])).toEqual([['authorize', 'skipped']]);
    expect(rx.received).toHaveLength(1);
  });
});
