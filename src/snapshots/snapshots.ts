// Snapshots: named copies of the whole database, made by SQLite itself, kept beside a file database
// (`<db>.snapshots/<name>.db`) or, for `:memory:`, in a temporary folder removed when the sandbox
// stops. Restoring one brings back every table as it was (the clock too), then everything held in
// memory about the data is read again through the store's "data replaced" hook.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FIRST_WIRE_MS, LAST_WIRE_MS, formatTimestamp } from '../domain/time';
import { HttpError } from '../errors/errors';
import { SNAPSHOT_NAME } from '../schemas/reproduce';
import { CopyTooNewError, copyDatabase, readCopy, removeScratch, replaceData } from '../store/copies';
import { CopyRejected } from '../store/copy-check';
import { isStorageFailure } from '../store/failures';
import { scrubCopyFile } from '../store/scrub-copies';
import type { Clock } from '../scheduler/clock';
import type { Store } from '../store/store';

/** A snapshot as the control API shows it. */
export interface SnapshotInfo {
  Name: string;
  /** The sandbox time it was taken at (the clock goes back to it on restore). */
  Created: string | null;
  /** How many payments it holds. */
  Payments: number;
}

const NAME = new RegExp(SNAPSHOT_NAME);
const FILE = /^(.+)\.db$/;
/** A save's or a restore's scratch file (`.<name>.<pid>.<n>.tmp|restore`), or what SQLite keeps beside one. */
const SCRATCH = /^\..+\.(\d+)\.\d+\.(?:tmp|restore)(?:-journal|-wal|-shm)?$/;
/** The scratch files this process is writing now (two sandboxes of one process may share a folder). */
const WRITING = new Set<string>();

export class Snapshots {
  private folder: string | null;
  private readonly temporary: boolean;
  private counter = 0;

  /**
   * @param dbFile the database file (`:memory:` keeps snapshots in a temporary folder)
   * @param clock the sandbox time, which a snapshot holds
   */
  constructor(
    private readonly store: Store,
    dbFile: string,
    private readonly clock: Clock,
  ) {
    this.temporary = dbFile === ':memory:' || dbFile === '';
    this.folder = this.temporary ? null : `${resolve(dbFile)}.snapshots`;
    this.removeLeftovers();
    this.scrubOld();
  }

  /** Snapshots saved before card data was masked by what it is lose it now, once (scrub-copies.ts). */
  private scrubOld(): void {
    const dir = this.dir(false);
    if (!dir) return;
    for (const file of readdirSync(dir)) if (FILE.test(file) && !file.startsWith('.')) scrubCopyFile(join(dir, file));
  }

  /**
   * Removes the scratch files of saves and restores that never finished (the process was killed):
   * those of processes that are gone, and this process's own that it is not writing (a restarted
   * container often gets its old PID back). Another live process's are left to it.
   */
  private removeLeftovers(): void {
    const dir = this.dir(false);
    if (!dir) return;
    for (const file of readdirSync(dir)) {
      const pid = SCRATCH.exec(file)?.[1];
      if (pid === undefined) continue;
      const path = join(dir, file);
      if (Number(pid) === process.pid ? ![...WRITING].some((w) => path.startsWith(w)) : !alive(Number(pid))) rmSync(path, { force: true });
    }
  }

  /** A scratch file's path in the folder, marked as written by this process until `done` is called with it. */
  private scratch(name: string, kind: 'tmp' | 'restore'): string {
    const path = join(this.dir(true)!, `.${name}.${process.pid}.${++this.counter}.${kind}`);
    WRITING.add(path);
    return path;
  }

  private done(scratch: string): void {
    if (!scratch) return;
    removeScratch(scratch);
    WRITING.delete(scratch);
  }

  /** Copies the whole database under `name` (an existing snapshot of that name is replaced). */
  async save(name: string): Promise<SnapshotInfo> {
    checkSnapshotName(name, 'Name');
    const now = this.clock.now();
    this.store.tx(() => this.store.clockState.save(now));
    // A copy is written beside, then renamed: a snapshot file is always whole.
    let scratch = '';
    try {
      scratch = this.scratch(name, 'tmp');
      await copyDatabase(this.store, scratch);
      renameSync(scratch, this.pathOf(name));
    } catch (e) {
      // A full disk or an unwritable folder: the sandbox's trouble, said as such.
      throw new HttpError(503, `Snapshot ${name} could not be written: ${(e as Error).message}`);
    } finally {
      this.done(scratch);
    }
    return this.info(name);
  }

  list(): SnapshotInfo[] {
    const dir = this.dir(false);
    if (!dir) return [];
    const out: SnapshotInfo[] = [];
    for (const file of readdirSync(dir)) {
      const name = FILE.exec(file)?.[1];
      if (!name || !NAME.test(name)) continue;
      try {
        out.push(this.info(name));
      } catch {
        // Not a database this sandbox can read (a stray file in the folder): not a snapshot.
      }
    }
    return out.sort((a, b) => (a.Created ?? '').localeCompare(b.Created ?? '') || a.Name.localeCompare(b.Name));
  }

  /** Settles when the restore under way ends (null when none is): requests wait for it (restoring.middleware.ts). */
  get restoring(): Promise<void> | null {
    return this.underway;
  }

  private underway: Promise<void> | null = null;

  /**
   * Replaces all data with the snapshot's: payments, splits, refunds, history, pending steps,
   * notifications with their state, merchants and their settings, the clock, and every other table,
   * except that ID sequences never go back. What is pending resumes from the snapshot's time. The
   * copy is checked first, then made off the main thread (a file database); one restore at a time.
   */
  async restore(name: string): Promise<SnapshotInfo> {
    while (this.underway) await this.underway;
    const work = this.restoreNow(name);
    const underway = work.then(
      () => {},
      () => {},
    );
    this.underway = underway;
    try {
      return await work;
    } finally {
      if (this.underway === underway) this.underway = null;
    }
  }

  private async restoreNow(name: string): Promise<SnapshotInfo> {
    const file = this.fileOf(name);
    let info: SnapshotInfo;
    let scratch = '';
    try {
      info = this.info(name);
      scratch = this.scratch(name, 'restore');
      await replaceData(this.store, file, scratch);
    } catch (e) {
      // The machine could not do it now (a full disk, a busy database, a temporary copy not written):
      // 503 as for any write, and trying again later may work. A file that is no snapshot of ours: 400.
      if (isStorageFailure(e) || typeof (e as NodeJS.ErrnoException).syscall === 'string') {
        throw new HttpError(503, `Snapshot ${name} cannot be restored now: ${(e as Error).message}`);
      }
      if (e instanceof CopyTooNewError || e instanceof CopyRejected || (e as { code?: string }).code?.startsWith('SQLITE_')) {
        throw new HttpError(400, `Snapshot ${name} cannot be restored: ${(e as Error).message}`);
      }
      throw e;
    } finally {
      this.done(scratch);
    }
    this.store.dataReplaced('restore');
    return info;
  }

  remove(name: string): void {
    rmSync(this.fileOf(name));
  }

  /** The snapshot's file (a SQLite database `split-sandbox start --db` opens); 404 when there is none. */
  fileOf(name: string): string {
    checkSnapshotName(name, 'name');
    if (!this.dir(false) || !existsSync(this.pathOf(name))) throw new HttpError(404, `Snapshot ${name} not found.`);
    return this.pathOf(name);
  }

  /** Removes the temporary folder of an in-memory sandbox's snapshots. */
  close(): void {
    if (this.temporary && this.folder) rmSync(this.folder, { recursive: true, force: true });
    if (this.temporary) this.folder = null;
  }

  private info(name: string): SnapshotInfo {
    const copy = readCopy(this.pathOf(name));
    // A clock a restore would refuse (copy-check.ts) is shown as none, never as a time of 15 digits.
    const ms = copy.sandboxMs;
    const created = ms === undefined || !(ms >= FIRST_WIRE_MS && ms <= LAST_WIRE_MS) ? null : formatTimestamp(ms);
    return { Name: name, Created: created, Payments: copy.payments };
  }

  private pathOf(name: string): string {
    return join(this.folder ?? '', `${name}.db`);
  }

  private dir(create: boolean): string | null {
    if (create) {
      if (this.folder === null) this.folder = mkdtempSync(join(tmpdir(), 'split-sandbox-snapshots-'));
      else mkdirSync(this.folder, { recursive: true });
    }
    return this.folder !== null && statSync(this.folder, { throwIfNoEntry: false })?.isDirectory() ? this.folder : null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, as another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function checkSnapshotName(name: string, field: string): void {
  if (!NAME.test(name)) {
    throw new HttpError(400, `${field} is invalid: "${name.slice(0, 80)}" is not a snapshot name (1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)`);
  }
}
