// The embedded handle: two tests of one file run at the same time in one sandbox, each in a
// marketplace of its own, with its own clock, journal, fault rules, reset and snapshots.
import request from 'supertest';
import { type Marketplace, type Sandbox, startSandbox } from 'split-sandbox';
import { START } from '../helpers/world';
import { payAs } from './pay';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 19, quiet: true, scenario: 'two-step' });
});
afterAll(() => sb.stop());

const pay = async (m: Marketplace, n: number) => (await payAs(sb.baseUrl, m.authorization, m.LinkedSiteIDs[0], n)).ID;
const status = async (m: Marketplace, id: number) => (await request(sb.baseUrl).get(`/v1/payments/${id}`).set('Authorization', m.authorization)).body.Payment.Status.ID;

/** One test's life in its own marketplace; `wait` lets the other test move meanwhile. */
async function ownLife(advanceBy: number) {
  const m = await sb.merchants.create({ clock: 'manual', linkedSites: 1 });
  expect(m.clock.now()).toBe(START);
  const id = await pay(m, 1);
  await Promise.resolve();
  await m.clock.advance(advanceBy);
  expect(m.clock.now()).toBe(START + advanceBy * 1000);
  const n = await m.notifications.waitFor({ PaymentID: id, StatusID: 9 }, 5000);
  expect(n).toMatchObject({ PaymentID: id, StatusID: 9, State: 'no-url' });
  expect(m.notifications.list().Notifications.map((x) => x.PaymentID)).toEqual([id]);
  expect(await status(m, id)).toBe(9);

  // A fault of its own acts on its own requests alone.
  const rule = m.faults.add({ Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments/{id}' }, Action: { Status: 503 }, Times: 1 });
  expect(rule.Match).toEqual({ Method: 'GET', Path: '/v1/payments/{id}', SiteID: m.SiteID });
  expect(m.faults.list().map((f) => f.ID)).toEqual([rule.ID]);
  expect((await request(sb.baseUrl).get(`/v1/payments/${id}`).set('Authorization', m.authorization)).status).toBe(503);

  const snap = await m.snapshots.save('after-auth');
  expect(snap).toMatchObject({ Name: 'after-auth', OwnClock: true, Payments: 1 });
  await m.reset();
  expect(m.notifications.list().TotalCount).toBe(0);
  expect(m.faults.list()).toEqual([]);
  await m.snapshots.restore('after-auth');
  expect(m.clock.now()).toBe(START + advanceBy * 1000);
  expect(await status(m, id)).toBe(9);
  expect(m.snapshots.list().map((s) => s.Name)).toEqual(['after-auth']);
  return { m, id };
}

describe('sandbox.merchants.create() in tests running at the same time', () => {
  const done: Promise<{ m: Marketplace; id: number }>[] = [];

  it.concurrent('one test in its own marketplace', async () => {
    const p = ownLife(2);
    done.push(p);
    const { m } = await p;
    const [other] = await Promise.all(done.filter((q) => q !== p));
    // The other test's marketplace kept its own time; this one sees none of its notifications.
    if (other) expect(other.m.clock.now()).toBe(START + 5000);
    expect(m.notifications.list().Notifications.every((n) => n.PaymentID !== other?.id)).toBe(true);
  });

  it.concurrent('another test in its own marketplace', async () => {
    const p = ownLife(5);
    done.push(p);
    const { m } = await p;
    const [other] = await Promise.all(done.filter((q) => q !== p));
    if (other) expect(other.m.clock.now()).toBe(START + 2000);
    expect(m.clock.now()).toBe(START + 5000);
    // The sandbox's own time never moved.
    expect(sb.clock.now()).toBe(START);
  });
});
