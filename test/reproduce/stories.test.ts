// Stories: what happened to a payment, told as a scenario file with its create request, replayed
// on a fresh sandbox (whose IDs differ) as a new payment that goes through the same statuses,
// amounts and notifications.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Sandbox } from '../../src/main';
import { SHIPPED_SCENARIOS_DIR } from '../../src/scenarios/loader';
import type { Receiver } from '../helpers/receiver';
import { paymentBody } from '../helpers/world';
import { AUTH, type Rig, advance, boot, shutdown, story } from '../lifecycle/harness';
import { tablesOf } from './helpers';

/** The method each shipped scenario is run with (as in the scenarios' own table). */
const METHODS: Record<string, number> = {
  'one-step': 1,
  'two-step': 42,
  'two-step-capture-requested': 1078,
  'partial-capture': 42,
  failed: 2,
  expired: 2,
  'cancelled-by-payer': 2,
  'refund-then-add-splits': 2,
  'payer-decides': 42,
};

async function create(sb: Sandbox, body: object, scenario?: string): Promise<any> {
  let req = request(sb.baseUrl).post('/v1/payments').set('Authorization', AUTH);
  if (scenario) req = req.set('X-Sandbox-Scenario', scenario);
  const res = await req.send(body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment;
}

async function storyFile(sb: Sandbox, id: number): Promise<any> {
  const res = await request(sb.baseUrl).get(`/_sandbox/payments/${id}/story`);
  if (res.status !== 200) throw new Error(`story failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function replay(sb: Sandbox, file: object): Promise<number> {
  const res = await request(sb.baseUrl).post('/_sandbox/replay').send(file);
  if (res.status !== 201) throw new Error(`replay failed: ${res.status} ${JSON.stringify(res.body)}`);
  expect(Object.keys(res.body)).toEqual(['PaymentID']);
  return res.body.PaymentID;
}

/** The notifications one payment's receiver heard, in order: P9 = Payment in status 9, R2 = a refund in status 2. */
function heard(rx: Receiver, paymentId: number): string[] {
  return rx.received
    .filter((r) => r.body?.Payment?.ID === paymentId || r.body?.Refund?.InitialPaymentID === paymentId)
    .map((r) => (r.body.Payment ? `P${r.body.Payment.Status.ID}` : `R${r.body.Refund.Status.ID}`));
}

/** What must be the same after a replay: statuses at their offsets, and every amount. */
async function outcome(sb: Sandbox, id: number) {
  const s = await story(sb, id);
  const file = await storyFile(sb, id);
  return {
    history: file.Story.History.map((h: any) => [h.After, h.StatusID, h.Refund]),
    payment: [s.Payment.Status.ID, s.Payment.Amount, s.Payment.CapturedAmount],
    splits: s.Payment.Splits.map((x: any) => [x.SiteID, x.Amount, x.CapturedAmount, x.StateDetails.ID]),
    refunds: s.Refunds.map((r: any) => [r.Amount, r.Status.ID, r.Description]),
    steps: s.Steps.map((x: any) => [x.Do, x.State, String(x.Outcome).replace(/\d{7}/g, 'ID')]),
  };
}

/** A story's steps with the MerchantTransactionIDs a replay derives put back to the original's. */
function stepsOf(file: any): unknown {
  return JSON.parse(JSON.stringify(file.Steps).replace(/-replay\d+"/g, '"'));
}

describe('stories', () => {
  let a: Rig | undefined;
  let b: Rig | undefined;
  afterEach(async () => {
    await shutdown(a);
    await shutdown(b);
    a = b = undefined;
  });

  /** Sandbox B: fresh, with one payment of its own first, so that its IDs differ from A's. */
  async function otherSandbox(): Promise<Rig> {
    const rig = await boot();
    await create(rig.sb, paymentBody({ MerchantTransactionID: 'b-own' }), 'failed');
    return rig;
  }

  const shipped = readdirSync(SHIPPED_SCENARIOS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

  it('has a method for every shipped scenario', () => expect(Object.keys(METHODS).sort()).toEqual(shipped));

  it.each(shipped)('the story of a %s payment replays on a fresh sandbox with the same statuses, amounts and notifications', async (name) => {
    a = await boot();
    const body = paymentBody({ MethodID: METHODS[name] });
    const original = await create(a.sb, body, name);
    // Nothing moves a payer-decides payment but the payer (here through the control API).
    if (name === 'payer-decides') await request(a.sb.baseUrl).post(`/_sandbox/payments/${original.ID}/events`).send({ Event: 'authorize' }).expect(200);
    await advance(a.sb, 2);
    // The merchant captures what its scenario leaves Authorized.
    if ((await story(a.sb, original.ID)).Payment.Status.ID === 9 && name !== 'partial-capture') {
      await request(a.sb.baseUrl).post(`/v1/payments/${original.ID}/capture`).set('Authorization', AUTH).expect(200);
    }
    await advance(a.sb, 60);
    const told = await storyFile(a.sb, original.ID);
    expect(told).toMatchObject({ Name: `story-${original.ID}`, Refunds: { Outcome: 'none' }, Story: { PaymentID: original.ID, SiteID: 30201, Scenario: name } });
    // The create request as it was sent (the TokenLifetime too, which a cancel or expiry erases).
    expect(told.Request).toEqual(body);

    b = await otherSandbox();
    const id = await replay(b.sb, told);
    expect(id).not.toBe(original.ID);
    await advance(b.sb, 120);
    const replayed = await outcome(b.sb, id);
    const was = await outcome(a.sb, original.ID);
    expect({ ...replayed, steps: undefined }).toEqual({ ...was, steps: undefined });
    expect(heard(b.rx, id)).toEqual(heard(a.rx, original.ID));
    expect(heard(b.rx, id).length).toBeGreaterThan(0);
    // The replay's own story is the same story.
    expect(stepsOf(await storyFile(b.sb, id))).toEqual(told.Steps);
    // Fresh MerchantTransactionIDs, derived from the original's.
    const got = (await story(b.sb, id)).Payment;
    expect(got.MerchantTransactionID).toBe(`${body.Payment.MerchantTransactionID}-replay1`);
    expect(got.Splits.slice(0, 3).map((s: any) => s.MerchantTransactionID)).toEqual(['split-1-replay1', 'split-2-replay1', 'split-3-replay1']);
  });

  it('tells a payment driven by hand (added split, per-split capture, two refunds with their own outcomes) and replays it', async () => {
    a = await boot();
    const body = paymentBody({
      MerchantTransactionID: 'by-hand',
      Splits: [
        { SiteID: 30202, Amount: '600', MerchantTransactionID: 'by-hand-a' },
        { SiteID: 30203, Amount: '300', MerchantTransactionID: 'by-hand-b' },
      ],
    });
    const p = await create(a.sb, body, 'two-step');
    const api = (path: string) => request(a!.sb.baseUrl).post(`/v1/payments/${p.ID}${path}`).set('Authorization', AUTH);
    await advance(a.sb, 2); // Authorized by the scenario
    await advance(a.sb, 1);
    const added = await api('/splits').send({ Splits: [{ SiteID: 30204, Amount: '100', MerchantTransactionID: 'by-hand-c' }] });
    expect(added.status).toBe(201);
    const [s0, s1, s2] = [p.Splits[0].ID, p.Splits[1].ID, added.body.Splits[0].ID];
    await advance(a.sb, 1);
    const capture = await api('/capture').send({ Payment: { Splits: [{ ID: s0, Amount: 500 }, { ID: s2, Amount: '100' }] } });
    expect(capture.body.Payment.Status.ID).toBe(35);
    await advance(a.sb, 1);
    await api(`/splits/${s0}/refunds`).send({ Refund: { Amount: 200, Description: 'damaged' } }).expect(201);
    await advance(a.sb, 0.5);
    const second = await api(`/splits/${s2}/refunds`).send({ Refund: { Amount: '50', MerchantTransactionID: 'by-hand-r2' } });
    await advance(a.sb, 0.3);
    await request(a.sb.baseUrl).post(`/_sandbox/refunds/${second.body.Refund.ID}/events`).send({ Event: 'fail' }).expect(200);
    await advance(a.sb, 60);
    // The merchant split s1 was never captured: refunding it is refused, and changes nothing.
    expect((await api(`/splits/${s1}/refunds`).send({ Refund: { Amount: 1 } })).status).toBe(400);

    const told = await storyFile(a.sb, p.ID);
    expect(told).toEqual({
      Name: `story-${p.ID}`,
      Description: `What happened to payment ${p.ID} (by-hand): Open → Authorized → PartiallyCaptured; refund 1 Success, refund 2 Failed.`,
      CaptureRequested: false,
      Steps: [
        { On: 'created', After: '2000ms', Do: 'authorize' },
        { On: 'created', After: '3000ms', Do: 'add-splits', NewSplits: [{ SiteID: 30204, Amount: '100', MerchantTransactionID: 'by-hand-c' }] },
        { On: 'created', After: '4000ms', Do: 'capture-splits', Splits: [{ Split: 0, Amount: '500' }, { Split: 2, Amount: '100' }] },
        { On: 'created', After: '5000ms', Do: 'refund', Split: 0, Amount: '200', Description: 'damaged' },
        { On: 'created', After: '5500ms', Do: 'refund', Split: 2, Amount: '50', Description: '', MerchantTransactionID: 'by-hand-r2' },
        { On: 'created', After: '5800ms', Do: 'refund-fail', Refund: 1 },
        { On: 'created', After: '6000ms', Do: 'refund-succeed', Refund: 0 },
      ],
      Refunds: { Outcome: 'none' },
      Request: body,
      Story: {
        PaymentID: p.ID,
        SiteID: 30201,
        Scenario: 'two-step',
        Created: '20260115100000',
        History: [
          { After: '0ms', StatusID: 1, StatusInfo: 'Open', Refund: null, Cause: 'created' },
          { After: '2000ms', StatusID: 9, StatusInfo: 'Authorized', Refund: null, Cause: 'scenario two-step: authorize' },
          { After: '4000ms', StatusID: 35, StatusInfo: 'PartiallyCaptured', Refund: null, Cause: 'capture per split' },
          { After: '5000ms', StatusID: 1, StatusInfo: 'Open', Refund: 0, Cause: 'refund requested' },
          { After: '5500ms', StatusID: 1, StatusInfo: 'Open', Refund: 1, Cause: 'refund requested' },
          { After: '5800ms', StatusID: 4, StatusInfo: 'Failed', Refund: 1, Cause: 'refund fail' },
          { After: '6000ms', StatusID: 2, StatusInfo: 'Success', Refund: 0, Cause: 'refund succeed' },
        ],
        // The refund of the split never captured, refused above, is part of the story.
        Refused: [
          { After: '65800ms', Method: 'POST', Path: `/v1/payments/${p.ID}/splits/${s1}/refunds`, Route: '/v1/payments/{id}/splits/{splitId}/refunds', Status: 400, ReasonCodes: [18], Fault: null, NearMiss: null },
        ],
      },
    });

    b = await otherSandbox();
    const id = await replay(b.sb, told);
    await advance(b.sb, 60);
    const replayed = await outcome(b.sb, id);
    const was = await outcome(a.sb, p.ID);
    expect({ ...replayed, steps: undefined }).toEqual({ ...was, steps: undefined });
    expect(replayed.refunds).toEqual([
      ['200', 2, 'damaged'],
      ['50', 4, ''],
    ]);
    expect(heard(b.rx, id)).toEqual(['P9', 'P35', 'R4', 'R2']);
    expect(heard(b.rx, id)).toEqual(heard(a.rx, p.ID));
    const replayedRefunds = (await story(b.sb, id)).Refunds;
    expect(replayedRefunds[1].MerchantTransactionID).toBe('by-hand-r2-replay1');
    expect(replayedRefunds[0].MerchantTransactionID).toBe(`by-hand-replay1-R${replayedRefunds[0].ID}`);
    expect(stepsOf(await storyFile(b.sb, id))).toEqual(told.Steps);

    // Replayed again on the same sandbox: the next free MerchantTransactionIDs.
    const again = await replay(b.sb, told);
    expect((await story(b.sb, again)).Payment.MerchantTransactionID).toBe('by-hand-replay2');
  });

  it('tells the whole-payment refund of a payment without splits and replays it', async () => {
    a = await boot();
    const plain = 'Basic ' + Buffer.from('30300:P1ainSh0p+Key/For=Sandbox').toString('base64');
    const body = { Payment: { MerchantTransactionID: 'plain-1', Amount: '900', Currency: 'EUR', MethodID: 1, ReturnURL: 'https://shop.example/return' } };
    const created = await request(a.sb.baseUrl).post('/v1/payments').set('Authorization', plain).set('X-Sandbox-Scenario', 'one-step').send(body);
    expect(created.status).toBe(201);
    const original = created.body.Payment;
    await advance(a.sb, 2);
    const refund = await request(a.sb.baseUrl)
      .post(`/v1/payments/${original.ID}/refunds`)
      .set('Authorization', plain)
      .send({ Refund: { Amount: 300, Description: 'one item back' } });
    expect(refund.status).toBe(201);
    expect(refund.body.Refund.SplitID).toBe(0);
    await advance(a.sb, 60);
    const told = await storyFile(a.sb, original.ID);
    const refundStep = told.Steps.find((x: any) => x.Do === 'refund');
    expect(refundStep).toEqual({ On: 'created', After: expect.any(String), Do: 'refund', Amount: '300', Description: 'one item back' });

    b = await otherSandbox();
    const id = await replay(b.sb, told);
    await advance(b.sb, 120);
    const replayed = await story(b.sb, id);
    expect(replayed.Payment.Status.ID).toBe(2);
    expect(replayed.Refunds.map((r: any) => [r.Amount, r.Status.ID, r.SplitID, r.Description])).toEqual([['300', 2, 0, 'one item back']]);
    expect(replayed.History.map((h: any) => h.StatusID)).toEqual((await story(a.sb, original.ID)).History.map((h: any) => h.StatusID));
  });

  it('a story is a scenario file: --scenarios loads it, and a payment created with it follows the story', async () => {
    a = await boot();
    const p = await create(a.sb, paymentBody({ MethodID: 1078 }), 'two-step-capture-requested');
    await advance(a.sb, 2);
    await request(a.sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH).expect(200);
    await advance(a.sb, 10);
    const told = await storyFile(a.sb, p.ID);
    expect(told.CaptureRequested).toBe(true);
    expect(told.Steps.map((s: any) => [s.After, s.Do])).toEqual([
      ['2000ms', 'authorize'],
      ['2000ms', 'capture'],
      ['4000ms', 'settle'],
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-stories-'));
    try {
      writeFileSync(join(dir, `${told.Name}.json`), JSON.stringify(told, null, 2));
      b = await boot({ scenarioDirs: [dir] });
      const listed = (await request(b.sb.baseUrl).get('/_sandbox/scenarios')).body.Scenarios.map((s: any) => s.Name);
      expect(listed).toContain(told.Name);
      const q = await create(b.sb, paymentBody({ MethodID: 1078, MerchantTransactionID: 'from-the-file' }), told.Name);
      await advance(b.sb, 10);
      expect((await outcome(b.sb, q.ID)).history).toEqual((await outcome(a.sb, p.ID)).history);
      expect(heard(b.rx, q.ID)).toEqual(['P9', 'P13', 'P2']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what cannot be told or replayed with a 4xx {"Message"}, and a refused replay changes nothing', async () => {
    a = await boot();
    const { sb } = a;
    expect((await request(sb.baseUrl).get('/_sandbox/payments/999/story')).body).toEqual({ Message: 'Payment not found.' });
    expect((await request(sb.baseUrl).get('/_sandbox/payments/abc/story')).status).toBe(404);
    const card = await request(sb.cardBaseUrl)
      .post('/v1/payments')
      .set('Authorization', AUTH)
      .send({ Payment: { MerchantTransactionID: 'card-1', Amount: 100, Currency: 'EUR', Card: { HolderName: 'A', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030' } } });
    const cardStory = await request(sb.baseUrl).get(`/_sandbox/payments/${card.body.Payment.ID}/story`);
    expect(cardStory.status).toBe(400);
    expect(cardStory.body.Message).toMatch(/card API: stories tell of payments of the split-payments API$/);

    const p = await create(sb, paymentBody(), 'two-step');
    const told = await storyFile(sb, p.ID);
    const before = tablesOf(sb.services.store);
    const refusals: [unknown, number, RegExp][] = [
      [undefined, 400, /^The request body is missing/],
      [{ ...told, Request: undefined }, 400, /^Request is missing$/],
      [{ ...told, Steps: [{ Do: 'dance' }] }, 400, /^Steps\[0\]\.Do is invalid: must be one of/],
      [{ ...told, Steps: [{ Do: 'capture-splits' }] }, 400, /Steps\[0\] \(capture-splits\) needs Splits/],
      [{ ...told, Steps: [{ Do: 'refund-fail' }] }, 400, /Steps\[0\] \(refund-fail\) needs Refund/],
      [{ ...told, Story: { SiteID: 4242 } }, 400, /^Story\.SiteID is invalid: this sandbox has no merchant 4242$/],
      [{ ...told, Story: { SiteID: 30202 } }, 400, /^Story\.SiteID is invalid/],
      [{ ...told, Request: { Payment: { ...told.Request.Payment, Splits: [{ SiteID: 30300, Amount: '1', MerchantTransactionID: 'x' }] } } }, 400, /^Request was refused: 2 Payment\.Splits\[0\]\.SiteID is invalid/],
      [{ ...told, Request: { Payment: { ...told.Request.Payment, Amount: '10.50' } } }, 400, /^Request was refused: 118 Payment\.Amount is invalid/],
      ['{"Name":', 400, /not valid JSON/],
    ];
    for (const [sent, status, message] of refusals) {
      let req = request(sb.baseUrl).post('/_sandbox/replay');
      if (sent !== undefined) req = req.set('Content-Type', 'application/json').send(typeof sent === 'string' ? sent : JSON.stringify(sent));
      const res = await req;
      expect({ sent: JSON.stringify(sent)?.slice(0, 60), status: res.status }).toEqual({ sent: JSON.stringify(sent)?.slice(0, 60), status });
      expect(Object.keys(res.body)).toEqual(['Message']);
      expect(res.body.Message).toMatch(message);
    }
    expect(tablesOf(sb.services.store)).toEqual(before);
  });
});
