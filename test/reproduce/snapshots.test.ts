// Snapshots of the whole sandbox: saved by SQLite, restored table by table, with pending steps and
// notifications that resume from the snapshot's time, once, and ID sequences that never go back.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startSandbox } from '../../src/main';
import * as copies from '../../src/store/copies';
import { START, paymentBody } from '../helpers/world';
import { AUTH, type Rig, advance, boot, createPayment, getPayment, journal, labels, shutdown, stamp } from '../lifecycle/harness';
import { SEQUENCE_TABLES, sequencesOf, tablesOf, withFile } from './helpers';

/** A snapshot's file, as GET /_sandbox/snapshots/{name}/file answers it, written to `file`. */
async function download(base: string, name: string, file: string): Promise<request.Response> {
  const res = await request(base)
    .get(`/_sandbox/snapshots/${name}/file`)
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
  if (res.status === 200) writeFileSync(file, res.body as Buffer);
  return res;
}

describe('snapshots', () => {
  let rig: Rig | undefined;
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-snapshots-test-'))));
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
    rmSync(tmp, { recursive: true, force: true });
  });

  it('restores every table as it was when saved (IDs excepted, which never go back), and pending work runs after it once', async () => {
    rig = await boot();
    const { sb, rx } = rig;
    // The first notification fails: at the snapshot it waits for its retry (1 s later).
    rx.answers = [500];
    const p1 = await createPayment(sb, { scenario: 'two-step' });
    await advance(sb, 2);
    expect(labels(rx)).toEqual(['P9']); // answered 500
    const p2 = await createPayment(sb, { scenario: 'one-step', overrides: { MethodID: 1 } });
    await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ DefaultScenario: 'failed' }).expect(200);

    const saved = await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'before-capture' });
    expect(saved.status).toBe(201);
    expect(saved.body).toEqual({ Snapshot: { Name: 'before-capture', Created: stamp(2000), Payments: 2 } });
    const file = join(tmp, 'before-capture.db');
    const got = await download(sb.baseUrl, 'before-capture', file);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/vnd.sqlite3');
    expect(got.headers['content-disposition']).toBe('attachment; filename="before-capture.db"');

    // Everything changes afterwards: the retry and the one-step payment are delivered, a capture, a
    // refund, a new payment, a merchant setting.
    await advance(sb, 3);
    expect(labels(rx)).toEqual(['P9', 'P9', 'P2']);
    await request(sb.baseUrl).post(`/v1/payments/${p1.ID}/capture`).set('Authorization', AUTH).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${p2.ID}/splits/${p2.Splits[0].ID}/refunds`).set('Authorization', AUTH).send({ Refund: { Amount: 100 } }).expect(201);
    const p3 = await createPayment(sb, { scenario: 'two-step' });
    await request(sb.baseUrl).patch('/_sandbox/merchants/30201').send({ DefaultScenario: null, NotificationURL: 'http://127.0.0.1:9/nowhere' }).expect(200);
    await advance(sb, 2);
    // A list page and its count, kept in memory until the data changes.
    const listed = await request(sb.baseUrl).get('/v1/payments').set('Authorization', AUTH);
    expect([listed.body.TotalCount, listed.body.Payments.length]).toEqual([3, 3]);
    const liveBefore = sequencesOf(sb.services.store.db);

    const restored = await request(sb.baseUrl).post('/_sandbox/snapshots/before-capture/restore');
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ Snapshot: { Name: 'before-capture', Created: stamp(2000), Payments: 2 } });

    // Every table as in the snapshot's file, the sequences excepted: those are at least where they were.
    expect(tablesOf(sb.services.store, SEQUENCE_TABLES)).toEqual(withFile(file, (db) => tablesOf(db, SEQUENCE_TABLES)));
    const after = sequencesOf(sb.services.store.db);
    const inSnapshot = withFile(file, sequencesOf);
    for (const [key, value] of Object.entries(liveBefore)) expect({ key, value: after[key] }).toEqual({ key, value: Math.max(value, inSnapshot[key] ?? 0) });
    expect((await request(sb.baseUrl).get('/_sandbox/clock')).body).toMatchObject({ Mode: 'manual', Now: stamp(2000), NowMs: START + 2000 });
    expect((await getPayment(sb, p1.ID)).Status.ID).toBe(9);
    expect((await request(sb.baseUrl).get(`/v1/payments/${p3.ID}`).set('Authorization', AUTH)).status).toBe(404);
    expect((await request(sb.baseUrl).get('/_sandbox/merchants/30201')).body.Merchant).toMatchObject({ DefaultScenario: 'failed', NotificationURL: null });
    // The list's kept pages and counts are of the restored data.
    const list = await request(sb.baseUrl).get('/v1/payments').set('Authorization', AUTH);
    expect(list.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([p2.ID, p1.ID]);
    expect(list.body.TotalCount).toBe(2);

    // What was pending at the snapshot runs again from its time: the retry of P9 and the one-step
    // payment's Success, each delivered once.
    const heard = rx.received.length;
    await advance(sb, 5);
    expect(labels(rx).slice(heard)).toEqual(['P9', 'P2']);
    expect((await getPayment(sb, p2.ID)).Status.ID).toBe(2);
    const notes = await journal(sb, p1.ID);
    expect(notes.map((n) => [n.StatusID, n.State, n.Attempts.map((a: { HTTPStatus: number }) => a.HTTPStatus)])).toEqual([[9, 'delivered', [500, 204]]]);
    expect(await journal(sb, p2.ID)).toHaveLength(1);
    await advance(sb, 60);
    expect(rx.received).toHaveLength(heard + 2);

    // A payment made after the restore never gets an ID handed out before it.
    const p4 = await createPayment(sb);
    expect(p4.ID).toBeGreaterThan(p3.ID);
    expect(Math.min(...p4.Splits.map((s: { ID: number }) => s.ID))).toBeGreaterThan(Math.max(...p3.Splits.map((s: { ID: number }) => s.ID)));
  });

  it('brings the fault rules back with a restore, in force at once', async () => {
    rig = await boot();
    const { sb } = rig;
    const rule = await request(sb.baseUrl)
      .post('/_sandbox/faults')
      .send({ Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments' }, Action: { Status: 503 } });
    expect(rule.status).toBe(201);
    await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'with-fault' }).expect(201);
    await request(sb.baseUrl).delete('/_sandbox/faults').expect(204);
    expect((await request(sb.baseUrl).post('/v1/payments').set('Authorization', AUTH).send(paymentBody())).status).toBe(201);

    await request(sb.baseUrl).post('/_sandbox/snapshots/with-fault/restore').expect(200);
    expect((await request(sb.baseUrl).get('/_sandbox/faults')).body.Faults.map((f: any) => [f.ID, f.Action])).toEqual([[rule.body.Fault.ID, { Status: 503 }]]);
    const refused = await request(sb.baseUrl).post('/v1/payments').set('Authorization', AUTH).send(paymentBody());
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ Message: 'An error has occurred.' });
  });

  it('a notification on the wire when a snapshot is restored does not write into the restored journal', async () => {
    rig = await boot({ notifyTimeoutMs: 5000 });
    const { sb, rx } = rig;
    const p = await createPayment(sb, { scenario: 'one-step', overrides: { MethodID: 1 } });
    await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'open' }).expect(201);
    rx.answers = ['hang'];
    const advancing = advance(sb, 2);
    await new Promise<void>((resolve) => {
      const check = () => (sb.notifications.list({ PaymentID: p.ID, SortDirection: 'asc' }).Notifications.length > 0 && rx.answers.length === 0 ? resolve() : setImmediate(check));
      check();
    });
    await request(sb.baseUrl).post('/_sandbox/snapshots/open/restore').expect(200);
    await advancing;
    expect((await getPayment(sb, p.ID)).Status.ID).toBe(1);
    expect(await journal(sb, p.ID)).toEqual([]);
    await advance(sb, 2);
    const notes = await journal(sb, p.ID);
    expect(notes.map((n) => [n.StatusID, n.State, n.Attempts.length])).toEqual([[2, 'delivered', 1]]);
  });

  it('lists, deletes and refuses snapshots by name; an unknown one is a 404, a bad name a 400 naming the field', async () => {
    rig = await boot();
    const { sb } = rig;
    await createPayment(sb);
    await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'b.one' }).expect(201);
    await advance(sb, 1);
    await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'a_two' }).expect(201);
    expect((await request(sb.baseUrl).get('/_sandbox/snapshots')).body).toEqual({
      Snapshots: [
        { Name: 'b.one', Created: stamp(0), Payments: 1 },
        { Name: 'a_two', Created: stamp(1000), Payments: 1 },
      ],
    });
    expect((await request(sb.baseUrl).delete('/_sandbox/snapshots/b.one')).status).toBe(204);
    expect((await request(sb.baseUrl).get('/_sandbox/snapshots')).body.Snapshots.map((x: { Name: string }) => x.Name)).toEqual(['a_two']);

    for (const [method, path] of [
      ['post', '/_sandbox/snapshots/b.one/restore'],
      ['delete', '/_sandbox/snapshots/b.one'],
      ['get', '/_sandbox/snapshots/b.one/file'],
    ] as const) {
      const res = await request(sb.baseUrl)[method](path);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { Message: 'Snapshot b.one not found.' } });
    }
    const bad = await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: '../escape' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      Message: `Name is invalid: "../escape" is not a snapshot name (1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)`,
    });
    expect((await request(sb.baseUrl).post('/_sandbox/snapshots').send({})).body).toEqual({ Message: 'Name is missing' });
    expect((await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 7 })).body).toEqual({ Message: 'Name is invalid: expected string' });
    expect((await request(sb.baseUrl).post('/_sandbox/snapshots').send('{"Name":')).status).toBe(400);
    const badPath = await request(sb.baseUrl).post('/_sandbox/snapshots/.hidden/restore');
    expect(badPath.status).toBe(400);
    expect(badPath.body.Message).toMatch(/^name is invalid: "\.hidden" is not a snapshot name/);
    // Names that try to leave the folder, or are no names at all: a 4xx {"Message"}, never a file elsewhere.
    for (const name of ['..', '%2e%2e', '..%2F..%2Fetc', 'a%00b', '%E2%82%AC', 'x'.repeat(65), '-dash', 'a b']) {
      for (const [method, path] of [
        ['post', `/_sandbox/snapshots/${name}/restore`],
        ['delete', `/_sandbox/snapshots/${name}`],
        ['get', `/_sandbox/snapshots/${name}/file`],
      ] as const) {
        const res = await request(sb.baseUrl)[method](path);
        expect({ path, status: res.status >= 400 && res.status < 500, keys: Object.keys(res.body) }).toEqual({ path, status: true, keys: ['Message'] });
      }
      const saved = await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: decodeURIComponent(name.replace('%2F', '/')) });
      expect(saved.status).toBe(400);
    }
    expect(sb.snapshots.list().map((x) => x.Name)).toEqual(['a_two']);
  });

  it('keeps snapshots beside a file database; a snapshot file opens with start --db, at its sandbox time', async () => {
    const db = join(tmp, 'qa.db');
    rig = await boot({ db });
    const { sb } = rig;
    const p = await createPayment(sb, { scenario: 'two-step' });
    await advance(sb, 3600);
    const saved = await sb.snapshots.save('hour-later');
    expect(saved).toEqual({ Name: 'hour-later', Created: stamp(3_600_000), Payments: 1 });
    expect(existsSync(join(tmp, 'qa.db.snapshots', 'hour-later.db'))).toBe(true);
    expect(sb.snapshots.list()).toEqual([saved]);
    const file = join(tmp, 'attached-to-a-bug.db');
    expect((await download(sb.baseUrl, 'hour-later', file)).status).toBe(200);
    const again = join(tmp, 'opened-with-the-real-clock.db');
    expect((await download(sb.baseUrl, 'hour-later', again)).status).toBe(200);

    // As the README says: with the real clock the time resumes from now, not from the snapshot's.
    const before = Date.now();
    const real = await startSandbox({ port: 0, cardPort: 0, db: again, clock: 'real', quiet: true });
    try {
      expect(real.clock.now()).toBeGreaterThanOrEqual(before);
    } finally {
      await real.stop();
    }

    const other = await startSandbox({ port: 0, cardPort: 0, db: file, clock: 'manual', quiet: true });
    try {
      expect(other.clock.now()).toBe(START + 3_600_000);
      const got = await request(other.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH);
      expect(got.body.Payment).toMatchObject({ ID: p.ID, Status: { ID: 9, Info: 'Authorized', Reasons: null } });
    } finally {
      await other.stop();
    }
    sb.snapshots.remove('hour-later');
    expect(sb.snapshots.list()).toEqual([]);

    // A file in the folder that is no database is no snapshot, and restoring it changes nothing.
    writeFileSync(join(tmp, 'qa.db.snapshots', 'junk.db'), 'not a database');
    expect(sb.snapshots.list()).toEqual([]);
    const junk = await request(sb.baseUrl).post('/_sandbox/snapshots/junk/restore');
    expect(junk.status).toBe(400);
    expect(junk.body.Message).toMatch(/^Snapshot junk cannot be restored: /);
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH)).status).toBe(200);

    // The machine failing under a restore (a full disk, a copy that cannot be written) is a 503 that
    // changes nothing, as for any write; trying again later may work.
    await sb.snapshots.save('again');
    for (const failure of [
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      Object.assign(new Error('ENOSPC: no space left on device, copyfile'), { code: 'ENOSPC', syscall: 'copyfile' }),
    ]) {
      const spy = jest.spyOn(copies, 'replaceData').mockImplementation(() => {
        throw failure;
      });
      try {
        const later = await request(sb.baseUrl).post('/_sandbox/snapshots/again/restore');
        expect([later.status, later.body]).toEqual([503, { Message: `Snapshot again cannot be restored now: ${failure.message}` }]);
      } finally {
        spy.mockRestore();
      }
    }
    expect((await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', AUTH)).status).toBe(200);
    sb.snapshots.remove('again');

    // Where snapshots cannot be written, saying so is the sandbox's answer (not a crash).
    rmSync(join(tmp, 'qa.db.snapshots'), { recursive: true });
    writeFileSync(join(tmp, 'qa.db.snapshots'), 'in the way');
    const refused = await request(sb.baseUrl).post('/_sandbox/snapshots').send({ Name: 'nowhere' });
    expect(refused.status).toBe(503);
    expect(refused.body.Message).toMatch(/^Snapshot nowhere could not be written: /);
    expect((await request(sb.baseUrl).get('/_sandbox/snapshots')).body).toEqual({ Snapshots: [] });
  });

  it('keeps the snapshots of an in-memory sandbox in a folder removed when it stops', async () => {
    rig = await boot();
    const folders = () => new Set(readdirSync(tmpdir()).filter((d) => d.startsWith('split-sandbox-snapshots-')).map((d) => join(tmpdir(), d)));
    const before = folders();
    await rig.sb.snapshots.save('s');
    const made = [...folders()].filter((d) => !before.has(d) && existsSync(join(d, 's.db')));
    expect(made).toHaveLength(1);
    await rig.sb.stop();
    expect(existsSync(made[0]!)).toBe(false);
  });
});
