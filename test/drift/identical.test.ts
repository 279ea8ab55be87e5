// An upstream that is the sandbox itself: a whole walkthrough through the drift proxy reports nothing.
import request from 'supertest';
import { paymentBody } from '../helpers/world';
import { type Rig, startRig } from './rig';

const CARD = { HolderName: 'John Doe', Number: '4548812049400004', ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: '312' };
const PREAPPROVAL = {
  Preapproval: {
    MerchantPreapprovalID: 'sub-1',
    Description: '1 year subscription',
    ReturnURL: 'https://shop.example/return',
    MethodID: 2,
    PreapprovedMaximumAmount: 5000,
    Currency: 'EUR',
    Customer: { FirstName: 'John', LastName: 'Doe', Email: 'john@example.com' },
    BillingAddress: { Country: 'NL' },
  },
};

describe('drift proxy: an identical upstream', () => {
  let rig: Rig;
  beforeEach(async () => (rig = await startRig()));
  afterEach(() => rig.close());

  async function created(overrides: Record<string, unknown> = {}) {
    const res = await rig.api('post', '/v1/payments', paymentBody({ MerchantTransactionID: `order-${Math.random()}`, ...overrides })).expect(201);
    return res.body.Payment as { ID: number; Splits: { ID: number }[] };
  }
  async function authorized() {
    const p = await created();
    await rig.event(p.ID, 'authorize');
    await rig.settle();
    return p;
  }

  it('reports no difference over split payments: created, authorized, captured whole, per split and by one split, refunded, cancelled, listed', async () => {
    const whole = await authorized();
    await rig.api('get', `/v1/payments/${whole.ID}`).expect(200);
    await rig.api('post', `/v1/payments/${whole.ID}/capture`).expect(200);
    await rig.settle();
    await rig.api('post', `/v1/payments/${whole.ID}/refunds`, { Refund: { MerchantTransactionID: 'refund-1', Amount: '100' } });
    await rig.api('post', `/v1/payments/${whole.ID}/splits/${whole.Splits[0]!.ID}/refunds`, { Refund: { Amount: 50 } });
    await rig.api('get', `/v1/payments/${whole.ID}/refunds`);

    const perSplit = await authorized();
    await rig.api('post', `/v1/payments/${perSplit.ID}/capture`, { Payment: { Splits: [{ ID: perSplit.Splits[0]!.ID, Amount: 600 }] } }).expect(200);
    const oneSplit = await authorized();
    await rig.api('post', `/v1/payments/${oneSplit.ID}/splits/${oneSplit.Splits[1]!.ID}/capture?amount=300`).expect(200);
    const cancelled = await authorized();
    await rig.api('post', `/v1/payments/${cancelled.ID}/cancel`).expect(200);
    await rig.api('get', '/v1/payments').expect(200);
    await rig.api('get', `/v1/payments/${cancelled.ID}/status`);
    await rig.settle();
    expect(rig.drift.report.list()).toEqual([]);
    // The shadow ran the calls and followed the provider: its payments stand where the upstream's do.
    const shadow = rig.drift.shadow.sandbox;
    expect(shadow.requests.count({ Route: '/v1/payments/{id}/capture' })).toBe(2);
    const real = [whole.ID, perSplit.ID, oneSplit.ID, cancelled.ID];
    const onShadow = real.map((id) => shadow.services.store.payments.getAny(Number(rig.drift.ids.shadowOf('payment', id)))?.statusId);
    expect(onShadow).toEqual(real.map((id) => rig.upstream.services.store.payments.getAny(id)?.statusId));
    expect(onShadow).toEqual([2, 35, 35, 3]);
    // The integration got each real notification (authorized four times, captured, cancelled …).
    expect(rig.integration.received.length).toBeGreaterThanOrEqual(6);
  });

  it('reports no difference over card payments with captures and refunds', async () => {
    const made = await rig.card('post', '/v1/payments', { Payment: { MerchantTransactionID: 'card-1', Amount: 9000, Currency: 'EUR', ReturnURL: 'https://shop.example/r', Capture: false, Card: CARD } }).expect(201);
    const id = made.body.Payment.ID as number;
    await rig.settle();
    await rig.card('get', `/v1/payments/${id}`).expect(200);
    await rig.card('post', `/v1/payments/${id}/capture`);
    await rig.card('post', `/v1/payments/${id}/refunds`, { Refund: { MerchantTransactionID: 'card-refund', Amount: 1000 } });
    await rig.card('get', `/v1/payments/${id}/refunds`);
    await rig.card('get', '/v1/payments');
    await rig.settle();
    expect(rig.drift.report.list()).toEqual([]);
  });

  it('reports no difference over a preapproval and its recurring payment', async () => {
    const made = await rig.api('post', '/v1/preapprovals', PREAPPROVAL).expect(201);
    const id = made.body.Preapproval.ID as number;
    await request(rig.upstream.baseUrl).post(`/_sandbox/preapprovals/${id}/events`).send({ Event: 'open' }).expect(200);
    await rig.settle();
    await rig.api('get', `/v1/preapprovals/${id}`).expect(200);
    await rig.api('post', '/v1/payments/recurrent', { Payment: { PreapprovalID: id, MerchantTransactionID: 'rec-1', Amount: 100, Currency: 'EUR', Customer: { Email: 'a@example.com' } } }).expect(201);
    await rig.api('get', `/v1/preapprovals/${id}/payments`).expect(200);
    await rig.settle();
    expect(rig.drift.report.list()).toEqual([]);
  });

  it('reports no difference over refusals: a bad amount, a wrong state, an unknown ID, a wrong key', async () => {
    await rig.api('post', '/v1/payments', paymentBody({ Amount: 'abc' })).expect(400);
    const open = await created();
    await rig.api('post', `/v1/payments/${open.ID}/capture`).expect(400);
    await rig.api('get', '/v1/payments/987654').expect(404);
    await request(rig.drift.apiUrl).get(`/v1/payments/${open.ID}`).set('Authorization', 'Basic MzAyMDE6d3Jvbmc=').expect(401);
    await rig.settle();
    expect(rig.drift.report.list()).toEqual([]);
  });
});
