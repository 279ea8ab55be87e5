// Card payments over time, on a running sandbox with a real receiver: a requested capture ends 1 s later
// (Captured, or Failed for test amount 10005) with its notification; test amounts that stay where they
// are; the notifications of card actions; and a pending capture that survives a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { cardPaymentOut } from '../../src/schemas/responses';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { expectSchema } from '../helpers/world';
import { AUTH, type Rig, advance, boot, journal, labels, shutdown, stamp, story } from './harness';

let seq = 0;

async function createCard(cardBaseUrl: string, overrides: Record<string, unknown> = {}) {
  const res = await request(cardBaseUrl)
    .post('/v1/payments')
    .set('Authorization', AUTH)
    .send({
      Payment: {
        MerchantTransactionID: `card-life-${++seq}`,
        Amount: 9000,
        Currency: 'EUR',
        Capture: true,
        Card: { HolderName: 'John Doe', Number: '4548812049400004', ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: '312' },
        ...overrides,
      },
    });
  if (res.status !== 201) throw new Error(`card create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment;
}

const getCard = async (cardBaseUrl: string, id: number) => (await request(cardBaseUrl).get(`/v1/payments/${id}`).set('Authorization', AUTH)).body.Payment;

describe('card payments over time', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('Capture true: 201 CaptureRequested (13), then Captured (11) 1 s later, notified as {"Payment": card payment}', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createCard(sb.cardBaseUrl);
    expect(p.Status).toEqual({ ID: 13, Info: 'CaptureRequested', Reasons: [] });
    await advance(sb, 0.999);
    expect(rx.received).toHaveLength(0);
    await advance(sb, 0.001);
    expect(labels(rx)).toEqual(['P11']);
    const [n] = rx.received;
    expect(n!.headers.authorization).toBe(AUTH);
    expect(n!.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(cardPaymentOut, n!.body.Payment);
    const now = await getCard(sb.cardBaseUrl, p.ID);
    expect(now).toEqual({ ...p, CapturedAmount: 9000, NotificationDateTime: stamp(1000), Status: { ID: 11, Info: 'Captured', Reasons: [] } });
    expect(n!.body).toEqual({ Payment: now });
    const s = await story(sb, p.ID);
    expect(s.Steps).toEqual([
      { ID: expect.any(Number), Step: null, RefundID: null, Do: 'card-captured', Due: stamp(1000), State: 'done', Ran: stamp(1000), Outcome: 'Captured', Planned: null },
    ]);
    expect(s.History.map((h: any) => [h.At, h.StatusID, h.Cause])).toEqual([
      [stamp(0), 13, 'created'],
      [stamp(1000), 11, 'capture completed'],
    ]);
  });

  it('test amount 10005: the requested capture fails 1 s later (Failed, 4), notified', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createCard(sb.cardBaseUrl, { Amount: 10005 });
    expect(p.Status.ID).toBe(13);
    await advance(sb, 1);
    expect(labels(rx)).toEqual(['P4']);
    expect((await getCard(sb.cardBaseUrl, p.ID)).Status).toEqual({ ID: 4, Info: 'Failed', Reasons: [] });
  });

  it('test amounts 10003 and 10002 stay CaptureRequested and QueuedForCapturing; nothing is notified', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const requested = await createCard(sb.cardBaseUrl, { Amount: 10003 });
    const queued = await createCard(sb.cardBaseUrl, { Amount: 10002 });
    await advance(sb, 3600);
    expect((await getCard(sb.cardBaseUrl, requested.ID)).Status.ID).toBe(13);
    expect((await getCard(sb.cardBaseUrl, queued.ID)).Status).toMatchObject({ ID: 33, Reasons: [{ Code: 5288 }] });
    expect(rx.received).toHaveLength(0);
    // The provider may still settle them (control API), which is notified.
    await request(sb.baseUrl).post(`/_sandbox/payments/${queued.ID}/events`).send({ Event: 'settle' }).expect(200);
    await advance(sb, 0);
    expect(labels(rx)).toEqual(['P11']);
    expect(rx.received[0]!.body.Payment).toMatchObject({ ID: queued.ID, CapturedAmount: 10002 });
  });

  it('notifies the status changes of card actions; a refund made Success at once is not notified, a later change is', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const card = (path: string) => request(sb.cardBaseUrl).post(path).set('Authorization', AUTH);
    const a = await createCard(sb.cardBaseUrl, { Capture: false });
    await card(`/v1/payments/${a.ID}/capture?amount=4500`).expect(200);
    await card(`/v1/payments/${a.ID}/refunds`).send({ Refund: { MerchantTransactionID: 'ra', Amount: 100 } }).expect(201);
    const b = await createCard(sb.cardBaseUrl, { Capture: false, Amount: 10006 });
    await card(`/v1/payments/${b.ID}/cancel`).expect(200);
    const c = await createCard(sb.cardBaseUrl, { Capture: false, Amount: 10004 });
    await card(`/v1/payments/${c.ID}/capture`).expect(200);
    const r = (await card(`/v1/payments/${c.ID}/refunds`).send({ Refund: { MerchantTransactionID: 'rc', Amount: 10004 } }).expect(201)).body.Refund;
    expect(r.Status.ID).toBe(1);
    await advance(sb, 60);
    await request(sb.baseUrl).post(`/_sandbox/refunds/${r.ID}/events`).send({ Event: 'succeed' }).expect(200);
    await advance(sb, 0);
    const byPayment = (id: number) => rx.received.filter((x) => (x.body.Payment?.ID ?? x.body.Refund?.InitialPaymentID) === id).map((x) => ({ body: x.body }));
    expect(byPayment(a.ID).map((x) => [x.body.Payment.Status.ID, x.body.Payment.CapturedAmount])).toEqual([[35, 4500]]);
    expect(byPayment(b.ID).map((x) => x.body.Payment.Status.ID)).toEqual([34]);
    expect(byPayment(c.ID).map((x) => (x.body.Payment ? `P${x.body.Payment.Status.ID}` : `R${x.body.Refund.Status.ID}`))).toEqual(['P11', 'R2']);
    expect(byPayment(c.ID)[1]!.body.Refund).toMatchObject({ ID: r.ID, SplitID: 0, Amount: '10004', Status: { ID: 2, Info: 'Success', Reasons: null } });
    expect((await journal(sb, a.ID)).map((n: any) => [n.StatusID, n.State])).toEqual([[35, 'delivered']]);
  });

  it('the card form: a card entered with Capture true is notified CaptureRequested (13), then Captured (11) 1 s later', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createCard(sb.cardBaseUrl, { ThreeDSecureCheck: true, ReturnURL: 'https://shop.example/back' });
    const url = new URL(p.RedirectURL);
    expect(url.origin).toBe(sb.cardBaseUrl);
    const token = url.searchParams.get('PaymentToken')!;
    await request(sb.cardBaseUrl).post('/v1/Payments/FillCardDetails/authorize').type('form').send({ PaymentToken: token }).expect(303);
    await advance(sb, 1);
    expect(labels(rx)).toEqual(['P13', 'P11']);
    // Notified as the card API shows it: its payment link on the card address.
    expect(rx.received.map((n) => n.body.Payment.RedirectURL)).toEqual([p.RedirectURL, p.RedirectURL]);
  });
});

describe('a requested card capture across a restart', () => {
  let dir: string;
  let rx: Receiver;
  let rig: Rig | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-card-'));
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rig?.sb.stop();
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends Captured at once after the start when it became due while the sandbox was down', async () => {
    const db = join(dir, 'sandbox.db');
    rig = await boot({ db }, rx);
    const p = await createCard(rig.sb.cardBaseUrl);
    await rig.sb.stop();
    rig = await boot({ db, startTime: Date.UTC(2026, 0, 15, 10, 0, 5) }, rx);
    const waited = await request(rig.sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&StatusID=11&TimeoutMs=5000`);
    expect(waited.status).toBe(200);
    expect((await getCard(rig.sb.cardBaseUrl, p.ID)).Status.ID).toBe(11);
  });
});
