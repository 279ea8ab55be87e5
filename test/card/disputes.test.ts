// Disputes (chargebacks) on captured card payments: opened and settled through the control API and the
// dashboard, kept in the payment's history, and notified to a real receiver as {"Dispute": …}.
import request from 'supertest';
import { disputeResponse, messageResponse } from '../../src/schemas/responses';
import { expectSchema, makeWorld, snapshot, type World } from '../helpers/world';
import { type Agent, signedIn, submit, withOutbox } from '../dashboard/helpers';
import { AUTH, type Rig, advance, boot, journal, shutdown, stamp } from '../lifecycle/harness';

let seq = 0;
const CARD = { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' };
const cardBody = (over: Record<string, unknown> = {}) => ({
  Payment: { MerchantTransactionID: `disp-${++seq}`, Amount: 9000, Currency: 'EUR', Capture: false, Card: CARD, ...over },
});

describe('disputes through the control API, notified to a real receiver', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  async function captured(over: Record<string, unknown> = {}, query = '') {
    const sb = rig!.sb;
    const p = (await request(sb.cardBaseUrl).post('/v1/payments').set('Authorization', AUTH).send(cardBody(over)).expect(201)).body.Payment;
    await request(sb.cardBaseUrl).post(`/v1/payments/${p.ID}/capture${query}`).set('Authorization', AUTH).expect(200);
    return p as { ID: number };
  }
  const dispute = (id: number) => request(rig!.sb.baseUrl).post(`/_sandbox/payments/${id}/events`).send({ Event: 'dispute' });
  const settle = (id: number, Event: string) => request(rig!.sb.baseUrl).post(`/_sandbox/disputes/${id}/events`).send({ Event });

  it('opens a dispute for what was captured (Open, 1), then loses it (DisputeLost, 24); each notified as the SDKs’ Dispute structure, signed as the marketplace', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await captured({}, '?amount=4500');
    await advance(sb, 1);
    rx.received.length = 0;

    const opened = await dispute(p.ID);
    expect(opened.status).toBe(200);
    const expected = {
      ID: expect.any(Number),
      SiteID: 30201,
      Created: stamp(1000),
      PaymentID: p.ID,
      MethodID: 6,
      Amount: '4500',
      Currency: 'EUR',
      Status: { ID: 1, Info: 'Open', Reasons: null },
    };
    expectSchema(disputeResponse, opened.body);
    expect(opened.body).toEqual({ Dispute: expected });
    await advance(sb, 1);
    expect(rx.received.map((r) => r.body)).toEqual([{ Dispute: expected }]);
    expect(rx.received[0]!.headers.authorization).toBe(AUTH);

    const lost = await settle(opened.body.Dispute.ID, 'lose');
    expect(lost.status).toBe(200);
    expect(lost.body.Dispute).toEqual({ ...expected, ID: opened.body.Dispute.ID, Status: { ID: 24, Info: 'DisputeLost', Reasons: null } });
    await advance(sb, 1);
    expect(rx.received.map((r) => r.body.Dispute.Status.ID)).toEqual([1, 24]);
    const notes = await journal(sb, p.ID);
    expect(notes.slice(-2).map((n: any) => [n.StatusID, n.StatusInfo, n.State])).toEqual([
      [1, 'Open', 'delivered'],
      [24, 'DisputeLost', 'delivered'],
    ]);

    const history = (await request(sb.baseUrl).get(`/_sandbox/payments/${p.ID}/history`)).body.History;
    expect(history.slice(-2)).toEqual([
      { At: stamp(1000), RefundID: null, DisputeID: opened.body.Dispute.ID, StatusID: 1, StatusInfo: 'Open', Cause: `dispute ${opened.body.Dispute.ID} opened` },
      { At: stamp(2000), RefundID: null, DisputeID: opened.body.Dispute.ID, StatusID: 24, StatusInfo: 'DisputeLost', Cause: `dispute ${opened.body.Dispute.ID} lost` },
    ]);
    const seen = (await request(sb.baseUrl).get(`/_sandbox/payments/${p.ID}`)).body;
    expect(seen.Disputes).toEqual([lost.body.Dispute]);
    expect(seen.Captures).toEqual([expect.objectContaining({ PaymentID: p.ID, Amount: 4500 })]);
    // The payment itself keeps its status.
    const payment = (await request(sb.cardBaseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH)).body.Payment;
    expect(payment.Status).toEqual({ ID: 35, Info: 'PartiallyCaptured', Reasons: [] });
  });

  it('a won dispute is DisputeWon (23); a payment may be disputed again once the last dispute ended', async () => {
    rig = await boot();
    const p = await captured();
    const first = (await dispute(p.ID)).body.Dispute;
    expect((await settle(first.ID, 'win')).body.Dispute.Status).toEqual({ ID: 23, Info: 'DisputeWon', Reasons: null });
    const second = await dispute(p.ID);
    expect(second.status).toBe(200);
    expect(second.body.Dispute).toMatchObject({ Amount: '9000', Status: { ID: 1 } });
    await advance(rig.sb, 1);
    expect(rig.rx.received.filter((r) => r.body.Dispute).map((r) => r.body.Dispute.Status.ID)).toEqual([1, 23, 1]);
  });

  it('a merchant who chose its NotifyStatuses hears of the dispute statuses it chose', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ NotifyStatuses: [24] }).expect(200);
    const p = await captured();
    const d = (await dispute(p.ID)).body.Dispute;
    await settle(d.ID, 'lose').expect(200);
    await advance(sb, 2);
    expect(rx.received.map((r) => Object.keys(r.body)[0] + ' ' + (r.body.Dispute ?? r.body.Payment).Status.ID)).toEqual(['Dispute 24']);
  });

  it('refuses with 400 {"Message"}: an uncaptured or API payment, a second open dispute, settling twice, an unknown event; 404 for unknown IDs', async () => {
    rig = await boot();
    const { sb } = rig;
    const authorized = (await request(sb.cardBaseUrl).post('/v1/payments').set('Authorization', AUTH).send(cardBody()).expect(201)).body.Payment;
    const p = await captured();
    const open = (await dispute(p.ID)).body.Dispute;
    for (const res of [await dispute(authorized.ID), await dispute(p.ID)]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ Message: expect.stringMatching(/^Event dispute refused for payment \d+: /) });
    }
    // The refusals opened nothing: the one dispute is still the only one.
    const history = (await request(sb.baseUrl).get(`/_sandbox/payments/${p.ID}/history`)).body.History;
    expect(history.filter((h: any) => h.DisputeID !== undefined).map((h: any) => h.DisputeID)).toEqual([open.ID]);
    await settle(open.ID, 'lose').expect(200);
    const twice = await settle(open.ID, 'win');
    expect(twice.status).toBe(400);
    expect(twice.body.Message).toContain('only an Open dispute');
    const bad = await settle(open.ID, 'draw');
    expect(bad.status).toBe(400);
    for (const res of [await settle(999999, 'win'), await dispute(999999)]) {
      expect(res.status).toBe(404);
      expectSchema(messageResponse, res.body);
      expect(res.body.Message).toMatch(/not found/);
    }
  });
});

describe('disputes and captures on the dashboard', () => {
  let w: World;
  let agent: Agent;
  beforeEach(async () => {
    w = makeWorld();
    withOutbox(w);
    agent = await signedIn(w);
  });
  afterEach(() => w.close());

  it('shows a card payment’s captures and disputes, opens a dispute, wins it; splits are captured one by one', async () => {
    const splits = [
      { SiteID: 30202, Amount: '6000', MerchantTransactionID: 'ds-1' },
      { SiteID: 30203, Amount: '3000', MerchantTransactionID: 'ds-2' },
    ];
    const p = (await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(cardBody({ Splits: splits })).expect(201)).body.Payment;
    let page = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(page).toContain('No captures.');
    expect(page).toContain('No disputes.');

    expect((await submit(agent, `/dashboard/payments/${p.ID}/card-capture`, { SplitID: String(p.Splits[0].ID), Amount: '' })).status).toBe(303);
    expect(w.store.payments.getAny(p.ID)).toMatchObject({ statusId: 35, capturedAmount: 6000n });
    page = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(page).toMatch(/<h2>Captures<\/h2><table>.*ds-1.*60\.00 EUR.*Success \(2\)/s);

    expect((await submit(agent, `/dashboard/payments/${p.ID}/dispute`, { Event: 'open' })).status).toBe(303);
    const [d] = w.store.disputes.ofPayment(p.ID);
    expect(d).toMatchObject({ amount: 6000n, statusId: 1 });
    page = (await agent.get(`/dashboard/payments/${p.ID}`)).text;
    expect(page).toContain(`Win dispute ${d!.id}`);
    expect(page).toMatch(/<h2>Disputes<\/h2><table>.*Open \(1\)/s);

    expect((await submit(agent, `/dashboard/payments/${p.ID}/dispute`, { Event: 'win', DisputeID: String(d!.id) })).status).toBe(303);
    expect(w.store.disputes.get(d!.id)!.statusId).toBe(23);
    const sent = w.store.notifications.list({ paymentId: p.ID }).map((n: any) => JSON.parse(n.body));
    expect(sent.filter((b: any) => b.Dispute).map((b: any) => b.Dispute.Status.ID)).toEqual([1, 23]);

    const before = snapshot(w.store);
    const again = await submit(agent, `/dashboard/payments/${p.ID}/dispute`, { Event: 'lose', DisputeID: String(d!.id) });
    // Refused like every dashboard action: back to the payment's page, which says why, once.
    expect(again.status).toBe(303);
    expect(snapshot(w.store)).toBe(before);
    expect((await agent.get(`/dashboard/payments/${p.ID}`)).text).toContain('only an Open dispute');
  });

  it('lists the merchant’s card payouts, newest first', async () => {
    const mk = (mtid: string, year: string) =>
      request(w.card).post('/v1/payouts').set('Authorization', w.auth).send({ Payout: { MerchantTransactionID: mtid, Amount: 1000, Currency: 'EUR', Card: { ...CARD, ExpirationYear: year } } });
    await mk('po-a', '2030').expect(201);
    await mk('po-b', '2018').expect(400);
    const page = (await agent.get('/dashboard/payouts')).text;
    expect(page).toMatch(/po-b.*Failed \(4\).*1205.*po-a.*VISA-1111.*Success \(2\)/s);
  });
});
