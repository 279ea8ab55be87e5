// A drift run against a "real service" that is a second sandbox: the upstream, the proxy in front of
// it, and the integration's notification receiver.
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import type { Config } from '../../src/config';
import { type Drift, type DriftOptions, startDrift } from '../../src/drift/proxy';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { MARKETPLACE, START, basic } from '../helpers/world';

export const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

export interface Rig {
  upstream: Sandbox;
  drift: Drift;
  integration: Receiver;
  /** A call of the integration through the proxy, with the marketplace's credentials. */
  api(method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object): request.Test;
  card(method: 'get' | 'post', path: string, body?: object): request.Test;
  /** The provider's events on the real service, through its control API. */
  event(paymentId: number, event: string): Promise<void>;
  /** Everything delivered and compared: the upstream's notifications, then the shadow's work. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `via`: where the proxy sends the API calls instead of the upstream itself (a test proxy that plants
 * a difference), given the upstream's address.
 */
export async function startRig(
  upstreamConfig: Partial<Config> = {},
  opts: Partial<DriftOptions> & { via?: (upstreamUrl: string) => Promise<string> } = {},
): Promise<Rig> {
  const upstream = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, ...upstreamConfig });
  const integration = await startReceiver();
  const { via, ...options } = opts;
  const upstreamUrl = via ? await via(upstream.baseUrl) : upstream.baseUrl;
  const drift = await startDrift({ upstream: upstreamUrl, upstreamCard: upstream.cardBaseUrl, notifyTo: integration.url, ...options });
  // The real account's notification URL is the proxy's hook.
  await request(upstream.baseUrl).patch(`/_sandbox/merchants/${MARKETPLACE.SiteID}`).send({ NotificationURL: `${drift.apiUrl}/_drift/notify` }).expect(200);
  const rig: Rig = {
    upstream,
    drift,
    integration,
    api: (method, path, body) => {
      const t = request(drift.apiUrl)[method](path).set('Authorization', AUTH);
      return body === undefined ? t : t.send(body);
    },
    card: (method, path, body) => {
      const t = request(drift.cardUrl)[method](path).set('Authorization', AUTH);
      return body === undefined ? t : t.send(body);
    },
    async event(id, event) {
      await request(upstream.baseUrl).post(`/_sandbox/payments/${id}/events`).send({ Event: event }).expect(200);
    },
    async settle() {
      await upstream.scheduler.worker.deliverDue();
      await drift.idle();
    },
    async close() {
      await drift.close();
      await upstream.stop();
      await integration.close();
    },
  };
  return rig;
}
