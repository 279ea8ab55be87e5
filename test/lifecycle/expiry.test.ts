// Token expiry: an Open payment whose TokenLifetime (minutes) runs out becomes Expired (5).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { AUTH, type Rig, advance, boot, createPayment, getPayment, journal, labels, shutdown, stamp, story } from './harness';

describe('token expiry', () => {
  let rig: Rig | undefined;
  let dir: string;
  beforeAll(() => {
    // A scenario with no step at all: the payment stays Open until something else moves it.
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-idle-'));
    writeFileSync(join(dir, 'idle.json'), JSON.stringify({ Name: 'idle', Description: 'Stays Open: nothing happens.', Steps: [] }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
  });

  it('an Open payment with TokenLifetime 1 and no step due expires when the clock passes 60 s', async () => {
    rig = await boot({ scenarioDirs: [dir] });
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'idle', overrides: { TokenLifetime: 1 } });
    expect(p.TokenLifetime).toBe(1);
    expect((await story(sb, p.ID)).Steps).toEqual([]);
    await advance(sb, 59.999);
    expect((await getPayment(sb, p.ID)).Status.ID).toBe(1);
    expect(rx.received).toHaveLength(0);
    await advance(sb, 0.001);
    const now = await getPayment(sb, p.ID);
    expect(now.Status).toEqual({ ID: 5, Info: 'Expired', Reasons: null });
    expect(now.Splits.map((s: any) => s.StateDetails.ID)).toEqual([5, 5, 5]);
    expect(now.RedirectURL).toBeNull();
    expect(now.TokenLifetime).toBeNull();
    expect(labels(rx)).toEqual(['P5']);
    expect(rx.received[0]!.headers.authorization).toBe(AUTH);
    expect(rx.received[0]!.body.Payment).toEqual(now);
    const st = await story(sb, p.ID);
    expect(st.History.map((h: any) => [h.At, h.StatusID, h.Cause])).toEqual([
      [stamp(0), 1, 'created'],
      [stamp(60_000), 5, 'token lifetime ran out'],
    ]);
    const [n] = await journal(sb, p.ID);
    expect(n).toMatchObject({ StatusID: 5, StatusInfo: 'Expired', State: 'delivered', Created: stamp(60_000) });
    // An expired payment can be neither captured nor cancelled.
    const cancel = await request(sb.baseUrl).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', AUTH);
    expect(cancel.status).toBe(400);
    await advance(sb, 3600);
    expect(rx.received).toHaveLength(1);
  });

  it('expiries happen at their exact times inside one long advance, in order', async () => {
    rig = await boot({ scenarioDirs: [dir] });
    const { sb } = rig;
    const early = await createPayment(sb, { scenario: 'idle', overrides: { TokenLifetime: 1 } });
    await advance(sb, 30);
    const late = await createPayment(sb, { scenario: 'idle', overrides: { TokenLifetime: 1 } });
    await advance(sb, 600);
    expect((await story(sb, early.ID)).History[1]).toMatchObject({ At: stamp(60_000), StatusID: 5 });
    expect((await story(sb, late.ID)).History[1]).toMatchObject({ At: stamp(90_000), StatusID: 5 });
    expect(rig.rx.received.map((r) => r.body.Payment.ID)).toEqual([early.ID, late.ID]);
  });

  it('only Open payments expire: an Authorized one (two-step at 2 s) keeps its status past the lifetime', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'two-step', overrides: { TokenLifetime: 1 } });
    await advance(sb, 120);
    expect((await getPayment(sb, p.ID)).Status.ID).toBe(9);
    expect(labels(rx)).toEqual(['P9']);
  });

  it('a scenario step due before the lifetime wins (expired scenario at 5 s), and nothing expires it again', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'expired', overrides: { TokenLifetime: 1 } });
    await advance(sb, 120);
    expect((await story(sb, p.ID)).History.map((h: any) => [h.At, h.StatusID])).toEqual([
      [stamp(0), 1],
      [stamp(5000), 5],
    ]);
    expect(labels(rx)).toEqual(['P5']);
  });

  it('a payment without TokenLifetime never expires by itself', async () => {
    rig = await boot({ scenarioDirs: [dir] });
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'idle', overrides: { TokenLifetime: undefined } });
    expect(p.TokenLifetime).toBeNull();
    await advance(sb, 24 * 3600);
    expect((await getPayment(sb, p.ID)).Status.ID).toBe(1);
    expect(rx.received).toHaveLength(0);
  });
});
