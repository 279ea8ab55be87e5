// The retention job itself, called directly with a manual clock as the scheduler calls it: bounded
// batches that let other work in between, a file that stops growing under steady load and shrinks
// when the load stops, the minute timer of the real clock, and older database files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createLifecycle, createServices } from '../../src/main';
import { Retention } from '../../src/retention/retention';
import { createPayment } from '../../src/services/payments.service';
import { MIGRATIONS } from '../../src/store/migrations';
import { Store } from '../../src/store/store';
import { MARKETPLACE, type World, makeWorld, paymentBody } from '../helpers/world';
import { type Rig, boot, shutdown } from '../lifecycle/harness';

const MINUTE = 60_000;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Creates `n` Open payments (no token lifetime) through the service, and commits them. */
async function createMany(w: World, n: number): Promise<void> {
  const site = w.store.sites.get(MARKETPLACE.SiteID)!;
  for (let i = 0; i < n; i++) createPayment(w.services, site, paymentBody({ TokenLifetime: null }));
  await turn();
}

const count = (w: World) => w.store.db.prepare('SELECT count(*) FROM payments').pluck().get() as number;
const pages = (w: World) => w.store.db.pragma('page_count', { simple: true }) as number;

describe('the retention job', () => {
  let tmp: string;
  const worlds: World[] = [];
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-retention-'))));
  afterEach(() => {
    for (const w of worlds.splice(0)) w.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  const world = (file = ':memory:') => {
    const w = makeWorld({}, Store.open(file));
    // Payments that move only by events: no scenario step pending to keep them.
    delete w.services.scenarios;
    worlds.push(w);
    return w;
  };

  it('deletes in bounded batches and lets other work run between them', async () => {
    const w = world();
    await createMany(w, 250);
    w.clock.advance(10 * MINUTE);
    const job = new Retention(w.services, { retainMs: 5 * MINUTE, log: silentLogger, batch: 100 });
    let seenMidway: number | undefined;
    const run = job.run();
    // Queued after the job's first batch: it runs before the job is over.
    setImmediate(() => (seenMidway = count(w)));
    expect(await run).toEqual({ payments: 250, batches: 3, releasedPages: 0 });
    expect(seenMidway).toBeGreaterThan(0);
    expect(seenMidway).toBeLessThan(250);
    expect(count(w)).toBe(0);
  });

  it('keeps the file from growing under a steady load, and gives the space back when the load stops', async () => {
    const w = world(join(tmp, 'steady.db'));
    const job = new Retention(w.services, { retainMs: 5 * MINUTE, log: silentLogger });
    const perMinute: number[] = [];
    for (let minute = 0; minute < 16; minute++) {
      await createMany(w, 200);
      w.clock.advance(MINUTE);
      await job.run();
      perMinute.push(pages(w));
    }
    // Five minutes of payments are kept: 1,000 (1,200 just before each run).
    expect(count(w)).toBe(1000);
    const full = Math.max(...perMinute.slice(5, 8));
    // Pages freed by each run are reused by the next minute's writes: flat (within 2%) from then on.
    expect(Math.max(...perMinute.slice(8))).toBeLessThanOrEqual(full * 1.02);
    expect(perMinute[15]).toBeGreaterThan(perMinute[2]!);

    // No more load: six minutes later everything is gone and its pages given back.
    w.clock.advance(6 * MINUTE);
    await job.run();
    expect(count(w)).toBe(0);
    const report = await job.run();
    expect(report.releasedPages).toBeGreaterThan(0);
    expect(pages(w)).toBeLessThan(full / 3);
    expect(w.store.db.pragma('freelist_count', { simple: true })).toBe(0);
  });

  it('stops between batches when the sandbox stops', async () => {
    const w = world();
    await createMany(w, 250);
    w.clock.advance(10 * MINUTE);
    const job = new Retention(w.services, { retainMs: 5 * MINUTE, log: silentLogger, batch: 100 });
    const run = job.run();
    setImmediate(() => job.stop());
    // The batch under way when stop() came is finished (all or nothing); no other starts.
    const report = await run;
    expect(report.payments).toBeLessThan(250);
    expect(report.payments).toBe(report.batches * 100);
    expect(count(w)).toBe(250 - report.payments);
  });
});

describe('retention in the scheduler', () => {
  afterEach(() => jest.useRealTimers());

  it('runs at start and every minute with the real clock, and no more once stopped', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const store = Store.open(':memory:');
    const config = { ...DEFAULT_CONFIG, quiet: true };
    const services = createServices(config, store);
    const scheduler = createLifecycle(config, services, () => 'http://sandbox.test', silentLogger);
    const run = jest.fn(async () => {});
    scheduler.addJob({ everyMs: MINUTE, run });
    try {
      scheduler.start();
      expect(run).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(MINUTE - 1);
      expect(run).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(run).toHaveBeenCalledTimes(2);
      await jest.advanceTimersByTimeAsync(3 * MINUTE);
      expect(run).toHaveBeenCalledTimes(5);
    } finally {
      await scheduler.stop();
      store.close();
    }
    await jest.advanceTimersByTimeAsync(5 * MINUTE);
    expect(run).toHaveBeenCalledTimes(5);
  });

  it('never runs a job twice at once, and logs a failed run instead of stopping', async () => {
    const store = Store.open(':memory:');
    const config = { ...DEFAULT_CONFIG, clock: 'manual' as const, quiet: true };
    const services = createServices(config, store);
    const errors: string[] = [];
    const log = { ...silentLogger, error: (msg: string) => void errors.push(msg) };
    const scheduler = createLifecycle(config, services, () => 'http://sandbox.test', log);
    let release: () => void = () => {};
    let runs = 0;
    scheduler.addJob({
      everyMs: MINUTE,
      run: () => {
        runs++;
        if (runs === 1) return new Promise<void>((resolve) => (release = resolve));
        return Promise.reject(new Error('disk on fire'));
      },
    });
    try {
      scheduler.start(); // run 1, held open
      const advanced = scheduler.advance(1000); // waits for run 1, then runs again
      await turn();
      expect(runs).toBe(1);
      release();
      await advanced;
      expect(runs).toBe(2);
      expect(errors).toEqual(['upkeep failed']);
    } finally {
      await scheduler.stop();
      store.close();
    }
  });
});

describe('older database files and retention', () => {
  let tmp: string;
  let rig: Rig | undefined;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-retention-'))));
  afterEach(async () => {
    await shutdown(rig);
    rig = undefined;
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A file as a sandbox of schema 4 left it: no incremental auto-vacuum, no refund indexes, one payment. */
  function schema4File(file: string): void {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    for (const m of MIGRATIONS.filter((x) => x.version <= 4)) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
    db.close();
  }

  const indexes = (rig: Rig) =>
    rig.sb.services.store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%_by_refund' ORDER BY name").pluck().all();

  it('a file from before is brought up to date and, with --retain, switched to incremental auto-vacuum', async () => {
    const file = join(tmp, 'old.db');
    schema4File(file);
    rig = await boot({ db: file, retainMs: 5 * MINUTE });
    const db = rig.sb.services.store.db;
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(indexes(rig)).toEqual(['notifications_by_refund', 'scenario_jobs_by_refund', 'status_history_by_refund']);
    expect(db.prepare('SELECT count(*) FROM sites').pluck().get()).toBeGreaterThan(0);
  });

  it('without --retain the file is migrated but not rewritten', async () => {
    const file = join(tmp, 'old.db');
    schema4File(file);
    rig = await boot({ db: file });
    const db = rig.sb.services.store.db;
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    expect(indexes(rig)).toHaveLength(3);
  });

  it('a new file is made with incremental auto-vacuum', async () => {
    rig = await boot({ db: join(tmp, 'new.db') });
    expect(rig.sb.services.store.db.pragma('auto_vacuum', { simple: true })).toBe(2);
  });
});
