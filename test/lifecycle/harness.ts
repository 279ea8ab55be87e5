// Shared plumbing of the lifecycle tests: a real sandbox (manual clock) with a real notification
// receiver, and small helpers over its API and control API. Not a test file itself.
import request from 'supertest';
import type { Config } from '../../src/config';
import { type Sandbox, startSandbox } from '../../src/main';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';

export const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

/** Fast, deterministic retries unless a test says otherwise. */
export const RETRY = { baseMs: 1000, capMs: 8000, maxAttempts: 4 };

export interface Rig {
  sb: Sandbox;
  rx: Receiver;
}

/** Starts a receiver and a sandbox that notifies it; `config` overrides the defaults. */
export async function boot(config: Partial<Config> = {}, rx?: Receiver): Promise<Rig> {
  const receiver = rx ?? (await startReceiver());
  try {
    const sb = await startSandbox({
      port: 0,
      cardPort: 0,
      db: ':memory:',
      clock: 'manual',
      startTime: START,
      quiet: true,
      notifyUrl: receiver.url,
      // Long enough that a busy machine never turns a slow in-process receiver into a timeout and a
      // duplicate delivery; tests of a hanging receiver set their own.
      notifyTimeoutMs: 5000,
      retry: RETRY,
      ...config,
    });
    return { sb, rx: receiver };
  } catch (e) {
    await receiver.close();
    throw e;
  }
}

export async function shutdown(rig: Partial<Rig> | undefined): Promise<void> {
  await rig?.sb?.stop();
  await rig?.rx?.close();
}

/** Creates a payment (201 expected) and returns the wire Payment. */
export async function createPayment(
  sb: Sandbox,
  opts: { scenario?: string; overrides?: Record<string, unknown> } = {},
): Promise<any> {
  let req = request(sb.baseUrl).post('/v1/payments').set('Authorization', AUTH);
  if (opts.scenario !== undefined) req = req.set('X-Sandbox-Scenario', opts.scenario);
  const res = await req.send(paymentBody(opts.overrides ?? {}));
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment;
}

/** Moves the manual clock; every step, expiry and delivery due on the way is done when it answers. */
export async function advance(sb: Sandbox, seconds: number): Promise<any> {
  const res = await request(sb.baseUrl).post('/_sandbox/clock/advance').send({ Seconds: seconds });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** GET /v1/payments/{id} as the merchant sees it. */
export async function getPayment(sb: Sandbox, id: number): Promise<any> {
  const res = await request(sb.baseUrl).get(`/v1/payments/${id}`).set('Authorization', AUTH);
  if (res.status !== 200) throw new Error(`get failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment;
}

/** GET /_sandbox/payments/{id}: Payment, Scenario, Refunds, History, Steps. */
export async function story(sb: Sandbox, id: number): Promise<any> {
  const res = await request(sb.baseUrl).get(`/_sandbox/payments/${id}`);
  if (res.status !== 200) throw new Error(`story failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The notification journal of one payment, oldest first. */
export async function journal(sb: Sandbox, paymentId: number): Promise<any[]> {
  const res = await request(sb.baseUrl).get(`/_sandbox/notifications?PaymentID=${paymentId}&SortDirection=asc`);
  if (res.status !== 200) throw new Error(`journal failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Notifications;
}

/** A short label per received notification: P9 = Payment in status 9, R2 = Refund in status 2. */
export function label(body: any): string {
  if (body?.Payment) return `P${body.Payment.Status.ID}`;
  if (body?.Refund) return `R${body.Refund.Status.ID}`;
  return '?';
}

export function labels(rx: Receiver): string[] {
  return rx.received.map((r) => label(r.body));
}

/** Sandbox timestamp (yyyyMMddHHmmss) of START + ms. */
export function stamp(ms: number): string {
  const d = new Date(START + ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}
