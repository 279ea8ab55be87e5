// How many snapshots a marketplace may keep, and how many bytes: apart from the snapshots themselves, so
// that the configuration can name the default without loading the copying code.

/** A marketplace's snapshot quota: each is a file, and one marketplace must not fill the disk. */
export interface SiteSnapshotQuota {
  /** How many it may keep. */
  count: number;
  /** How many bytes its snapshot files may hold together. */
  bytes: number;
}

export const DEFAULT_SITE_SNAPSHOT_QUOTA: SiteSnapshotQuota = { count: 20, bytes: 256 * 1024 * 1024 };
