// An integration that captures a payment from inside its notification handler, before it answers the
// notification (a common shape): the shadow must follow the notification before it runs that capture,
// as the real service saw them, or the run reports a drift the real service never showed.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { paymentBody } from '../helpers/world';
import { AUTH, type Rig, startRig } from './rig';

describe('drift proxy: a capture sent while the notification is being answered', () => {
  let rig: Rig;
  let integration: Server;
  const captures: number[] = [];
  beforeEach(async () => {
    captures.length = 0;
    let proxyUrl = '';
    integration = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const payment = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Payment?: { ID: number; Status: { ID: number } } }).Payment;
        // Authorized (9): capture it now, and answer the notification (204) once the capture is answered.
        if (payment?.Status.ID === 9) {
          const answer = await request(proxyUrl).post(`/v1/payments/${payment.ID}/capture`).set('Authorization', AUTH);
          captures.push(answer.status);
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => integration.listen(0, '127.0.0.1', resolve));
    rig = await startRig({}, { notifyTo: `http://127.0.0.1:${(integration.address() as AddressInfo).port}/notify` });
    proxyUrl = rig.drift.apiUrl;
  });
  afterEach(async () => {
    await rig.close();
    await new Promise((resolve) => integration.close(resolve));
  });

  it('reports no difference: the shadow was authorized before it captured', async () => {
    const created = await rig.api('post', '/v1/payments', paymentBody({ MerchantTransactionID: 'order-captured-on-notification' })).expect(201);
    const id = created.body.Payment.ID as number;
    await rig.event(id, 'authorize');
    // The Authorized notification (during which the capture is made), then the capture's own.
    await rig.settle();
    await rig.settle();
    expect(captures).toEqual([200]);
    expect(rig.drift.report.list()).toEqual([]);
    const shadow = rig.drift.shadow.sandbox;
    const onShadow = shadow.services.store.payments.getAny(Number(rig.drift.ids.shadowOf('payment', id)))?.statusId;
    expect(onShadow).toBe(rig.upstream.services.store.payments.getAny(id)?.statusId);
  });
});
