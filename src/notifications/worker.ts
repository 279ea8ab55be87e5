// Delivers due notifications: POST to the merchant's URL, 204 expected, every attempt journaled,
// failures retried with backoff. Per payment strictly in order (unless a fault holds one back: the
// ones after it then go first); different payments in parallel.
import { EventEmitter } from 'node:events';
import { shapeNotification } from '../faults/notifications';
import type { Logger } from '../log';
import type { Clock } from '../scheduler/clock';
import type { ServiceContext } from '../services/context';
import { type DueHead, type NotificationRecord, queueOf } from '../store/notifications.repo';
import { type RetryPolicy, retryDelay } from './backoff';
import { notificationUrl } from './outbox';
import { postJson } from './post';

export interface WorkerOptions {
  timeoutMs: number;
  retry: RetryPolicy;
  defaultUrl?: string | undefined;
  log: Logger;
}

/** How many notifications are sent at once, across payments: as many as the kept-alive connections
 * (post.ts), so that receivers stalling on some payments leave room for the others. */
const PARALLEL = 64;
/** How long a payment waits after an attempt that failed unexpectedly (not the receiver's doing). */
const UNEXPECTED_FAILURE_PAUSE_MS = 1000;
/** Heads read from the outbox at once. */
const HEAD_BATCH = 256;

export class NotificationWorker {
  /**
   * Emits 'delivered' with the NotificationRecord after each successful delivery, and 'journaled'
   * whenever a notification may have reached its final state (after every attempt; the outbox for
   * one journaled unsent), for those waiting for one.
   */
  readonly events = new EventEmitter();
  /** Called after every attempt (the real-time scheduler re-arms its timer for retries). */
  afterAttempt: () => void = () => {};
  /** Payments with a notification on the wire: one at a time per payment keeps their order. */
  private readonly inFlight = new Set<number>();
  private idleWaiters: (() => void)[] = [];
  private heads: DueHead[] = [];
  /** Marketplaces with their own clock that may have notifications due at their time. */
  private readonly dirtySites = new Set<number>();
  private stopped = false;
  /** Bumped by a reset: answers to attempts started before it are dropped, their rows are gone. */
  private epoch = 0;
  /** The attempts on the wire, with the site each notifies. */
  private readonly controllers = new Map<AbortController, number>();
  /** Attempts of a marketplace reset or restored meanwhile: their answers are dropped, their rows are gone or replaced. */
  private readonly forgotten = new WeakSet<AbortController>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly clock: Clock,
    private readonly opts: WorkerOptions,
  ) {
    this.events.setMaxListeners(0);
  }

  /** The payments with a notification on the wire; when its attempt ends, afterAttempt is called. */
  get onTheWire(): ReadonlySet<number> {
    return this.inFlight;
  }

  /**
   * Starts sending every notification due now, without waiting for them (a real-clock tick). Like
   * every read of the outbox, it waits for what is written so far to be committed: a notification
   * is never sent for a change that was not kept (a commit that fails on a full disk).
   */
  send(siteId?: number): void {
    if (siteId !== undefined) this.dirtySites.add(siteId);
    this.ctx.store.afterCommit(() => this.pump());
  }

  /**
   * Starts sending every notification due now, and resolves once nothing is on the wire any more:
   * what was due is delivered or rescheduled, and so are those it made due (the next of a payment
   * after its predecessor was delivered). A slow receiver holds up only its own payments.
   */
  deliverDue(siteId?: number): Promise<void> {
    if (siteId !== undefined) this.dirtySites.add(siteId);
    return new Promise((resolve) =>
      this.ctx.store.afterCommit(() => {
        this.pump();
        if (this.inFlight.size === 0) resolve();
        else this.idleWaiters.push(resolve);
      }),
    );
  }

  private pump(): void {
    // While a snapshot is restored nothing could record an attempt: what is due goes after it.
    if (this.stopped || this.ctx.store.writesHeld) return;
    for (let room = PARALLEL - this.inFlight.size; room > 0; room--) {
      const n = this.nextHead();
      if (!n) return;
      this.inFlight.add(queueOf(n));
      void this.attempt(n).then(
        () => {
          // Its payment's next notification runs on the same clock.
          if (n.clockSiteId != null) this.dirtySites.add(n.clockSiteId);
          this.settle(queueOf(n));
        },
        (e: Error) => {
          this.opts.log.error(`notification ${n.id} failed unexpectedly`, { error: e.stack });
          // Its attempt could not be recorded, so it is still due: sending it again at once would
          // spin (each failure starting the next) and starve the server. Its payment waits a while.
          setTimeout(() => this.settle(queueOf(n)), UNEXPECTED_FAILURE_PAUSE_MS);
        },
      );
    }
  }

  /** An attempt is over: its payment may send its next, and waiters for an idle worker are told. */
  private settle(queue: number): void {
    this.inFlight.delete(queue);
    // What the attempt made due (its payment's next notification) goes once the attempt is on disk,
    // and what a request of this turn wrote goes only once that is kept too.
    this.ctx.store.afterCommit(() => {
      this.pump();
      this.afterAttempt();
      if (this.inFlight.size === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
    });
  }

  /**
   * The next notification to send. Heads (the oldest pending notification of each payment) are
   * read in batches: one query per batch instead of one per delivery. A batch holds at most one
   * notification per payment, so sending from it keeps each payment's order.
   */
  private nextHead(): NotificationRecord | undefined {
    for (;;) {
      let h = this.heads.shift();
      if (!h) {
        this.heads = this.readHeads();
        h = this.heads.shift();
        if (!h) return undefined;
      }
      if (this.inFlight.has(h.queue)) continue;
      // Read whole only now; one changed since its batch was read (redelivered, reset) is left.
      const n = this.ctx.store.notifications.get(h.id);
      if (n?.state !== 'pending') continue;
      if (shapeNotification(this.ctx.forSite?.(n.siteId) ?? this.ctx, n, this.opts.log)) return n;
      // Dropped (a final state) or held back: those waiting for a final notification look again.
      this.events.emit('journaled');
    }
  }

  /** Due heads not on the wire: the sandbox clock's, then those of marketplaces' own clocks that may have some. */
  private readHeads(): DueHead[] {
    const fresh = (heads: DueHead[]) => heads.filter((d) => !this.inFlight.has(d.queue));
    const heads = fresh(this.ctx.store.notifications.dueHeads(this.clock.now(), HEAD_BATCH));
    if (heads.length > 0) return heads;
    for (const site of this.dirtySites) {
      const clock = this.ctx.siteClocks?.get(site);
      const own = clock ? fresh(this.ctx.store.notifications.dueHeads(clock.now(), HEAD_BATCH, site)) : [];
      if (own.length > 0) return own;
      this.dirtySites.delete(site);
    }
    return [];
  }

  /** The clock a notification runs on: its marketplace's own, or the sandbox's. */
  private clockOf(n: NotificationRecord): Clock {
    return (n.clockSiteId != null && this.ctx.siteClocks?.get(n.clockSiteId)) || this.clock;
  }

  /** After a reset: attempts on the wire no longer belong to anything; their answers are dropped. */
  forget(): void {
    this.epoch++;
    this.heads = [];
    for (const c of this.controllers.keys()) c.abort(new Error('sandbox reset'));
  }

  /** After one marketplace's data was replaced: its attempts on the wire are dropped, nobody else's. */
  forgetSite(siteId: number): void {
    this.heads = [];
    for (const [c, site] of this.controllers) {
      if (site !== siteId) continue;
      this.forgotten.add(c);
      c.abort(new Error('marketplace reset'));
    }
  }

  private async attempt(n: NotificationRecord): Promise<void> {
    const epoch = this.epoch;
    const site = this.ctx.store.sites.get(n.siteId);
    const url = notificationUrl(this.ctx, n.siteId, this.opts.defaultUrl);
    const clock = this.clockOf(n);
    const at = clock.now();
    const started = performance.now();
    let httpStatus: number | null = null;
    let error: string | null = null;
    // A URL kept from an older database or a snapshot may still name the sandbox itself: never sent.
    const own = url === null ? null : (this.ctx.ownListener?.(url) ?? null);
    let ownAddress = false;
    if (url === null || !site?.apiKey) {
      error = 'no notification URL';
    } else if (own !== null) {
      error = own;
    } else {
      const controller = new AbortController();
      this.controllers.set(controller, n.siteId);
      const result = await postJson(
        url,
        n.body,
        {
          'Content-Type': 'application/json; charset=utf-8',
          // Fidelity: signed with the marketplace's own credentials; the merchant recomputes it to verify.
          Authorization: 'Basic ' + Buffer.from(`${site.siteId}:${site.apiKey}`, 'utf8').toString('base64'),
        },
        this.opts.timeoutMs,
        controller.signal,
        this.ctx.ownAddress,
      );
      this.controllers.delete(controller);
      if (this.forgotten.has(controller)) return;
      httpStatus = result.status;
      error = result.error;
      // Its name resolved to the sandbox itself: never sent, and never tried again.
      if (result.own) ownAddress = true;
    }
    const durationMs = Math.round(performance.now() - started);
    if (this.stopped && error !== null) return; // shutting down: the attempt did not really happen
    if (epoch !== this.epoch) return;
    const ok = httpStatus === 204;
    if (!ok && error === null) error = `expected 204, got ${httpStatus}`;
    const store = this.ctx.store;
    store.tx(() => {
      store.notifications.recordAttempt({ notificationId: n.id, at, url: url ?? '', httpStatus, error: ok ? null : error, durationMs });
      if (ok) store.notifications.markDelivered(n, clock.now());
      else {
        const failures = n.attempts + 1;
        const givenUp = own !== null || ownAddress || failures >= this.opts.retry.maxAttempts;
        store.notifications.markFailedAttempt(n, clock.now() + retryDelay(this.opts.retry, failures), givenUp);
      }
    });
    this.opts.log.info(`notify ${ok ? 'delivered' : 'failed'}`, {
      notification: n.id,
      payment: n.paymentId ?? undefined,
      preapproval: n.preapprovalId ?? undefined,
      refund: n.refundId ?? undefined,
      status: n.statusId,
      url: url ?? '(none)',
      answer: ok ? 204 : (error ?? undefined),
      ms: durationMs,
      attempt: n.attempts + 1,
    });
    // The record is read again only for a listener (waits listen for 'journaled').
    if (ok && this.events.listenerCount('delivered') > 0) this.events.emit('delivered', store.notifications.get(n.id)!);
    this.events.emit('journaled');
  }

  /** Stops sending: in-flight requests are aborted and stay pending, to be sent after a restart. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.controllers.keys()) c.abort(new Error('sandbox stopping'));
    if (this.inFlight.size > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }
}
