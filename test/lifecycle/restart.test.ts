// A sandbox stopped mid-scenario and started again on the same database file resumes: steps that
// became due while it was down run at once, in order, and their notifications are delivered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Sandbox } from '../../src/main';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START } from '../helpers/world';
import { AUTH, advance, boot, createPayment, getPayment, journal, labels, stamp, story } from './harness';

describe('restart mid-scenario', () => {
  let dir: string;
  let db: string;
  let rx: Receiver;
  const sandboxes: Sandbox[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-restart-'));
    db = join(dir, 'sandbox.db');
    rx = await startReceiver();
  });
  afterEach(async () => {
    for (const sb of sandboxes.splice(0)) await sb.stop();
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (startMs: number) => {
    const { sb } = await boot({ db, startTime: START + startMs }, rx);
    sandboxes.push(sb);
    return sb;
  };

  it('late steps fire at once after the start, in order, and their notifications arrive', async () => {
    const first = await start(0);
    const a = await createPayment(first, { scenario: 'two-step' }); // authorize due at 2 s
    await advance(first, 1);
    const b = await createPayment(first, { scenario: 'failed' }); // fail due at 3 s
    await advance(first, 0.5);
    expect(rx.received).toHaveLength(0);
    expect((await story(first, a.ID)).Steps).toMatchObject([{ Do: 'authorize', Due: stamp(2000), Ran: null, State: 'pending' }]);
    await first.stop();

    const second = await start(10_000);
    const waited = await request(second.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${b.ID}&StatusID=4&TimeoutMs=5000`);
    expect(waited.status).toBe(200);
    // Both late steps ran at the new start time, A's (due first) before B's.
    const sa = await story(second, a.ID);
    const sbb = await story(second, b.ID);
    expect(sa.Scenario).toBe('two-step');
    expect(sa.History.map((h: any) => [h.At, h.StatusID])).toEqual([
      [stamp(0), 1],
      [stamp(10_000), 9],
    ]);
    expect(sbb.History.map((h: any) => [h.At, h.StatusID])).toEqual([
      [stamp(1000), 1],
      [stamp(10_000), 4],
    ]);
    expect(sa.Steps).toMatchObject([{ Do: 'authorize', Due: stamp(2000), Ran: stamp(10_000), State: 'done', Outcome: 'Authorized' }]);
    expect(sbb.Steps).toMatchObject([{ Do: 'fail', Due: stamp(3000), State: 'done', Outcome: 'Failed' }]);
    const [na] = await journal(second, a.ID);
    const [nb] = await journal(second, b.ID);
    expect(na.ID).toBeLessThan(nb.ID);
    expect(na).toMatchObject({ State: 'delivered', Created: stamp(10_000) });
    // The receiver got them in that order, signed, with the bodies of the new sandbox's address.
    expect(rx.received.map((r) => [r.body.Payment.ID, r.body.Payment.Status.ID])).toEqual([
      [a.ID, 9],
      [b.ID, 4],
    ]);
    for (const r of rx.received) expect(r.headers.authorization).toBe(AUTH);
    expect(rx.received[0]!.body.Payment.RedirectURL.startsWith(second.baseUrl + '/Home?PaymentToken=')).toBe(true);

    // The story goes on in the new process: capture, Success notified.
    const cap = await request(second.baseUrl).post(`/v1/payments/${a.ID}/capture`).set('Authorization', AUTH);
    expect(cap.status).toBe(200);
    expect(cap.body.Payment.Status.ID).toBe(2);
    const w2 = await request(second.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${a.ID}&StatusID=2&TimeoutMs=5000`);
    expect(w2.status).toBe(200);
    expect(labels(rx)).toEqual(['P9', 'P4', 'P2']);
  });

  it('a chain resumes step by step: the late step runs at once, the next one after its own delay', async () => {
    const first = await start(0);
    const p = await createPayment(first, { scenario: 'partial-capture' }); // authorize at 2 s, capture 1 s later
    await first.stop();

    const second = await start(60_000);
    const w = await request(second.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&StatusID=9&TimeoutMs=5000`);
    expect(w.status).toBe(200);
    expect((await getPayment(second, p.ID)).Status.ID).toBe(9);
    await advance(second, 0.999);
    expect(labels(rx)).toEqual(['P9']);
    await advance(second, 0.001);
    expect(labels(rx)).toEqual(['P9', 'P35']);
    expect((await story(second, p.ID)).History.map((h: any) => [h.At, h.StatusID])).toEqual([
      [stamp(0), 1],
      [stamp(60_000), 9],
      [stamp(61_000), 35],
    ]);
  });

  it('a notification still pending (failed attempt) when the sandbox stopped is delivered after the restart', async () => {
    rx.answers = [500];
    const first = await start(0);
    const p = await createPayment(first, { scenario: 'one-step' });
    await advance(first, 2);
    let [n] = await journal(first, p.ID);
    expect(n).toMatchObject({ State: 'pending', NextAttempt: stamp(3000) });
    await first.stop();

    const second = await start(30_000);
    const w = await request(second.baseUrl).get(`/_sandbox/notifications/wait?PaymentID=${p.ID}&TimeoutMs=5000`);
    expect(w.status).toBe(200);
    [n] = await journal(second, p.ID);
    expect(n.Attempts.map((a: any) => [a.At, a.HTTPStatus])).toEqual([
      [stamp(2000), 500],
      [stamp(30_000), 204],
    ]);
    expect(labels(rx)).toEqual(['P2', 'P2']);
  });

  it('nothing is run twice: a step done before the stop is not run again after the restart', async () => {
    const first = await start(0);
    const p = await createPayment(first, { scenario: 'two-step' });
    await advance(first, 2);
    expect(labels(rx)).toEqual(['P9']);
    await first.stop();
    const second = await start(10_000);
    await advance(second, 10);
    expect(labels(rx)).toEqual(['P9']);
    expect((await story(second, p.ID)).Steps).toHaveLength(1);
  });
});
