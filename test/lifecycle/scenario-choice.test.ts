// Which scenario a new payment follows, in order: the X-Sandbox-Scenario header, a magic amount,
// the merchant's default, the sandbox's `scenario` start option, the method's flow.
import request from 'supertest';
import { MAGIC_AMOUNTS } from '../../src/scenarios/scenario';
import { paymentBody } from '../helpers/world';
import { AUTH, type Rig, advance, boot, createPayment, getPayment, shutdown, story } from './harness';

const scenarioOf = async (rig: Rig, opts: Parameters<typeof createPayment>[1]) => {
  const p = await createPayment(rig.sb, opts);
  return (await story(rig.sb, p.ID)).Scenario as string | null;
};

const setDefault = (rig: Rig, name: string | null) =>
  request(rig.sb.baseUrl).patch('/_sandbox/merchants/30201').send({ DefaultScenario: name });

describe('scenario choice', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('the method flow decides when nothing else does: 1 → one-step, 42 → two-step, 1078 → two-step-capture-requested', async () => {
    rig = await boot();
    const r = rig;
    const cases: [number, string][] = [
      [1, 'one-step'],
      [2, 'one-step'],
      [29, 'one-step'],
      [42, 'two-step'],
      [75, 'two-step'],
      [1078, 'two-step-capture-requested'],
    ];
    for (const [MethodID, want] of cases) expect([MethodID, await scenarioOf(r, { overrides: { MethodID } })]).toEqual([MethodID, want]);
  });

  it('the magic amounts pick their scenario, and the payment follows it', async () => {
    rig = await boot();
    const r = rig;
    expect([...MAGIC_AMOUNTS.entries()].map(([a, n]) => [String(a), n])).toEqual([
      ['10001', 'failed'],
      ['10002', 'expired'],
      ['10003', 'two-step-capture-requested'],
      ['10005', 'cancelled-by-payer'],
      ['10006', 'partial-capture'],
    ]);
    const ids: Record<string, number> = {};
    for (const [amount, name] of MAGIC_AMOUNTS) {
      const p = await createPayment(r.sb, { overrides: { Amount: String(amount), MethodID: 2 } });
      expect((await story(r.sb, p.ID)).Scenario).toBe(name);
      ids[name] = p.ID;
    }
    // Nearby amounts are not magic.
    expect(await scenarioOf(r, { overrides: { Amount: '10004', MethodID: 2 } })).toBe('one-step');
    expect(await scenarioOf(r, { overrides: { Amount: '1000', MethodID: 42 } })).toBe('two-step');
    await advance(r.sb, 5);
    expect((await getPayment(r.sb, ids['failed']!)).Status.ID).toBe(4);
    expect((await getPayment(r.sb, ids['expired']!)).Status.ID).toBe(5);
    expect((await getPayment(r.sb, ids['two-step-capture-requested']!)).Status.ID).toBe(9);
    expect((await getPayment(r.sb, ids['cancelled-by-payer']!)).Status.ID).toBe(3);
    expect((await getPayment(r.sb, ids['partial-capture']!)).Status.ID).toBe(35);
  });

  it('the header comes first: it beats a magic amount, the merchant default and the start option', async () => {
    rig = await boot({ scenario: 'expired' });
    const r = rig;
    expect((await setDefault(r, 'cancelled-by-payer')).status).toBe(200);
    expect(await scenarioOf(r, { scenario: 'one-step', overrides: { Amount: '10001' } })).toBe('one-step');
    // The header is matched by name, whatever its case.
    const res = await request(r.sb.baseUrl)
      .post('/v1/payments')
      .set('Authorization', AUTH)
      .set('x-sandbox-scenario', 'two-step')
      .send(paymentBody({ MethodID: 1 }));
    expect(res.status).toBe(201);
    expect((await story(r.sb, res.body.Payment.ID)).Scenario).toBe('two-step');
    await advance(r.sb, 2);
    expect((await getPayment(r.sb, res.body.Payment.ID)).Status.ID).toBe(9);
  });

  it('a magic amount beats the merchant default; the merchant default beats the start option; the start option beats the flow', async () => {
    rig = await boot({ scenario: 'cancelled-by-payer' });
    const r = rig;
    // Start option over the method's flow.
    expect(await scenarioOf(r, { overrides: { MethodID: 42 } })).toBe('cancelled-by-payer');
    // Merchant default over the start option.
    const patched = await setDefault(r, 'failed');
    expect(patched.status).toBe(200);
    expect(patched.body.Merchant).toMatchObject({ SiteID: 30201, DefaultScenario: 'failed' });
    expect(await scenarioOf(r, { overrides: { MethodID: 42 } })).toBe('failed');
    // Magic amount over the merchant default.
    expect(await scenarioOf(r, { overrides: { Amount: '10002' } })).toBe('expired');
    // Clearing the default gives the start option back.
    expect((await setDefault(r, null)).status).toBe(200);
    expect(await scenarioOf(r, { overrides: { MethodID: 42 } })).toBe('cancelled-by-payer');
  });

  it('the merchant default alone (no start option) beats the method flow', async () => {
    rig = await boot();
    const r = rig;
    expect(await scenarioOf(r, { overrides: { MethodID: 42 } })).toBe('two-step');
    expect((await setDefault(r, 'failed')).status).toBe(200);
    const p = await createPayment(r.sb, { overrides: { MethodID: 42 } });
    expect((await story(r.sb, p.ID)).Scenario).toBe('failed');
    await advance(r.sb, 2);
    expect((await getPayment(r.sb, p.ID)).Status.ID).toBe(4);
    const mine = r.rx.received.filter((x) => x.body.Payment.ID === p.ID);
    expect(mine.map((x) => x.body.Payment.Status.ID)).toEqual([4]);
  });

  it('an unknown merchant default is refused', async () => {
    rig = await boot();
    const res = await setDefault(rig, 'no-such-scenario');
    expect(res.status).toBe(400);
    expect(res.body.Message).toMatch(/no-such-scenario/);
  });

  it('an unknown header scenario is a 400 with reason 2 in the Payment envelope, and creates nothing', async () => {
    rig = await boot();
    const res = await request(rig.sb.baseUrl)
      .post('/v1/payments')
      .set('Authorization', AUTH)
      .set('X-Sandbox-Scenario', 'no-such-scenario')
      .send(paymentBody({ MerchantTransactionID: 'order-unknown-scenario' }));
    expect(res.status).toBe(400);
    expect(res.body.Payment.ID).toBeNull();
    expect(res.body.Payment.InvalidRequestID).toEqual(expect.any(String));
    expect(res.body.Payment.MerchantTransactionID).toBe('order-unknown-scenario');
    expect(res.body.Payment.Status.ID).toBeNull();
    expect(res.body.Payment.Status.Reasons).toHaveLength(1);
    expect(res.body.Payment.Status.Reasons[0].Code).toBe(2);
    expect(res.body.Payment.Status.Reasons[0].Info).toMatch(/X-Sandbox-Scenario.*no-such-scenario/);
    const list = await request(rig.sb.baseUrl).get('/v1/payments').set('Authorization', AUTH);
    expect(list.body.TotalCount).toBe(0);
    // The same MerchantTransactionID is still free.
    const ok = await request(rig.sb.baseUrl)
      .post('/v1/payments')
      .set('Authorization', AUTH)
      .send(paymentBody({ MerchantTransactionID: 'order-unknown-scenario' }));
    expect(ok.status).toBe(201);
  });
});
