// A notification receiver that misbehaves costs the sandbox nothing: it records the attempt, retries
// on schedule, keeps answering the API and holds no large buffers.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

/** A receiver answering every notification with `answer`. */
async function hostile(answer: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('a hostile notification receiver', () => {
  let sb: Sandbox;
  afterEach(async () => sb?.stop());

  async function notifyOnce(url: string, timeoutMs = 300) {
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, notifyUrl: url, notifyTimeoutMs: timeoutMs });
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody())).body.Payment;
    await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'authorize' }).expect(200);
    await sb.scheduler.worker.deliverDue();
    return sb.notifications.list({ PaymentID: p.ID }).Notifications[0]!;
  }

  it('a 100 MB answer is not downloaded: the attempt fails (not 204) and the connection is dropped', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let sent = 0;
    let closedEarly: Promise<number> = Promise.resolve(-1);
    const rx = await hostile((res) => {
      res.writeHead(200, { 'Content-Length': String(100 * chunk.length) });
      closedEarly = new Promise((resolve) => res.once('close', () => resolve(sent)));
      const more = () => {
        while (sent < 100) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    try {
      // A timeout far above the answer's first bytes: the attempt must end on the status line, not on the clock (a busy machine).
      const n = await notifyOnce(rx.url, 10_000);
      expect(n.Attempts[0]).toMatchObject({ HTTPStatus: 200, Error: 'expected 204, got 200' });
      expect(n.State).toBe('pending');
      // The sandbox hung up after the status line: far less than the 100 MB went out.
      expect(await closedEarly).toBeLessThan(100);
    } finally {
      await rx.close();
    }
  });

  it('a redirect is not followed: 302 is a failed attempt', async () => {
    const rx = await hostile((res) => {
      res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    try {
      expect((await notifyOnce(rx.url, 10_000)).Attempts[0]).toMatchObject({ HTTPStatus: 302, Error: 'expected 204, got 302' });
    } finally {
      await rx.close();
    }
  });

  it('a receiver that never answers does not hold up the API', async () => {
    const rx = await hostile(() => {
      /* never answers */
    });
    try {
      sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true, notifyUrl: rx.url, notifyTimeoutMs: 60_000 });
      const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody())).body.Payment;
      await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'authorize' }).expect(200);
      // The notification is on the wire, unanswered; the API goes on answering.
      for (let i = 0; i < 20; i++) await request(sb.baseUrl).get(`/v1/payments/${p.ID}`).set('Authorization', auth).expect(200);
      await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(paymentBody()).expect(201);
      const n = sb.notifications.list({ PaymentID: p.ID }).Notifications[0]!;
      expect(n.State).toBe('pending');
      expect(n.Attempts).toEqual([]);
    } finally {
      await sb.stop(); // aborts the hanging attempt
      await rx.close();
    }
  });
});
