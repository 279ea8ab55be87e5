// The WAL checkpointer: a worker thread with a connection of its own copies committed pages into the
// database file, is never held up by (nor holds up) the main connection, and stops before it closes.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type CheckpointResult, Checkpointer } from '../../src/store/checkpointer';
import { Store } from '../../src/store/store';
import { createLogger } from '../../src/log';

/** Resolves with the first `name` event whose value passes `ok` (events come every few ms). */
function first<T>(c: Checkpointer, name: 'checkpoint' | 'failure', ok: (v: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const on = (v: T) => {
      if (!ok(v)) return;
      c.events.off(name, on);
      resolve(v);
    };
    c.events.on(name, on);
  });
}

const caughtUp = (r: CheckpointResult) => r.log > 0 && r.checkpointed === r.log;

describe('WAL checkpointer', () => {
  let dir: string;
  let file: string;
  let store: Store;
  let checkpointer: Checkpointer | null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-ckpt-'));
    file = join(dir, 'c.db');
    store = Store.open(file);
    // Only the worker checkpoints: SQLite's own checkpoints on the main connection are off.
    store.db.pragma('wal_autocheckpoint = 0');
    checkpointer = null;
  });
  afterEach(async () => {
    await checkpointer?.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const bump = () => store.tx(() => store.db.prepare("UPDATE counters SET value = value + 1 WHERE name = 'customer'").run());
  const customerCounter = (db: Database.Database) => db.prepare("SELECT value FROM counters WHERE name = 'customer'").pluck().get() as number;

  it('copies what was committed into the database file itself, from its own thread', async () => {
    for (let i = 0; i < 50; i++) bump();
    const expected = customerCounter(store.db);
    checkpointer = Checkpointer.start(file, 5);
    const r = await first<CheckpointResult>(checkpointer, 'checkpoint', caughtUp);
    expect(r.checkpointed).toBe(r.log);
    // The database file alone, without its WAL, holds the last commit.
    const copy = join(dir, 'file-alone.db');
    copyFileSync(file, copy);
    const alone = new Database(copy, { readonly: true });
    try {
      expect(customerCounter(alone)).toBe(expected);
    } finally {
      alone.close();
    }
  });

  it('leaves the pages a reader still needs, holds up no commit meanwhile, and catches up once the reader is done', async () => {
    bump();
    const reader = new Database(file, { readonly: true });
    try {
      reader.prepare('BEGIN').run();
      const seen = customerCounter(reader);
      checkpointer = Checkpointer.start(file, 5);
      const before = await first<CheckpointResult>(checkpointer, 'checkpoint', caughtUp);
      // Commits go on while the reader keeps its snapshot.
      for (let i = 0; i < 20; i++) bump();
      const partial = await first<CheckpointResult>(checkpointer, 'checkpoint', (r) => r.log > before.log);
      expect(partial.checkpointed).toBe(before.log);
      expect(customerCounter(reader)).toBe(seen);
      reader.prepare('COMMIT').run();
    } finally {
      reader.close();
    }
    await first<CheckpointResult>(checkpointer, 'checkpoint', caughtUp);
  });

  it('stops before the main connection closes, which then removes the WAL file as the last one', async () => {
    checkpointer = Checkpointer.start(file, 5);
    bump();
    await first<CheckpointResult>(checkpointer, 'checkpoint', caughtUp);
    await checkpointer.stop();
    store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('says why when it cannot open the database, and still stops cleanly', async () => {
    checkpointer = Checkpointer.start(join(dir, 'missing.db'), 5);
    expect(await first<string>(checkpointer, 'failure')).toMatch(/unable to open database file|directory does not exist/);
    await checkpointer.stop();
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
  });

  it('recovers when its first open meets a locked database', async () => {
    // Another connection holds the database exclusively from before the thread's first open: that
    // open fails, whatever the machine's load, until the lock is let go.
    const locked = join(dir, 'locked.db');
    Store.open(locked).close();
    const locker = new Database(locked);
    locker.pragma('locking_mode = EXCLUSIVE');
    locker.exec('BEGIN EXCLUSIVE');
    checkpointer = Checkpointer.start(locked, 5);
    expect(await first<string>(checkpointer, 'failure')).toMatch(/database is locked/);
    locker.exec('COMMIT');
    locker.close();
    // The next thing it says, once failures from while it was locked are past, is a checkpoint.
    const next = await new Promise<string>((resolve) => {
      checkpointer!.events.on('checkpoint', () => resolve('checkpoint'));
      checkpointer!.events.on('failure', (why: string) => {
        if (!/database is locked/.test(why)) resolve(why);
      });
    });
    expect(next).toBe('checkpoint');
  });

  it('starts a new thread when its thread ended by itself', async () => {
    checkpointer = Checkpointer.start(file, 5);
    await first<CheckpointResult>(checkpointer, 'checkpoint');
    // The new thread comes a second after the old one ended: that second is a fake timer's, moved on here.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const ended = first<string>(checkpointer, 'failure');
      await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      expect(await ended).toMatch(/^the checkpoint thread ended \(exit code 1\)$/);
      const old = (checkpointer as unknown as { worker: unknown }).worker;
      jest.advanceTimersByTime(999);
      expect((checkpointer as unknown as { worker: unknown }).worker).toBe(old);
      jest.advanceTimersByTime(1);
      expect((checkpointer as unknown as { worker: unknown }).worker).not.toBe(old);
    } finally {
      jest.useRealTimers();
    }
    bump();
    await first<CheckpointResult>(checkpointer, 'checkpoint', caughtUp);
  });

  it('logs a run of failures once, with the reason, and its end once', async () => {
    const lines: string[] = [];
    const log = createLogger('info', 'pretty', (l) => lines.push(l));
    const later = join(dir, 'later.db');
    checkpointer = Checkpointer.start(later, 5, log);
    let failures = 0;
    await first<string>(checkpointer, 'failure', () => ++failures === 3);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/warn  WAL checkpoints in their own thread fail \((unable to open database file|directory does not exist)[^)]*\); SQLite's own checkpoints keep the WAL bounded meanwhile\n$/);
    // The database appears: the next run opens it and checkpoints.
    const other = Store.open(later);
    try {
      await first<CheckpointResult>(checkpointer, 'checkpoint');
      await first<CheckpointResult>(checkpointer, 'checkpoint');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/info  WAL checkpoints in their own thread work again\n$/);
      await checkpointer.stop();
    } finally {
      other.close();
    }
  });
});
