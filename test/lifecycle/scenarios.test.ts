// Every shipped scenario, end to end under the manual clock: the exact sequence of states, API
// answers and notifications a real HTTP receiver gets. One table row per scenario file; a scenario
// file without a row fails the test, so a new scenario cannot ship untested.
import { readdirSync } from 'node:fs';
import request from 'supertest';
import { SHIPPED_SCENARIOS_DIR } from '../../src/scenarios/loader';
import { LINKED, START } from '../helpers/world';
import { AUTH, type Rig, advance, boot, createPayment, getPayment, journal, labels, shutdown, stamp, story } from './harness';

/** What the test does at one beat, and what must hold right after it. */
interface Beat {
  /** Seconds to move the clock, or a merchant full capture through the API. */
  do: number | 'capture';
  /** Payment status (GET /v1/payments/{id}) after the beat; for a capture also the status it answers. */
  status: number;
  /** Every notification the receiver has got so far, in order (P9 = Payment status 9, R2 = Refund status 2). */
  received: string[];
}

interface Row {
  methodId: number;
  beats: Beat[];
  /** Payment and refund statuses recorded in the history, in order (R = refund). */
  history: string[];
  /** The steps journal: [Do, State, Outcome]. */
  steps: [string, string, string | RegExp][];
}

const TABLE: Record<string, Row> = {
  'one-step': {
    methodId: 1,
    beats: [
      { do: 1.999, status: 1, received: [] },
      { do: 0.001, status: 2, received: ['P2'] },
      { do: 60, status: 2, received: ['P2'] },
    ],
    history: ['1', '2'],
    steps: [['succeed', 'done', 'Success']],
  },
  'two-step': {
    methodId: 42,
    beats: [
      { do: 1.999, status: 1, received: [] },
      { do: 0.001, status: 9, received: ['P9'] },
      { do: 60, status: 9, received: ['P9'] },
      { do: 'capture', status: 2, received: ['P9', 'P2'] },
    ],
    history: ['1', '9', '2'],
    steps: [['authorize', 'done', 'Authorized']],
  },
  'two-step-capture-requested': {
    methodId: 1078,
    beats: [
      { do: 1.999, status: 1, received: [] },
      { do: 0.001, status: 9, received: ['P9'] },
      { do: 'capture', status: 13, received: ['P9', 'P13'] },
      { do: 1.999, status: 13, received: ['P9', 'P13'] },
      { do: 0.001, status: 2, received: ['P9', 'P13', 'P2'] },
    ],
    history: ['1', '9', '13', '2'],
    steps: [
      ['authorize', 'done', 'Authorized'],
      ['settle', 'done', 'Success'],
    ],
  },
  'partial-capture': {
    methodId: 42,
    beats: [
      { do: 1.999, status: 1, received: [] },
      { do: 0.001, status: 9, received: ['P9'] },
      { do: 0.999, status: 9, received: ['P9'] },
      { do: 0.001, status: 35, received: ['P9', 'P35'] },
    ],
    history: ['1', '9', '35'],
    steps: [
      ['authorize', 'done', 'Authorized'],
      ['capture-splits', 'done', 'PartiallyCaptured'],
    ],
  },
  failed: {
    methodId: 2,
    beats: [
      { do: 1.999, status: 1, received: [] },
      { do: 0.001, status: 4, received: ['P4'] },
    ],
    history: ['1', '4'],
    steps: [['fail', 'done', 'Failed']],
  },
  expired: {
    methodId: 2,
    beats: [
      { do: 4.999, status: 1, received: [] },
      { do: 0.001, status: 5, received: ['P5'] },
    ],
    history: ['1', '5'],
    steps: [['expire', 'done', 'Expired']],
  },
  'cancelled-by-payer': {
    methodId: 2,
    beats: [
      { do: 1.999, status: 1, received: [] },
      { do: 0.001, status: 3, received: ['P3'] },
    ],
    history: ['1', '3'],
    steps: [['cancel', 'done', 'Cancelled']],
  },
  'payer-decides': {
    methodId: 42,
    beats: [
      // Nothing but the link's lifetime (TokenLifetime 10 minutes) moves it.
      { do: 599.999, status: 1, received: [] },
      { do: 0.001, status: 5, received: ['P5'] },
    ],
    history: ['1', '5'],
    steps: [],
  },
  'refund-then-add-splits': {
    methodId: 2,
    beats: [
      { do: 1.999, status: 1, received: [] },
      { do: 0.001, status: 2, received: ['P2'] },
      // The merchant's refund: it starts Open, which is not notified.
      { do: 1, status: 2, received: ['P2'] },
      { do: 0.999, status: 2, received: ['P2'] },
      { do: 0.001, status: 2, received: ['P2', 'R2'] },
      // The add-splits step (rejected): nothing is notified, nothing changes.
      { do: 1, status: 2, received: ['P2', 'R2'] },
    ],
    history: ['1', '2', 'R1', 'R2'],
    steps: [
      ['succeed', 'done', 'Success'],
      ['refund', 'done', /^refund \d+ Open$/],
      ['refund-succeed', 'done', /^refund \d+ Success$/],
      ['add-splits', 'skipped', /^rejected: 11 - Action is invalid/],
    ],
  },
};

describe('every shipped scenario, end to end (table)', () => {
  const shipped = readdirSync(SHIPPED_SCENARIOS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

  it('has a row for every scenario file, and no other', () => {
    expect(Object.keys(TABLE).sort()).toEqual(shipped);
    expect(shipped).toHaveLength(9);
  });

  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it.each(shipped)('%s', async (name) => {
    const row = TABLE[name]!;
    rig = await boot();
    const { sb, rx } = rig;
    const created = await createPayment(sb, { scenario: name, overrides: { MethodID: row.methodId } });
    expect(created.Status).toEqual({ ID: 1, Info: 'Open', Reasons: null });
    expect(created.Splits.map((s: any) => s.StateDetails.ID)).toEqual([1, 1, 1]);
    const id: number = created.ID;
    expect((await story(sb, id)).Scenario).toBe(name);

    for (const [i, beat] of row.beats.entries()) {
      const where = `${name}, beat ${i} (${beat.do})`;
      if (beat.do === 'capture') {
        const res = await request(sb.baseUrl).post(`/v1/payments/${id}/capture`).set('Authorization', AUTH);
        expect({ where, status: res.status, payment: res.body.Payment.Status.ID }).toEqual({ where, status: 200, payment: beat.status });
        expect(res.body.Payment.CapturedAmount).toBe('1000');
        // Delivery of what the capture wrote: a zero advance waits for it, deterministically.
        await advance(sb, 0);
      } else {
        await advance(sb, beat.do);
      }
      const now = await getPayment(sb, id);
      expect({ where, status: now.Status.ID, received: labels(rx) }).toEqual({ where, status: beat.status, received: beat.received });
    }

    // Every notification: the marketplace's Basic credentials, JSON, and the body the journal shows.
    const notes = await journal(sb, id);
    expect(notes).toHaveLength(rx.received.length);
    rx.received.forEach((r, i) => {
      expect(r.headers.authorization).toBe(AUTH);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.body).toEqual(notes[i].Body);
      expect(notes[i]).toMatchObject({ PaymentID: id, SiteID: 30201, State: 'delivered', NextAttempt: null });
      expect(notes[i].Attempts).toEqual([
        { At: notes[i].Created, URL: rx.url, HTTPStatus: 204, Error: null, DurationMs: expect.any(Number) },
      ]);
    });
    // The last payment notification is the payment as the API shows it now.
    const lastPayment = [...rx.received].reverse().find((r) => r.body.Payment)?.body.Payment;
    if (lastPayment) expect(lastPayment).toEqual(await getPayment(sb, id));

    const st = await story(sb, id);
    expect(st.History.map((h: any) => (h.RefundID === null ? String(h.StatusID) : `R${h.StatusID}`))).toEqual(row.history);
    expect(st.History[0]).toMatchObject({ At: stamp(0), StatusID: 1, Cause: 'created' });
    expect(st.Steps).toHaveLength(row.steps.length);
    st.Steps.forEach((s: any, i: number) => {
      const [Do, State, Outcome] = row.steps[i]!;
      expect({ Do: s.Do, State: s.State }).toEqual({ Do, State });
      if (Outcome instanceof RegExp) expect(s.Outcome).toMatch(Outcome);
      else expect(s.Outcome).toBe(Outcome);
    });
    // Nothing more is pending once the story is told.
    await advance(sb, 3600);
    expect((await getPayment(sb, id)).Status.ID).toBe(row.beats[row.beats.length - 1]!.status);
    expect(rx.received.length).toBe(row.beats[row.beats.length - 1]!.received.length);
  });
});

describe('scenario specifics', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('one-step with Bank Transfer (MethodID 1): the Success notification carries Details, splits Success', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { overrides: { MethodID: 1 } });
    expect((await story(sb, p.ID)).Scenario).toBe('one-step');
    await advance(sb, 2);
    expect(rx.received).toHaveLength(1);
    const n = rx.received[0]!.body.Payment;
    expect(n.Status).toEqual({ ID: 2, Info: 'Success', Reasons: null });
    expect(n.Splits.map((s: any) => s.StateDetails)).toEqual([
      { ID: 2, Info: 'Success', Reasons: null },
      { ID: 2, Info: 'Success', Reasons: null },
      { ID: 2, Info: 'Success', Reasons: null },
    ]);
    expect(n.NotificationDateTime).toBe(stamp(2000));
    expect(n.Details).toMatchObject({
      AccountHolder: 'Sandbox Payments B.V.',
      IBAN: 'NL91ABNA0417164300',
      BIC: 'ABNANL2A',
      BankName: 'ABN AMRO',
      ReferenceNumber: `SBX-${p.ID}`,
      PaidAmount: '1000',
      PaidCurrency: 'EUR',
      PrepaidCard: null,
      ProviderExchangeRate: null,
    });
    expect(Object.keys(n.Details)).toHaveLength(25);
  });

  it('one-step with a method without a details template (iDEAL): Details stays null', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    await createPayment(sb, { scenario: 'one-step', overrides: { MethodID: 2 } });
    await advance(sb, 2);
    expect(rx.received[0]!.body.Payment.Status.ID).toBe(2);
    expect(rx.received[0]!.body.Payment.Details).toBeNull();
  });

  it('two-step: the Authorized notification has every split Authorized and no captured amount', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { overrides: { MethodID: 42 } });
    await advance(sb, 2);
    const n = rx.received[0]!.body.Payment;
    expect(n).toMatchObject({ ID: p.ID, Status: { ID: 9, Info: 'Authorized', Reasons: null }, CapturedAmount: null, Amount: '1000' });
    expect(n.Splits.map((s: any) => [s.SiteID, s.StateDetails.ID, s.CapturedAmount])).toEqual([
      [LINKED[0], 9, ''],
      [LINKED[1], 9, ''],
      [LINKED[2], 9, ''],
    ]);
  });

  it('two-step-capture-requested (Klarna Payments, 1078): capture answers 13, Success (2) is notified 2 s later', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { overrides: { MethodID: 1078 } });
    expect((await story(sb, p.ID)).Scenario).toBe('two-step-capture-requested');
    await advance(sb, 2);
    const cap = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH);
    expect(cap.status).toBe(200);
    expect(cap.body.Payment.Status).toEqual({ ID: 13, Info: 'CaptureRequested', Reasons: null });
    expect(cap.body.Payment.CapturedAmount).toBe('1000');
    expect(cap.body.Payment.Splits.map((s: any) => s.StateDetails.ID)).toEqual([13, 13, 13]);
    // The CaptureRequested change is itself notified (every status change is).
    const w13 = await request(sb.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&StatusID=13&TimeoutMs=2000`);
    expect(w13.status).toBe(200);
    await advance(sb, 1.999);
    expect(rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([9, 13]);
    await advance(sb, 0.001);
    expect(rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([9, 13, 2]);
    const success = rx.received[2]!.body.Payment;
    expect(success.Status).toEqual({ ID: 2, Info: 'Success', Reasons: null });
    expect(success.CapturedAmount).toBe('1000');
    expect(success.Splits.map((s: any) => s.StateDetails.ID)).toEqual([2, 2, 2]);
    expect(success.NotificationDateTime).toBe(stamp(4000));
    const st = await story(sb, p.ID);
    expect(st.Steps.map((s: any) => [s.Do, s.Due, s.State])).toEqual([
      ['authorize', stamp(2000), 'done'],
      ['settle', stamp(4000), 'done'],
    ]);
  });

  it('two-step-capture-requested chosen by header on a plain two-step method (PayPal) still answers 13', async () => {
    rig = await boot();
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'two-step-capture-requested', overrides: { MethodID: 42 } });
    await advance(sb, 2);
    const cap = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH);
    expect(cap.body.Payment.Status.ID).toBe(13);
    await advance(sb, 2);
    expect((await getPayment(sb, p.ID)).Status.ID).toBe(2);
  });

  it('partial-capture: half of the first split is captured; the others stay Authorized', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { overrides: { Amount: '10006' } });
    expect((await story(sb, p.ID)).Scenario).toBe('partial-capture');
    await advance(sb, 3);
    const n = rx.received[1]!.body.Payment;
    expect(n.Status).toEqual({ ID: 35, Info: 'PartiallyCaptured', Reasons: null });
    expect(n.CapturedAmount).toBe('300');
    expect(n.Splits.map((s: any) => [s.StateDetails.ID, s.CapturedAmount])).toEqual([
      [35, '300'],
      [9, ''],
      [9, ''],
    ]);
    // The merchant can no longer cancel it (reason 122), nor capture again (reason 17).
    const cancel = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', AUTH);
    expect(cancel.status).toBe(400);
    expect(cancel.body.Payment.Status.Reasons[0].Code).toBe(122);
    const again = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', AUTH);
    expect(again.status).toBe(400);
    expect(again.body.Payment.Status.Reasons[0].Code).toBe(17);
  });

  it.each([
    ['expired', 5, 'Expired', 5000],
    ['cancelled-by-payer', 3, 'Cancelled', 2000],
  ])('%s: the notification shows status %i with RedirectURL and TokenLifetime null', async (name, statusId, info, at) => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: name as string });
    expect(p.RedirectURL).toMatch(/\/Home\?PaymentToken=[0-9A-F]{32}\.\d+$/);
    await advance(sb, (at as number) / 1000);
    expect(rx.received).toHaveLength(1);
    const n = rx.received[0]!.body.Payment;
    expect(n.Status).toEqual({ ID: statusId, Info: info, Reasons: null });
    expect(n.Splits.map((s: any) => s.StateDetails.ID)).toEqual([statusId, statusId, statusId]);
    expect(n.RedirectURL).toBeNull();
    expect(n.TokenLifetime).toBeNull();
    expect(n.NotificationDateTime).toBe(stamp(at as number));
  });

  it('failed: the notification shows Failed (4) on the payment and every split', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    await createPayment(sb, { overrides: { Amount: '10001' } });
    await advance(sb, 2);
    const n = rx.received[0]!.body.Payment;
    expect(n.Status).toEqual({ ID: 4, Info: 'Failed', Reasons: null });
    expect(n.Splits.map((s: any) => s.StateDetails.ID)).toEqual([4, 4, 4]);
  });

  it('refund-then-add-splits: Refund notification with Status 2; the add-splits step is recorded as rejected (reason 11)', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'refund-then-add-splits', overrides: { MethodID: 2 } });
    const firstSplit = p.Splits[0];
    await advance(sb, 3);
    let st = await story(sb, p.ID);
    expect(st.Refunds).toHaveLength(1);
    const refund = st.Refunds[0];
    expect(refund).toMatchObject({
      InitialPaymentID: p.ID,
      SplitID: firstSplit.ID,
      SiteID: firstSplit.SiteID,
      Amount: '100',
      Currency: 'EUR',
      TypeID: 1,
      Status: { ID: 1, Info: 'Open', Reasons: null },
    });
    expect(labels(rx)).toEqual(['P2']);
    await advance(sb, 1);
    expect(labels(rx)).toEqual(['P2', 'R2']);
    const rn = rx.received[1]!;
    expect(rn.headers.authorization).toBe(AUTH);
    expect(Object.keys(rn.body)).toEqual(['Refund']);
    expect(rn.body.Refund).toEqual({ ...refund, Status: { ID: 2, Info: 'Success', Reasons: null } });
    await advance(sb, 1);
    st = await story(sb, p.ID);
    const addStep = st.Steps.find((s: any) => s.Do === 'add-splits');
    expect(addStep).toMatchObject({ Step: 2, Due: stamp(5000), State: 'skipped' });
    expect(addStep.Outcome).toMatch(/^rejected: 11 - Action is invalid.*refund/);
    // No split was added, and the merchant's own add-splits call is rejected the same way.
    expect((await getPayment(sb, p.ID)).Splits).toHaveLength(3);
    const add = await request(sb.baseUrl)
      .post(`/v1/payments/${p.ID}/splits`)
      .set('Authorization', AUTH)
      .send({ Splits: [{ SiteID: 30204, Amount: '1', MerchantTransactionID: 'mine' }] });
    expect(add.status).toBe(400);
    expect(add.body.Splits).toBeNull();
    expect(add.body.Reasons[0].Code).toBe(11);
    expect(labels(rx)).toEqual(['P2', 'R2']);
  });

  it('timestamps: each step runs at its due time, not at the end of a long advance', async () => {
    rig = await boot();
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'refund-then-add-splits' });
    await advance(sb, 100);
    const st = await story(sb, p.ID);
    expect(st.History.map((h: any) => h.At)).toEqual([stamp(0), stamp(2000), stamp(3000), stamp(4000)]);
    expect(st.Steps.map((s: any) => s.Due)).toEqual([stamp(2000), stamp(3000), stamp(4000), stamp(5000)]);
    expect(START).toBeGreaterThan(0);
  });
});
