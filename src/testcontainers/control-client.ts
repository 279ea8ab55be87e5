// The calls a test makes on a sandbox it reaches over HTTP (a container): the clock, the notification
// journal, merchants, reset — typed as the embedded `startSandbox()` API has them.
import type { NotificationPage, NotificationQuery, NotificationView, WaitForOptions } from '../main';
import type { NotificationState } from '../store/notifications.repo';
import type { JournalPaging } from '../services/journal.service';
import type { MerchantView } from '../services/merchants.service';

export type { MerchantView, NotificationPage, NotificationQuery, NotificationView, WaitForOptions };

/** `GET /_sandbox/clock`. */
export interface ClockView {
  Mode: 'manual' | 'real';
  /** Sandbox time, `yyyyMMddHHmmss` (UTC). */
  Now: string;
  /** Sandbox time, epoch ms. */
  NowMs: number;
  /** How many times as fast as real time sandbox time runs; null for a manual clock. */
  Speed: number | null;
}

/** `POST /_sandbox/merchants`: everything optional. */
export interface NewMerchant {
  Name?: string;
  /** How many split sites to link (3). */
  LinkedSites?: number;
  NotificationURL?: string | null;
  DefaultScenario?: string | null;
  /** Status IDs the merchant is notified of; null for all. */
  NotifyStatuses?: number[] | null;
  /** Method IDs assigned to the merchant; null for every method. */
  Methods?: number[] | null;
}

export type NotificationListQuery = NotificationQuery & { State?: NotificationState } & JournalPaging;

/** A control API call that did not succeed: its status and the sandbox's message. */
export class SandboxCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxCallError';
  }
}

function query(q: object): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

export class SandboxControl {
  constructor(
    readonly baseUrl: string,
    private readonly controlToken?: string,
  ) {}

  readonly clock = {
    /** `GET /_sandbox/clock`. */
    now: (): Promise<ClockView> => this.call('GET', '/_sandbox/clock'),
    /** Manual clock only: moves time, running every step due on the way and delivering its notifications first. */
    advance: (seconds: number): Promise<ClockView> => this.call('POST', '/_sandbox/clock/advance', { Seconds: seconds }),
  };

  readonly notifications = {
    /**
     * The first notification matching `filter` that reached its final state (`{ delivered: true }`:
     * that was delivered); rejects after `timeoutMs` (10 s) saying what there is instead.
     */
    waitFor: async (filter: NotificationQuery, options: number | WaitForOptions = {}): Promise<NotificationView> => {
      const { timeoutMs = 10_000, delivered = false } = typeof options === 'number' ? { timeoutMs: options } : options;
      const q = query({ ...filter, TimeoutMs: timeoutMs, Delivered: delivered ? 'true' : undefined });
      const answer = await this.call<{ Notification: NotificationView }>('GET', `/_sandbox/notifications/wait${q}`, undefined, timeoutMs + 10_000);
      return answer.Notification;
    },
    /** The journal, a page at a time, newest first unless `SortDirection: 'asc'`. */
    list: (q: NotificationListQuery = {}): Promise<NotificationPage> => this.call('GET', `/_sandbox/notifications${query(q)}`),
  };

  readonly merchants = {
    /** Every marketplace, with its credentials and linked split sites. */
    list: async (): Promise<MerchantView[]> => (await this.call<{ Merchants: MerchantView[] }>('GET', '/_sandbox/merchants')).Merchants,
    /** A new marketplace with generated credentials and its linked sites. */
    create: async (input: NewMerchant = {}): Promise<MerchantView> =>
      (await this.call<{ Merchant: MerchantView }>('POST', '/_sandbox/merchants', input)).Merchant,
    /** Changes a marketplace's notification URL, default scenario, notified statuses or methods. */
    update: async (siteId: number, patch: Omit<NewMerchant, 'Name' | 'LinkedSites'>): Promise<MerchantView> =>
      (await this.call<{ Merchant: MerchantView }>('PATCH', `/_sandbox/merchants/${siteId}`, patch)).Merchant,
  };

  /** Empties all data (fault rules too) and loads the fixtures again; the configuration stays. */
  async reset(): Promise<void> {
    await this.call('POST', '/_sandbox/reset');
  }

  /** Any control call; its body, or a SandboxCallError with the sandbox's message. */
  async call<T>(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.controlToken !== undefined) headers.Authorization = `Bearer ${this.controlToken}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the message.
    }
    if (res.ok) return parsed as T;
    const message = (parsed as { Message?: unknown } | null)?.Message;
    throw new SandboxCallError(res.status, `${method} ${path} answered ${res.status}: ${typeof message === 'string' ? message : text.slice(0, 200)}`);
  }
}
