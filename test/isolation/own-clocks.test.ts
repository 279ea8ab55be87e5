// A marketplace's own clock: its payments' steps and notifications move with it alone; the sandbox's
// clock and other marketplaces' leave it be; it survives a restart; concurrent advances add up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import type { Config } from '../../src/config';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { START, basic } from '../helpers/world';
import { payAs } from './pay';

const base = { port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 13, quiet: true, scenario: 'two-step' } as const;

interface Made {
  SiteID: number;
  APIKey: string;
  LinkedSiteIDs: number[];
  auth: string;
}

describe("a marketplace's own clock", () => {
  let sb: Sandbox;
  const receivers: Receiver[] = [];
  let dir: string | undefined;
  const start = async (extra: Partial<Config> = {}) => (sb = await startSandbox({ ...base, ...extra }));
  afterEach(async () => {
    await sb?.stop();
    for (const r of receivers.splice(0)) await r.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const make = async (body: Record<string, unknown>): Promise<Made & { rx: Receiver }> => {
    const rx = await startReceiver();
    receivers.push(rx);
    const res = await request(sb.baseUrl).post('/_sandbox/merchants').send({ LinkedSites: 1, NotificationURL: rx.url, ...body });
    expect(res.status).toBe(201);
    const m = res.body.Merchant;
    expect(m.Clock).toBe(body.Clock ?? 'sandbox');
    return { SiteID: m.SiteID, APIKey: m.APIKey, LinkedSiteIDs: m.LinkedSiteIDs, auth: basic(m.SiteID, m.APIKey), rx };
  };
  const pay = async (m: Made, n: number) => payAs(sb.baseUrl, m.auth, m.LinkedSiteIDs[0], n);
  const statusOf = async (m: Made, id: number) => (await request(sb.baseUrl).get(`/v1/payments/${id}`).set('Authorization', m.auth)).body.Payment.Status.ID as number;
  const clockOf = async (m: Made) => (await request(sb.baseUrl).get(`/_sandbox/merchants/${m.SiteID}/clock`).set('Authorization', m.auth)).body;
  const advance = (m: Made, Seconds: number) => request(sb.baseUrl).post(`/_sandbox/merchants/${m.SiteID}/clock/advance`).set('Authorization', m.auth).send({ Seconds });

  it("advancing A's clock authorizes A's payment and delivers its notification; B's stays Open; the sandbox's advance moves neither", async () => {
    await start();
    const a = await make({ Clock: 'manual' });
    const b = await make({});
    expect((await request(sb.baseUrl).patch(`/_sandbox/merchants/${b.SiteID}`).send({ Clock: 'manual' })).body.Merchant.Clock).toBe('manual');
    expect(await clockOf(a)).toEqual({ Mode: 'manual', Own: true, Now: '20260115100000', NowMs: START, Speed: null });

    // Both driven at once: B's payment is made while A's clock moves.
    const pa = await pay(a, 1);
    const [moved, pb] = await Promise.all([advance(a, 2), pay(b, 1)]);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ Own: true, NowMs: START + 2000, Now: '20260115100002' });
    expect(await statusOf(a, pa.ID)).toBe(9);
    expect(a.rx.received.map((r) => [r.body.Payment.ID, r.body.Payment.Status.ID])).toEqual([[pa.ID, 9]]);
    expect(await statusOf(b, pb.ID)).toBe(1);
    expect(b.rx.received).toEqual([]);
    // The dashboard shows a marketplace its own time.
    const dash = request.agent(sb.baseUrl);
    await dash.post('/dashboard/login').type('form').send({ SiteID: String(a.SiteID), APIKey: a.APIKey }).expect(303);
    expect((await dash.get('/dashboard')).text).toContain(`SiteID ${a.SiteID} · its own time 2026-01-15 10:00:02</span>`);

    // The sandbox's clock moves, and nobody's own time with it.
    await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 60 }).expect(200);
    expect((await clockOf(a)).NowMs).toBe(START + 2000);
    expect((await clockOf(b)).NowMs).toBe(START);
    expect(await statusOf(b, pb.ID)).toBe(1);

    await advance(b, 2).expect(200);
    expect(await statusOf(b, pb.ID)).toBe(9);
    expect(b.rx.received.map((r) => r.body.Payment.Status.ID)).toEqual([9]);
    // A payment's times are its marketplace's.
    const history = (await request(sb.baseUrl).get(`/_sandbox/payments/${pb.ID}/history`)).body.History as { At: string }[];
    expect(history.map((h) => h.At)).toEqual(['20260115100000', '20260115100002']);

    // A marketplace on the sandbox's clock has no advance of its own.
    const c = await make({});
    const refused = await advance(c, 1);
    expect(refused.status).toBe(400);
    expect(refused.body.Message).toMatch(/runs on the sandbox's clock/);
  });

  it('a fast real clock (--speed) moves the sandbox and its marketplaces, never one with its own clock', async () => {
    await start({ clock: 'real', speed: 1000, startTime: undefined });
    const a = await make({ Clock: 'manual' });
    const b = await make({});
    const aAt = (await clockOf(a)).NowMs as number;
    const pa = await pay(a, 1);
    const pb = await pay(b, 1);
    // B's step runs on the sandbox's fast clock: its Authorized notification comes by itself.
    await sb.notifications.waitFor({ PaymentID: pb.ID, StatusID: 9 }, 10_000);
    expect(await statusOf(a, pa.ID)).toBe(1);
    expect((await clockOf(a)).NowMs).toBe(aAt);
    expect((await clockOf(b)).Own).toBe(false);
    await advance(a, 2).expect(200);
    expect(await statusOf(a, pa.ID)).toBe(9);
  });

  it("both marketplaces' clocks survive a restart with their times, and their pending steps go on", async () => {
    dir = mkdtempSync(join(tmpdir(), 'own-clocks-'));
    const db = join(dir, 'sandbox.db');
    await start({ db });
    const a = await make({ Clock: 'manual' });
    const b = await make({ Clock: 'manual' });
    await advance(a, 5).expect(200);
    await advance(b, 1).expect(200);
    const pb = await pay(b, 1);
    await sb.stop();
    sb = await startSandbox({ ...base, db });
    expect((await clockOf(a)).NowMs).toBe(START + 5000);
    expect((await clockOf(b)).NowMs).toBe(START + 1000);
    expect(await statusOf(b, pb.ID)).toBe(1);
    await advance(b, 2).expect(200);
    expect(await statusOf(b, pb.ID)).toBe(9);
    expect((await clockOf(a)).NowMs).toBe(START + 5000);
  });

  it('concurrent advances add up on the sandbox clock, with due steps or without, and time never goes back', async () => {
    await start();
    const m = { SiteID: 30201, APIKey: '5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=', LinkedSiteIDs: [30202], auth: basic(30201, '5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=') };
    const tenTimesThree = () => Promise.all(Array.from({ length: 10 }, () => request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: 3 })));
    const nows = (await tenTimesThree()).map((r) => r.body.NowMs as number);
    expect((await request(sb.baseUrl).get('/_sandbox/clock')).body.NowMs).toBe(START + 30_000);
    expect([...nows].sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => START + 3000 * (i + 1)));
    // With steps due on the way, and their notifications delivered over HTTP meanwhile.
    const rx = await startReceiver();
    receivers.push(rx);
    await request(sb.baseUrl).patch(`/_sandbox/merchants/${m.SiteID}`).send({ NotificationURL: rx.url }).expect(200);
    for (let i = 0; i < 5; i++) await pay(m, i);
    await tenTimesThree();
    expect((await request(sb.baseUrl).get('/_sandbox/clock')).body.NowMs).toBe(START + 60_000);
    expect(rx.received.filter((r) => r.body.Payment.Status.ID === 9)).toHaveLength(5);
  });

  it("concurrent advances of a marketplace's own clock add up, and leave the others' alone", async () => {
    await start();
    const a = await make({ Clock: 'manual' });
    const b = await make({ Clock: 'manual' });
    for (let i = 0; i < 3; i++) await pay(a, i);
    const answers = await Promise.all(Array.from({ length: 10 }, () => advance(a, 3)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await clockOf(a)).NowMs).toBe(START + 30_000);
    expect((await clockOf(b)).NowMs).toBe(START);
    expect((await request(sb.baseUrl).get('/_sandbox/clock')).body.NowMs).toBe(START);
  });
});
