// Answers of reads (list pages, a payment), kept as JSON text until anything but the request journal is written:
// a list or a payment read again (a dashboard, a test polling, a client paging back) costs a lookup instead of
// a query, the rows and their JSON.
import type { Store } from '../store/store';

const MAX_ENTRIES = 200;
/**
 * What all kept answers may hold together, in UTF-16 code units (JSON text, so mostly one byte each
 * once written): a page of 1,000 payments is some 3 MB, and 200 of them would have held 600 MB.
 * An answer larger than this alone is not kept.
 */
export const MAX_KEPT_CHARS = 4 * 1024 * 1024;

export class PageCache {
  private stamp = '';
  private readonly pages = new Map<string, string>();
  private chars = 0;

  constructor(private readonly store: Store) {}

  /** The answer kept for `key`, or the one `render` makes now (kept until the next write). */
  get(key: string, render: () => unknown): string {
    const stamp = this.store.dataStamp();
    if (stamp !== this.stamp) {
      this.forget();
      this.stamp = stamp;
    }
    let text = this.pages.get(key);
    if (text === undefined) {
      text = JSON.stringify(render());
      // render() may have written (a lazy expiry, say): then the answer is not kept.
      if (this.store.dataStamp() !== stamp || text.length > MAX_KEPT_CHARS) return text;
      if (this.pages.size >= MAX_ENTRIES || this.chars + text.length > MAX_KEPT_CHARS) this.forget();
      this.pages.set(key, text);
      this.chars += text.length;
    }
    return text;
  }

  private forget(): void {
    this.pages.clear();
    this.chars = 0;
  }
}
