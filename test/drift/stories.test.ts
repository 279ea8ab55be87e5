// A payment that differed, written as a story from the calls made on the upstream: it replays on a
// sandbox as what the upstream did, and keeps no card number, security code or key.
import request from 'supertest';
import { PaymentRecorder, type RecordedCall, StoryError, paymentIdOfPath, storyOfPayment } from '../../src/drift/stories';
import type { Difference } from '../../src/drift/differences';
import { AUTH, type Rig, advance, boot, shutdown, story } from '../lifecycle/harness';
import { START, paymentBody } from '../helpers/world';

const CARD = '4111111111111111';

describe('storyOfPayment', () => {
  let upstream: Rig | undefined;
  let sandbox: Rig | undefined;
  afterEach(async () => {
    await shutdown(upstream);
    await shutdown(sandbox);
    upstream = sandbox = undefined;
  });

  it('tells an upstream payment (authorized, captured per split, a split refunded) so that it replays on a sandbox the same', async () => {
    upstream = await boot();
    const up = upstream.sb;
    let now = START;
    const calls: RecordedCall[] = [];
    const seen: { at: number; statusId: number }[] = [];
    /** A call of the integration on the upstream, recorded as the proxy records it. */
    const call = async (method: 'GET' | 'POST', path: string, body?: object) => {
      let req = method === 'GET' ? request(up.baseUrl).get(path) : request(up.baseUrl).post(path);
      req = req.set('Authorization', AUTH);
      if (path === '/v1/payments' && method === 'POST') req = req.set('X-Sandbox-Scenario', 'payer-decides');
      const res = body === undefined ? await req : await req.send(body);
      calls.push({ method, path, body, at: now, status: res.status, answer: res.body });
      return res;
    };
    const tick = async (seconds: number) => {
      await advance(up, seconds);
      now += seconds * 1000;
    };

    const created = (await call('POST', '/v1/payments', paymentBody({ MerchantTransactionID: 'drift-order' }))).body.Payment;
    const [s1, s2] = created.Splits.map((s: { ID: number }) => s.ID);
    await tick(1);
    // The payer authorizes on the upstream; the integration sees it in a notification.
    await request(up.baseUrl).post(`/_sandbox/payments/${created.ID}/events`).send({ Event: 'authorize' }).expect(200);
    seen.push({ at: now, statusId: 9 });
    await tick(1);
    expect((await call('POST', `/v1/payments/${created.ID}/capture`, { Payment: { Splits: [{ ID: s1, Amount: 600 }, { ID: s2, Amount: 200 }] } })).status).toBe(200);
    await tick(1);
    // Refused upstream: no step of the story.
    expect((await call('POST', `/v1/payments/${created.ID}/capture`)).status).toBe(400);
    await tick(1);
    const refund = (await call('POST', `/v1/payments/${created.ID}/splits/${s1}/refunds`, { Refund: { Amount: 100, Description: 'damaged' } })).body.Refund;
    expect(refund.Status.ID).toBe(1);
    await tick(1);
    expect((await call('GET', `/v1/payments/${created.ID}`)).status).toBe(200);

    const told = storyOfPayment({ paymentId: String(created.ID), siteId: 30201, calls, seen });
    expect(told.Steps).toEqual([
      { On: 'created', After: '1000ms', Do: 'authorize' },
      { On: 'created', After: '2000ms', Do: 'capture-splits', Splits: [{ Split: 0, Amount: '600' }, { Split: 1, Amount: '200' }] },
      { On: 'created', After: '4000ms', Do: 'refund', Split: 0, Amount: '100', Description: 'damaged' },
    ]);
    expect(told.Story.Calls.map((c) => c.Status)).toEqual([201, 200, 400, 201, 200]);

    sandbox = await boot();
    const replayed = await request(sandbox.sb.baseUrl).post('/_sandbox/replay').send(told);
    expect(replayed.status).toBe(201);
    await advance(sandbox.sb, 60);
    const [was, now2] = [await story(up, created.ID), await story(sandbox.sb, replayed.body.PaymentID)];
    const outcome = (s: any) => ({
      payment: [s.Payment.Status.ID, s.Payment.Amount, s.Payment.CapturedAmount],
      splits: s.Payment.Splits.map((x: any) => [x.SiteID, x.Amount, x.CapturedAmount, x.StateDetails.ID]),
      // The split refunded, by index: the replay's IDs are its own.
      refunds: s.Refunds.map((r: any) => [r.Amount, s.Payment.Splits.findIndex((x: any) => x.ID === r.SplitID), r.Description]),
    });
    expect(outcome(now2)).toEqual(outcome(was));
    expect(outcome(now2)).toMatchObject({ payment: [35, '1000', '800'], refunds: [['100', 0, 'damaged']] });
  });

  const differences: Difference[] = [
    {
      Kind: 'type',
      Route: 'POST /v1/payments',
      Field: 'Payment.Card.Number',
      Upstream: CARD,
      Shadow: Number(CARD),
      Count: 1,
      Call: { Method: 'POST', Path: `/v1/payments?card=${CARD}&apikey=real`, JournalID: 1, At: '' },
    },
  ];

  it('keeps no card number, security code or key, in the request, the steps, the calls or the differences', () => {
    const told = storyOfPayment({
      paymentId: '3005042',
      calls: [
        {
          method: 'POST',
          path: '/v1/payments',
          body: { Payment: { MerchantTransactionID: 'o-1', Amount: '100', Currency: 'EUR', Card: { Number: CARD, SecurityCode: '737', APIKey: 'real-key' } } },
          at: 0,
          status: 201,
          answer: { Payment: { ID: 3005042, Status: { ID: 1 }, Splits: [{ ID: 7 }] } },
        },
        { method: 'POST', path: '/v1/payments/3005042/splits', body: { Splits: [{ SiteID: 30202, Amount: '5', MerchantTransactionID: 's-1', Note: `x ${CARD}` }] }, at: 5, status: 201, answer: { Splits: [{ ID: 8 }] } },
      ],
      differences,
    });
    const text = JSON.stringify(told);
    for (const secret of [CARD, '737', 'real-key', 'apikey=real']) expect(text).not.toContain(secret);
    expect(told.Request.Payment.Card).toEqual({ Number: 'VISA-1111', SecurityCode: '***', APIKey: '***' });
    expect(told.Steps).toEqual([{ On: 'created', After: '5ms', Do: 'add-splits', NewSplits: [{ SiteID: 30202, Amount: '5', MerchantTransactionID: 's-1', Note: 'x VISA-1111' }] }]);
    expect(told.Description).toMatch(/type POST \/v1\/payments Payment\.Card\.Number/);
  });

  it('names splits by index, refuses a recording that does not start with the create, and a split it never saw', () => {
    const create: RecordedCall = { method: 'POST', path: '/v1/payments', body: { Payment: { Amount: '100' } }, at: 0, status: 201, answer: { Payment: { ID: 9, Splits: [{ ID: 70 }, { ID: 71 }] } } };
    expect(() => storyOfPayment({ paymentId: '9', calls: [] })).toThrow(StoryError);
    expect(() => storyOfPayment({ paymentId: '9', calls: [{ ...create, method: 'GET' }] })).toThrow(/not its create request/);
    const capture = (split: number): RecordedCall => ({ method: 'POST', path: `/v1/payments/9/splits/${split}/capture?amount=40`, at: 10, status: 200 });
    expect(storyOfPayment({ paymentId: '9', calls: [create, capture(71)] }).Steps).toEqual([{ On: 'created', After: '10ms', Do: 'capture-split', Split: 1, Amount: '40' }]);
    expect(() => storyOfPayment({ paymentId: '9', calls: [create, capture(72)] })).toThrow(/split 72/);
  });

  describe('PaymentRecorder', () => {
    const ref = (Path: string, At: string, JournalID: number | null = null) => ({ Method: 'POST', Path, JournalID, At });
    const create = (id: number, at: string): RecordedCall => ({
      method: 'POST',
      path: '/v1/payments',
      body: { Payment: { MerchantTransactionID: `o-${id}`, Amount: '100' } },
      at: 0,
      status: 201,
      answer: { Payment: { ID: id, Status: { ID: 1 }, Splits: [] } },
      ref: ref('/v1/payments', at, id),
    });
    const diff = (Path: string, At: string, JournalID: number | null = null): Difference => ({ Kind: 'value', Route: 'x', Field: 'Payment.Amount', Upstream: '1', Shadow: '2', Count: 1, Call: ref(Path, At, JournalID) });

    it('tells the story of each payment that differed, by the ID in its call or by its create', () => {
      const rec = new PaymentRecorder();
      rec.created('11', create(11, 't1'));
      rec.created('12', create(12, 't2'));
      rec.call('12', { method: 'POST', path: '/v1/payments/12/cancel', at: 3, status: 200 });
      rec.call('99', { method: 'POST', path: '/v1/payments/99/cancel', at: 3, status: 200 });
      rec.seen('11', 2, 9);
      const diffs = [diff('/v1/payments/12/cancel', 't3'), diff('/v1/payments', 't1', 11), diff('/v1/payments/99', 't4')];
      expect(rec.differing(diffs)).toEqual(['12', '11']);
      expect(rec.storyOf('12', diffs)!.Steps).toEqual([{ On: 'created', After: '3ms', Do: 'merchant-cancel' }]);
      expect(rec.storyOf('12', diffs)!.Story.Differences).toHaveLength(1);
      expect(rec.storyOf('11', diffs)!.Steps).toEqual([{ On: 'created', After: '2ms', Do: 'authorize' }]);
      expect(rec.storyOf('99')).toBeUndefined();
      expect(paymentIdOfPath('/v1/payments/12?x=1')).toBe('12');
      expect(paymentIdOfPath('/v1/payments')).toBeNull();
    });

    it('lets the oldest payment go past its bound', () => {
      const rec = new PaymentRecorder(2);
      for (const id of [1, 2, 3]) rec.created(String(id), create(id, `t${id}`));
      expect([rec.has('1'), rec.has('2'), rec.has('3')]).toEqual([false, true, true]);
    });
  });
});
