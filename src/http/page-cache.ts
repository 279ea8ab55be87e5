// Answers of reads (list pages, a payment), kept as JSON text until anything but the request journal is written:
// a list or a payment read again (a dashboard, a test polling, a client paging back) costs a lookup instead of
// a query, the rows and their JSON.
import type { Store } from '../store/store';

const MAX_ENTRIES = 200;

export class PageCache {
  private stamp = '';
  private readonly pages = new Map<string, string>();

  constructor(private readonly store: Store) {}

  /** The answer kept for `key`, or the one `render` makes now (kept until the next write). */
  get(key: string, render: () => unknown): string {
    const stamp = this.store.dataStamp();
    if (stamp !== this.stamp) {
      this.pages.clear();
      this.stamp = stamp;
    }
    let text = this.pages.get(key);
    if (text === undefined) {
      text = JSON.stringify(render());
      // render() may have written (a lazy expiry, say): then the answer is not kept.
      if (this.store.dataStamp() !== stamp) return text;
      if (this.pages.size >= MAX_ENTRIES) this.pages.clear();
      this.pages.set(key, text);
    }
    return text;
  }
}
