// Answers of reads (list pages, a payment), kept as JSON until anything but the request journal is written:
// a list or a payment read again (a dashboard, a test polling, a client paging back) costs a lookup instead of
// a query, the rows and their JSON. Kept as its UTF-8 bytes: an answer given as text was encoded again
// for each request, after being joined to its headers in a copy of its own (some 15 KB of young
// garbage a list page, which made the collector run more often, and every entry of the request
// journal waiting to be written survive it).
import type { Store } from '../store/store';

const MAX_ENTRIES = 200;
/**
 * What all kept answers may hold together, in bytes: a page of 1,000 payments is some 3 MB, and 200
 * of them would have held 600 MB. An answer larger than this alone is not kept.
 */
export const MAX_KEPT_BYTES = 4 * 1024 * 1024;

export class PageCache {
  private stamp = '';
  private readonly pages = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly store: Store) {}

  /** The answer kept for `key`, or the one `render` makes now (kept until the next write), as UTF-8 JSON. */
  get(key: string, render: () => unknown): Buffer {
    const stamp = this.store.dataStamp();
    if (stamp !== this.stamp) {
      this.forget();
      this.stamp = stamp;
    }
    let json = this.pages.get(key);
    if (json === undefined) {
      json = Buffer.from(JSON.stringify(render()), 'utf8');
      // render() may have written (a lazy expiry, say): then the answer is not kept.
      if (this.store.dataStamp() !== stamp || json.length > MAX_KEPT_BYTES) return json;
      if (this.pages.size >= MAX_ENTRIES || this.bytes + json.length > MAX_KEPT_BYTES) this.forget();
      this.pages.set(key, json);
      this.bytes += json.length;
    }
    return json;
  }

  private forget(): void {
    this.pages.clear();
    this.bytes = 0;
  }
}
