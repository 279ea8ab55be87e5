// A restore does not stop the world: the copy is made by another connection off the main thread,
// health answers meanwhile, and other requests wait for the restore (a bounded time, then 503 with
// Retry-After) rather than see data half replaced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Snapshots } from '../../src/snapshots/snapshots';
import { WritesHeld } from '../../src/store/failures';
import { type World, makeWorld } from '../helpers/world';
import { AUTH, type Rig, boot, createPayment, shutdown } from '../lifecycle/harness';

/** A restore under way until `finish()`; `waited` resolves once a request waits for it. */
function pendingRestore() {
  let finish!: () => void;
  let seen!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const waited = new Promise<void>((r) => (seen = r));
  const restoring = {
    then: (ok?: () => unknown, no?: () => unknown) => {
      seen();
      return done.then(ok, no);
    },
  } as unknown as Promise<void>;
  return { snapshots: { restoring } as unknown as Snapshots, finish, waited };
}

describe('requests while a snapshot is restored', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('health answers at once; the API answers 503 with Retry-After once its wait is over', async () => {
    const r = pendingRestore();
    w.ctx.snapshots = r.snapshots;
    w.ctx.restoreWaitMs = 0;
    const health = await request(w.api).get('/_sandbox/health');
    expect(health.status).toBe(200);
    for (const [app, path] of [
      [w.api, '/v1/payments'],
      [w.api, '/_sandbox/snapshots'],
      [w.card, '/v1/payments/1'],
    ] as const) {
      const res = await request(app).get(path).set('Authorization', w.auth);
      expect([path, res.status, res.headers['retry-after'], res.body]).toEqual([path, 503, '2', { Message: 'A snapshot is being restored; try again in a moment.' }]);
    }
    r.finish();
  });

  it('a request that arrived during the restore is answered once it is done', async () => {
    const r = pendingRestore();
    w.ctx.snapshots = r.snapshots;
    w.ctx.restoreWaitMs = 60_000;
    const answer = request(w.api).get('/v1/payments').set('Authorization', w.auth).then((res) => res);
    await r.waited;
    r.finish();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.Payments).toEqual([]);
  });
});

describe('restoring a file database', () => {
  let rig: Rig | undefined;
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-restore-thread-'))));
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
    rmSync(tmp, { recursive: true, force: true });
  });

  it('copies off the main thread: writes are held, health answers, the API waits and then sees the restored data', async () => {
    rig = await boot({ db: join(tmp, 'live.db') });
    const { sb } = rig;
    const kept = await createPayment(sb);
    await sb.snapshots.save('s');
    const later = await createPayment(sb);
    const store = sb.services.store;

    const restored = sb.snapshots.restore('s');
    // Under way, in another thread: this one is free, and writes here wait for the restore.
    expect(() => store.tx(() => 1)).toThrow(WritesHeld);
    const health = request(sb.baseUrl).get('/_sandbox/health').then((r) => r);
    const gone = request(sb.baseUrl).get(`/v1/payments/${later.ID}`).set('Authorization', AUTH).then((r) => r);
    expect(await restored).toMatchObject({ Name: 's', Payments: 1 });
    expect((await health).status).toBe(200);
    expect((await gone).status).toBe(404);
    expect((await request(sb.baseUrl).get(`/v1/payments/${kept.ID}`).set('Authorization', AUTH)).status).toBe(200);
    expect(store.tx(() => 1)).toBe(1);
    // A new payment after it: IDs never go back.
    expect((await createPayment(sb)).ID).toBeGreaterThan(later.ID);
  });
});
