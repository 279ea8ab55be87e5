// A marketplace's own snapshots: named copies of its rows and its clock, in a folder of its own
// (`<db>.merchant-snapshots/<SiteID>/<name>.db`, or a temporary folder for `:memory:`). Restoring one
// brings back its data and its time and touches no other marketplace. Each keeps a bounded number
// and bytes of them (its quota); a save or a restore goes in steps, so that it holds up no one else.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { formatTimestamp } from '../domain/time';
import { HttpError } from '../errors/errors';
import type { ServiceContext } from '../services/context';
import { checkSnapshotName } from '../snapshots/snapshots';
import { removeScratch } from '../store/copies';
import { SiteCopyRefused, SiteCopyTooLarge, copySite, readSiteCopy, restoreSite } from '../store/site-copies';
import { scrubCopyFile } from '../store/scrub-copies';
import { marketplaceOf } from './marketplace.service';
import { DEFAULT_SITE_SNAPSHOT_QUOTA, type SiteSnapshotQuota } from './site-snapshot-quota';

export { DEFAULT_SITE_SNAPSHOT_QUOTA, type SiteSnapshotQuota } from './site-snapshot-quota';

export interface SiteSnapshotInfo {
  Name: string;
  /** The marketplace's time it was taken at (its own clock's, or the sandbox's). */
  Created: string;
  /** Whether it was taken on the marketplace's own clock (a restore gives it that clock back). */
  OwnClock: boolean;
  Payments: number;
}

const FILE = /^(.+)\.db$/;

export class SiteSnapshots {
  private root: string | null;
  private readonly temporary: boolean;
  private counter = 0;
  /** Each marketplace's save or restore under way: the next waits for it. */
  private readonly underway = new Map<number, Promise<unknown>>();

  constructor(
    private readonly services: ServiceContext,
    dbFile: string,
    readonly quota: SiteSnapshotQuota = DEFAULT_SITE_SNAPSHOT_QUOTA,
  ) {
    this.temporary = dbFile === ':memory:' || dbFile === '';
    this.root = this.temporary ? null : `${resolve(dbFile)}.merchant-snapshots`;
    // A removed marketplace's snapshots go with it.
    services.store.onSiteReplaced((site, why) => {
      if (why === 'remove') this.removeAll(site);
    });
    // A whole reset removes the marketplaces made at run time: their snapshots go with them.
    services.store.onDataReplaced((why) => {
      if (why !== 'reset' || this.root === null || !existsSync(this.root)) return;
      for (const entry of readdirSync(this.root)) {
        if (/^[0-9]+$/.test(entry) && !services.store.sites.get(Number(entry))) this.removeAll(Number(entry));
      }
    });
    this.scrubOld();
  }

  /** Snapshots saved before card data was masked by what it is lose it now, once (scrub-copies.ts). */
  private scrubOld(): void {
    if (this.root === null || !existsSync(this.root)) return;
    for (const entry of readdirSync(this.root)) {
      if (/^[0-9]+$/.test(entry)) for (const name of this.names(Number(entry))) scrubCopyFile(this.pathOf(Number(entry), name));
    }
  }

  /**
   * Copies the marketplace's data and clock under `name` (replacing a snapshot of that name). Over its
   * quota (count, or bytes with the copy) it is refused with 409 and nothing is kept.
   */
  async save(siteId: number, name: string): Promise<SiteSnapshotInfo> {
    marketplaceOf(this.services, siteId);
    checkSnapshotName(name, 'Name');
    return this.inTurn(siteId, () => this.saveNow(siteId, name));
  }

  private async saveNow(siteId: number, name: string): Promise<SiteSnapshotInfo> {
    const dir = this.dir(siteId, true)!;
    const others = this.names(siteId).filter((n) => n !== name);
    const { count, bytes } = this.quota;
    if (others.length >= count) {
      throw new HttpError(409, `SiteID ${siteId} is at its snapshot quota of ${count} snapshot${count === 1 ? '' : 's'}: delete one first`);
    }
    const held = others.reduce((sum, n) => sum + sizeOf(this.pathOf(siteId, n)), 0);
    const overBytes = (more: string) =>
      new HttpError(409, `Snapshot ${name} would pass SiteID ${siteId}'s snapshot quota of ${bytes} bytes (its other snapshots hold ${held}${more}): delete one first`);
    if (held >= bytes) throw overBytes('');
    const own = this.services.siteClocks?.get(siteId);
    const scratch = join(dir, `.${name}.${process.pid}.${++this.counter}.tmp`);
    try {
      await copySite(
        this.services.store,
        siteId,
        scratch,
        { ownMs: own ? own.now() : null, takenMs: (own ?? this.services.clock).now() },
        { maxBytes: bytes - held, pause: this.pause(siteId) },
      );
      renameSync(scratch, this.pathOf(siteId, name));
    } catch (e) {
      if (e instanceof SiteCopyTooLarge) throw overBytes(`, this one had reached ${e.bytes} when it was stopped`);
      if (e instanceof HttpError) throw e;
      throw new HttpError(503, `Snapshot ${name} could not be written: ${(e as Error).message}`);
    } finally {
      removeScratch(scratch);
    }
    return this.info(siteId, name);
  }

  /** What is awaited between two steps of a copy of `siteId`. */
  private pause(siteId: number): () => Promise<void> {
    return () => this.services.betweenSteps?.(siteId) ?? new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Runs `work` once the marketplace's save or restore under way (if any) has ended. */
  private inTurn<T>(siteId: number, work: () => Promise<T>): Promise<T> {
    const before = this.underway.get(siteId) ?? Promise.resolve();
    const mine = before.then(work, work);
    const settled = mine.then(
      () => {},
      () => {},
    );
    this.underway.set(siteId, settled);
    void settled.then(() => {
      if (this.underway.get(siteId) === settled) this.underway.delete(siteId);
    });
    return mine;
  }

  /** Settles once every save and restore under way has ended (before the store closes). */
  idle(): Promise<void> {
    return Promise.all([...this.underway.values()]).then(() => {});
  }

  /** How many snapshots and bytes the marketplaces hold together, for health. */
  usage(): { count: number; bytes: number } {
    let count = 0;
    let bytes = 0;
    if (this.root === null || !existsSync(this.root)) return { count, bytes };
    for (const entry of readdirSync(this.root)) {
      if (!/^[0-9]+$/.test(entry)) continue;
      for (const name of this.names(Number(entry))) {
        count++;
        bytes += sizeOf(this.pathOf(Number(entry), name));
      }
    }
    return { count, bytes };
  }

  list(siteId: number): SiteSnapshotInfo[] {
    marketplaceOf(this.services, siteId);
    const out: SiteSnapshotInfo[] = [];
    for (const name of this.names(siteId)) {
      try {
        out.push(this.info(siteId, name));
      } catch {
        // Not a copy this sandbox can read: not a snapshot.
      }
    }
    return out.sort((a, b) => a.Created.localeCompare(b.Created) || a.Name.localeCompare(b.Name));
  }

  /**
   * Brings back the marketplace's payments, splits, refunds, history, steps, notifications and fault
   * rules as they were, and its clock; IDs never go back. A copy that is not this marketplace's, or
   * whose rows do not fit, is refused with 400 naming the table and row, and nothing changes.
   */
  async restore(siteId: number, name: string): Promise<SiteSnapshotInfo> {
    marketplaceOf(this.services, siteId);
    this.fileOf(siteId, name);
    return this.inTurn(siteId, () => this.restoreNow(siteId, name));
  }

  private async restoreNow(siteId: number, name: string): Promise<SiteSnapshotInfo> {
    const file = this.fileOf(siteId, name);
    const s = this.services;
    let info: SiteSnapshotInfo;
    try {
      info = this.info(siteId, name);
      const copy = readSiteCopy(file);
      // Told as soon as its data is back (its journal's entries follow in steps): what memory holds of it is read again.
      const replaced = () => {
        s.store.siteReplaced(siteId, 'restore');
        // What the copy left due goes out at the marketplace's time.
        if (s.siteClocks?.get(siteId)) s.wakeSite?.(siteId);
        else s.wake?.();
      };
      await restoreSite(s.store, siteId, file, () => s.siteClocks?.restore(siteId, copy.ownClockMs), { pause: this.pause(siteId), replaced });
    } catch (e) {
      if (e instanceof SiteCopyRefused) throw new HttpError(400, `Snapshot ${name} cannot be restored: ${e.message}`);
      throw e;
    }
    return info;
  }

  remove(siteId: number, name: string): void {
    marketplaceOf(this.services, siteId);
    rmSync(this.fileOf(siteId, name));
  }

  /** Removes the temporary folder of an in-memory sandbox's snapshots. */
  close(): void {
    if (this.temporary && this.root) rmSync(this.root, { recursive: true, force: true });
    if (this.temporary) this.root = null;
  }

  private removeAll(siteId: number): void {
    const dir = this.dir(siteId, false);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }

  private fileOf(siteId: number, name: string): string {
    checkSnapshotName(name, 'name');
    const file = this.pathOf(siteId, name);
    if (!this.dir(siteId, false) || !existsSync(file)) throw new HttpError(404, `Snapshot ${name} not found.`);
    return file;
  }

  private names(siteId: number): string[] {
    const dir = this.dir(siteId, false);
    if (!dir) return [];
    return readdirSync(dir)
      .map((f) => FILE.exec(f)?.[1])
      .filter((n): n is string => n !== undefined && !n.startsWith('.'));
  }

  private info(siteId: number, name: string): SiteSnapshotInfo {
    const copy = readSiteCopy(this.pathOf(siteId, name));
    return { Name: name, Created: formatTimestamp(copy.takenMs), OwnClock: copy.ownClockMs !== null, Payments: copy.payments };
  }

  private pathOf(siteId: number, name: string): string {
    return join(this.root ?? '', String(siteId), `${name}.db`);
  }

  private dir(siteId: number, create: boolean): string | null {
    if (create) {
      if (this.root === null) this.root = mkdtempSync(join(tmpdir(), 'split-sandbox-merchant-snapshots-'));
      mkdirSync(join(this.root, String(siteId)), { recursive: true });
    }
    if (this.root === null) return null;
    const dir = join(this.root, String(siteId));
    return existsSync(dir) ? dir : null;
  }
}

function sizeOf(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}
