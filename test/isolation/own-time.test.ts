// Each clock keeps its own time: a restart's floor and retention read the rows of the clock they are
// for, and no clock passes 9999-12-31 23:59:59, the last time the 14-digit format holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Sandbox, startSandbox } from 'split-sandbox';
import { DEFAULT_CONFIG, type Config } from '../../src/config';
import type { Logger } from '../../src/log';
import { createServices } from '../../src/main';
import { LAST_WIRE_MS as LAST_CLOCK_MS } from '../../src/domain/time';
import { ManualClock, RealClock } from '../../src/scheduler/clock';
import { createPayment as createPaymentService } from '../../src/services/payments.service';
import { Store } from '../../src/store/store';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, PLAIN, START, basic, paymentBody } from '../helpers/world';
import { payAs } from './pay';

const DAY = 86_400;
const YEAR = 365 * DAY;
const base = { port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 17, quiet: true, scenario: 'two-step' } as const;

interface Made {
  SiteID: number;
  LinkedSiteIDs: number[];
  auth: string;
}

describe('each clock keeps its own time', () => {
  let sb: Sandbox | undefined;
  const receivers: Receiver[] = [];
  let dir: string | undefined;
  const start = async (extra: Partial<Config> = {}) => (sb = await startSandbox({ ...base, ...extra }));
  const tempDb = () => join((dir ??= mkdtempSync(join(tmpdir(), 'own-time-'))), 'sandbox.db');
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
    for (const r of receivers.splice(0)) await r.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const api = () => request(sb!.baseUrl);
  const make = async (body: Record<string, unknown>): Promise<Made> => {
    const rx = await startReceiver();
    receivers.push(rx);
    const res = await api().post('/_sandbox/merchants').send({ LinkedSites: 1, NotificationURL: rx.url, ...body });
    expect(res.status).toBe(201);
    const m = res.body.Merchant;
    return { SiteID: m.SiteID, LinkedSiteIDs: m.LinkedSiteIDs, auth: basic(m.SiteID, m.APIKey) };
  };
  const pay = (m: Made, n: number) => payAs(sb!.baseUrl, m.auth, m.LinkedSiteIDs[0], n);
  const read = (m: Made, id: number) => api().get(`/v1/payments/${id}`).set('Authorization', m.auth);
  const advanceOwn = (m: Made, Seconds: number) => api().post(`/_sandbox/merchants/${m.SiteID}/clock/advance`).set('Authorization', m.auth).send({ Seconds });
  const ownClock = async (m: Made) => (await api().get(`/_sandbox/merchants/${m.SiteID}/clock`).set('Authorization', m.auth)).body;

  it("A a year ahead on its own clock: after a restart the sandbox clock has not jumped, and B's Open payment survives --retain 7d", async () => {
    const db = tempDb();
    const real = { ...base, db, clock: 'real', startTime: undefined, scenario: undefined, retainMs: 7 * DAY * 1000 } as const;
    await start(real);
    const a = await make({ Clock: 'manual' });
    const b = await make({});
    const pb = await pay(b, 1);
    expect((await read(b, pb.ID)).body.Payment.Status.ID).toBe(1);
    const aStart = (await ownClock(a)).NowMs as number;
    for (let i = 0; i < 2; i++) await advanceOwn(a, YEAR / 2).expect(200);
    const pa = await pay(a, 1);
    await sb!.stop();

    sb = await startSandbox(real);
    await sb.scheduler.jobsSettled();
    const now = (await api().get('/_sandbox/clock')).body.NowMs as number;
    // Real time, not A's year ahead.
    expect(now).toBeLessThan(Date.now() + DAY * 1000);
    expect((await ownClock(a)).NowMs).toBe(aStart + YEAR * 1000);
    const kept = await read(b, pb.ID);
    expect(kept.status).toBe(200);
    expect(kept.body.Payment.Status.ID).toBe(1);
    expect((await read(a, pa.ID)).status).toBe(200);
  });

  it("retention ages each payment by its own marketplace's clock", async () => {
    await start({ retainMs: 7 * DAY * 1000 });
    const a = await make({ Clock: 'manual' });
    const b = await make({});
    const pa = await pay(a, 1);
    const pb = await pay(b, 1);
    // Both authorized and notified: nothing is left to come.
    await advanceOwn(a, 10).expect(200);
    await api().post('/_sandbox/clock/advance').send({ Seconds: 10 }).expect(200);
    expect((await read(a, pa.ID)).body.Payment.Status.ID).toBe(9);
    expect((await read(b, pb.ID)).body.Payment.Status.ID).toBe(9);

    // Thirty days on the sandbox clock: B's payment is that old, A's is not (its clock did not move).
    await api().post('/_sandbox/clock/advance').send({ Seconds: 30 * DAY }).expect(200);
    expect((await read(b, pb.ID)).status).toBe(404);
    expect((await read(a, pa.ID)).status).toBe(200);

    // Thirty days on A's own clock: now A's payment is that old (the next pass prunes it).
    await advanceOwn(a, 30 * DAY).expect(200);
    await api().post('/_sandbox/clock/advance').send({ Seconds: 0 }).expect(200);
    expect((await read(a, pa.ID)).status).toBe(404);
  });

  it('no advance takes a clock past 9999-12-31 23:59:59: a clear 400, nothing moved; at the last time payments are made and snapshots restore', async () => {
    const near = Date.UTC(9999, 11, 25);
    await start({ db: tempDb(), startTime: near });
    const a = await make({ Clock: 'manual' });
    const left = (LAST_CLOCK_MS - near + 1) / 1000 - 1;

    const refused = await api().post('/_sandbox/clock/advance').send({ Seconds: 7 * DAY });
    expect(refused.status).toBe(400);
    expect(refused.body.Message).toBe(
      `Seconds: the clock would pass 9999-12-31 23:59:59, the last time the 14-digit format holds (it reads 99991225000000; at most ${left} seconds are left)`,
    );
    expect((await api().get('/_sandbox/clock')).body.NowMs).toBe(near);
    const ownRefused = await advanceOwn(a, YEAR);
    expect(ownRefused.status).toBe(400);
    expect(ownRefused.body.Message).toMatch(/^Seconds: the clock would pass 9999-12-31 23:59:59, the last time the 14-digit format holds/);
    expect((await ownClock(a)).NowMs).toBe(near);
    await expect(sb!.merchants.get(a.SiteID).clock.advance(YEAR)).rejects.toThrow(/would pass 9999-12-31 23:59:59/);
    await expect(sb!.clock.advance(YEAR)).rejects.toThrow(/would pass 9999-12-31 23:59:59/);

    // Up to the last second is fine, on either clock; one more is not.
    const last = await api().post('/_sandbox/clock/advance').send({ Seconds: left });
    expect(last.status).toBe(200);
    expect(last.body.Now).toBe('99991231235959');
    await advanceOwn(a, left).expect(200);
    expect((await advanceOwn(a, 1)).status).toBe(400);
    expect((await api().post('/_sandbox/clock/advance').send({ Seconds: 1 })).status).toBe(400);

    const plain = await api().post('/v1/payments').set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey)).send(paymentBody({ MethodID: 1, Splits: undefined }));
    expect(plain.status).toBe(201);
    expect(plain.body.Payment.Created).toBe('99991231235959');
    const own = await pay(a, 1);
    expect(own.Created).toBe('99991231235959');
    await api().post('/_sandbox/snapshots').send({ Name: 'at-the-end' }).expect(201);
    const restored = await api().post('/_sandbox/snapshots/at-the-end/restore');
    expect([restored.status, restored.body.Message]).toEqual([200, undefined]);
    expect((await read(a, own.ID)).body.Payment.Created).toBe('99991231235959');
  });

  it('a start time past 9999-12-31 23:59:59 stops the start', async () => {
    await expect(startSandbox({ ...base, startTime: Date.UTC(10000, 0, 1) })).rejects.toThrow(
      /^--start-time: \+010000-01-01T00:00:00\.000Z is not a time of years 1000 to 9999; the last time a clock may read is 9999-12-31 23:59:59$/,
    );
  });

  it('a fast real clock stops at the last time', () => {
    let real = 0;
    const clock = new RealClock(1_000_000, () => real);
    clock.set(LAST_CLOCK_MS - 1000);
    real += 1000;
    expect(clock.now()).toBe(LAST_CLOCK_MS);
    expect(() => new ManualClock(LAST_CLOCK_MS).advance(1)).toThrow(/would pass 9999-12-31 23:59:59/);
  });
});

describe('a database whose clocks are past 9999-12-31 23:59:59', () => {
  it('opens with each such clock brought back to the last time, said in the log', () => {
    const store = Store.open(':memory:');
    const config: Config = { ...DEFAULT_CONFIG, db: ':memory:', clock: 'manual', startTime: START, quiet: true };
    try {
      const first = createServices(config, store);
      const marketplace = MARKETPLACE.SiteID;
      store.tx(() => first.siteClocks!.set(marketplace, START));
      const past = Date.UTC(10221, 5, 1);
      // As 8,200 advances left it: the sandbox clock, a marketplace's own clock, and a payment made then.
      createPaymentService({ ...first, clock: new ManualClock(past) }, store.sites.get(PLAIN.SiteID)!, paymentBody({ MethodID: 1, Splits: undefined }));
      store.tx(() => {
        store.clockState.save(past);
        store.siteClocks.save(marketplace, past);
      });

      const lines: string[] = [];
      const log: Logger = { warn: (m) => lines.push(m), info: () => {}, error: () => {}, debug: () => {}, enabled: () => false };
      const again = createServices({ ...config, startTime: undefined }, store, log);
      expect(again.clock.now()).toBe(LAST_CLOCK_MS);
      expect(again.siteClocks!.get(marketplace)!.now()).toBe(LAST_CLOCK_MS);
      expect(lines).toEqual([
        'the sandbox clock was kept at +010221-06-01T00:00:00.000Z, past 9999-12-31 23:59:59 (the last time the 14-digit format holds): brought back to 9999-12-31 23:59:59',
        `the clock of marketplace ${marketplace} was kept at +010221-06-01T00:00:00.000Z, past 9999-12-31 23:59:59 (the last time the 14-digit format holds): brought back to 9999-12-31 23:59:59`,
      ]);
    } finally {
      store.close();
    }
  });
});
