// A drift run against a "real service" that is a second sandbox: the upstream, the proxy in front of
// it, and the integration's notification receiver.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  opts: Partial<DriftOptions> & { via?: (upstreamUrl: string) => Promise<string>; viaCard?: (upstreamCardUrl: string) => Promise<string> } = {},
): Promise<Rig> {
  const upstream = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, ...upstreamConfig });
  const integration = await startReceiver();
  const { via, viaCard, ...options } = opts;
  const upstreamUrl = via ? await via(upstream.baseUrl) : upstream.baseUrl;
  const upstreamCardUrl = viaCard ? await viaCard(upstream.cardBaseUrl) : upstream.cardBaseUrl;
  const drift = await startDrift({ upstream: upstreamUrl, upstreamCard: upstreamCardUrl, notifyTo: integration.url, ...options });
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

export type Transform = (method: string, path: string, body: any) => any;

/** A test proxy in front of the upstream that rewrites the JSON answers `transform` changes. */
export async function transforming(target: string, transform: Transform): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers = { ...req.headers };
      delete headers.host;
      const answer = await fetch(target + req.url, { method: req.method, headers: headers as Record<string, string>, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
      let text = await answer.text();
      if (text.startsWith('{')) text = JSON.stringify(transform(req.method!, req.url!.split('?')[0]!, JSON.parse(text)));
      res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

