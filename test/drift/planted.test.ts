// Differences planted in the "real service": each is reported once, with its kind and the call that
// showed it, and nothing else is.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Difference } from '../../src/drift/differences';
import { paymentBody } from '../helpers/world';
import { AUTH, type Rig, type Transform, startRig, transforming } from './rig';

describe('drift proxy: planted differences', () => {
  let rig: Rig;
  let testProxy: Server | undefined;
  afterEach(async () => {
    await rig.close();
    await new Promise((resolve) => (testProxy ? testProxy.close(resolve) : resolve(undefined)));
    testProxy = undefined;
  });

  async function withTransform(transform: Transform, stories?: string) {
    rig = await startRig({}, {
      ...(stories === undefined ? {} : { stories }),
      via: async (upstreamUrl) => {
        const t = await transforming(upstreamUrl, transform);
        testProxy = t.server;
        return t.url;
      },
    });
  }
  async function created() {
    const res = await rig.api('post', '/v1/payments', paymentBody()).expect(201);
    return res.body.Payment as { ID: number };
  }
  const kinds = (list: Difference[]) => list.map((d) => [d.Kind, d.Route, d.Field]);
  /** The shadow's journal entry of the call a difference names. */
  const entryOf = (d: Difference) => rig.drift.shadow.sandbox.requests.get(d.Call.JournalID!);

  it('an upstream 503 where the shadow answers 200 (a fault rule): one http status difference, naming the call', async () => {
    rig = await startRig();
    const p = await created();
    rig.upstream.faults.add({ Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments/{id}' }, Action: { Status: 503 }, Times: 1 });
    await rig.api('get', `/v1/payments/${p.ID}`).expect(503);
    await rig.api('get', `/v1/payments/${p.ID}`).expect(200);
    await rig.settle();
    const list = rig.drift.report.list();
    expect(kinds(list)).toEqual([['http status', 'GET /v1/payments/{id}', null]]);
    expect(list[0]).toMatchObject({ Upstream: 503, Shadow: 200, Count: 1, Call: { Method: 'GET', Path: `/v1/payments/${p.ID}` } });
    expect(entryOf(list[0]!)).toMatchObject({ Method: 'GET', Route: '/v1/payments/{id}', Status: 200, PaymentID: Number(rig.drift.ids.shadowOf('payment', p.ID)) });
  });

  it('another reason code (the test proxy): one reason difference, its payment’s story written when the proxy stops', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'drift-stories-')), 'stories');
    await withTransform((method, path, body) => {
      if (method === 'POST' && path.endsWith('/capture') && body.Payment?.Status?.Reasons?.[0]) body.Payment.Status.Reasons[0].Code = 18;
      return body;
    }, folder);
    const p = await created();
    await rig.api('post', `/v1/payments/${p.ID}/capture`).expect(400);
    await rig.settle();
    const list = rig.drift.report.list();
    expect(kinds(list)).toEqual([['reason', 'POST /v1/payments/{id}/capture', 'Payment.Status.Reasons']]);
    expect(list[0]).toMatchObject({ Upstream: [18], Shadow: [17] });
    expect(entryOf(list[0]!)).toMatchObject({ Route: '/v1/payments/{id}/capture', Status: 400 });
    // The payment that differed, as a story: its calls, its difference.
    const stories = rig.drift.stories();
    expect(Object.keys(stories)).toEqual([String(p.ID)]);
    expect(stories[String(p.ID)]!.Story.Differences).toHaveLength(1);
    expect(stories[String(p.ID)]!.Story.Calls.map((c) => `${c.Method} ${c.Status}`)).toEqual(['POST 201', 'POST 400']);
    const served = await fetch(`${rig.drift.apiUrl}/_sandbox/drift/stories/${p.ID}`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(JSON.parse(JSON.stringify(stories[String(p.ID)])));
    await rig.close();
    expect(JSON.parse(readFileSync(join(folder, `drift-${p.ID}.json`), 'utf8'))).toEqual(JSON.parse(JSON.stringify(stories[String(p.ID)])));
    expect(readdirSync(folder)).toEqual([`drift-${p.ID}.json`]);
  });

  it('a field renamed, one dropped and a string amount turned into a number (the test proxy): one difference each', async () => {
    await withTransform((method, path, body) => {
      if (method === 'GET' && /^\/v1\/payments\/[0-9]+$/.test(path)) {
        const { MerchantTransactionID, Description: _dropped, ...rest } = body.Payment;
        body.Payment = { ...rest, MerchantTransactionId: MerchantTransactionID, Amount: Number(rest.Amount) };
      }
      return body;
    });
    const p = await created();
    // Read with fetch: the planted answer is one the OpenAPI document (rightly) refuses.
    const read = () => fetch(`${rig.drift.apiUrl}/v1/payments/${p.ID}`, { headers: { Authorization: AUTH } });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    await rig.settle();
    const list = rig.drift.report.list();
    expect(kinds(list).sort()).toEqual(
      [
        ['missing field', 'GET /v1/payments/{id}', 'Payment.MerchantTransactionId'],
        ['extra field', 'GET /v1/payments/{id}', 'Payment.MerchantTransactionID'],
        ['extra field', 'GET /v1/payments/{id}', 'Payment.Description'],
        ['type', 'GET /v1/payments/{id}', 'Payment.Amount'],
      ].sort(),
    );
    // Seen on both reads: one difference each, counted twice.
    expect(list.map((d) => d.Count)).toEqual([2, 2, 2, 2]);
    expect(list.find((d) => d.Kind === 'type')).toMatchObject({ Upstream: 1000, Shadow: '1000' });
  });

  it('a method one-step upstream and two-step in the shadow: one status path difference', async () => {
    rig = await startRig({ scenario: 'one-step' });
    await created();
    await rig.upstream.clock.advance(2);
    await rig.settle();
    const list = rig.drift.report.list();
    expect(kinds(list)).toEqual([['status path', 'notification Payment', null]]);
    expect(list[0]!.Call).toMatchObject({ Method: 'POST', Path: '/v1/payments' });
    expect(entryOf(list[0]!)).toMatchObject({ Method: 'POST', Route: '/v1/payments', Status: 201 });
  });

  it('a notification the upstream does not send: one notification difference', async () => {
    rig = await startRig();
    const p = await created();
    rig.upstream.faults.add({ Channel: 'notifications', Match: { StatusID: 9 }, Action: { Drop: true } });
    await rig.event(p.ID, 'authorize');
    await rig.settle();
    // The real payment moved without a word: the integration's next read shows it, and the shadow follows.
    await rig.api('get', `/v1/payments/${p.ID}`).expect(200);
    await rig.settle();
    const list = rig.drift.report.list();
    expect(kinds(list)).toEqual([['notification', 'notification Payment', null]]);
    expect(list[0]).toMatchObject({ Upstream: '(none sent)', Shadow: 'Payment', Call: { Method: 'GET', Path: `/v1/payments/${p.ID}` } });
    expect(rig.integration.received).toHaveLength(0);
  });

  it('notifications of a payment sent in another order (the upstream holds one back): one notification order difference', async () => {
    rig = await startRig();
    const p = await created();
    rig.upstream.faults.add({ Channel: 'notifications', Match: { StatusID: 9 }, Action: { Delay: '10s' } });
    await rig.event(p.ID, 'authorize');
    await rig.settle();
    // The integration reads the payment (the shadow follows it there), captures it, and only then is the authorization told.
    await rig.api('get', `/v1/payments/${p.ID}`).expect(200);
    await rig.api('post', `/v1/payments/${p.ID}/capture`).expect(200);
    await rig.upstream.clock.advance(10);
    await rig.settle();
    const list = rig.drift.report.list();
    expect(kinds(list)).toEqual([['notification order', 'notification Payment', null]]);
    expect(list[0]).toMatchObject({ Upstream: ['Payment 2', 'Payment 9'], Shadow: ['Payment 9', 'Payment 2'] });
  });
});
