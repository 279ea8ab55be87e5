// --seed: the same requests give byte-identical responses, run after run.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { type Config, startSandbox } from 'split-sandbox';
import { MARKETPLACE, START, basic } from '../helpers/world';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

/** One fixed conversation with a fresh sandbox; returns every response as sent on the wire. */
async function conversation(seed: number, ports: [number, number], extra: Partial<Config> = {}): Promise<string[]> {
  const sb = await startSandbox({
    // The address is part of RedirectURL: both runs listen on the same ports, as two CI runs would.
    port: ports[0],
    cardPort: ports[1],
    db: ':memory:',
    clock: 'manual',
    startTime: START,
    seed,
    quiet: true,
    ...extra,
  });
  const out: string[] = [];
  const keep = (res: request.Response) => out.push(`${res.status} ${res.text}`);
  try {
    const api = request(sb.listening.baseUrl); // where it listens (the public address may resolve nowhere)
    const body = (mtid: string) => ({
      Payment: {
        MerchantTransactionID: mtid,
        Amount: 1000,
        Currency: 'EUR',
        MethodID: 42,
        ReturnURL: 'https://shop.example/r',
        Customer: { Email: 'a@b.example', FirstName: 'A', LastName: 'B' },
        Splits: [
          { SiteID: 30202, Amount: 600, MerchantTransactionID: `${mtid}-a` },
          { SiteID: 30203, Amount: 400, MerchantTransactionID: `${mtid}-b` },
        ],
      },
    });
    const created = await api.post('/v1/payments').set('Authorization', auth).set('X-Sandbox-Scenario', 'two-step').send(body('o-1'));
    keep(created);
    const id = created.body.Payment.ID as number;
    const split = created.body.Payment.Splits[0].ID as number;
    keep(await api.post('/v1/payments').set('Authorization', auth).send({ Payment: { Amount: '10.50' } }));
    keep(await api.post('/v1/payments').set('Authorization', auth).send(body('o-2')));
    keep(await api.post(`/v1/payments/${id}/capture`).set('Authorization', auth));
    keep(await api.post('/_sandbox/clock/advance').send({ Seconds: 2 }));
    keep(await api.post(`/v1/payments/${id}/splits/${split}/capture?amount=300`).set('Authorization', auth));
    keep(await api.post(`/v1/payments/${id}/splits/${split}/refunds`).set('Authorization', auth).send({ Refund: { Amount: 100 } }));
    keep(await api.post('/_sandbox/clock/advance').send({ Seconds: 5 }));
    keep(await api.get(`/v1/payments?pageSize=5`).set('Authorization', auth));
    keep(await api.get(`/_sandbox/payments/${id}`));
    keep(await request(sb.listening.cardBaseUrl).post('/v1/payments').set('Authorization', auth).send({
      Payment: { MerchantTransactionID: 'c-1', Amount: 2000, Currency: 'EUR', Card: { HolderName: 'A B', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030' } },
    }));
  } finally {
    await sb.stop();
  }
  return out;
}

/** Two ports free right now. */
async function freePorts(): Promise<[number, number]> {
  const one = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
  return [await one(), await one()];
}

describe('--seed', () => {
  it('makes two runs of the same requests byte-identical (tokens, IDs, InvalidRequestIDs, times)', async () => {
    const ports = await freePorts();
    const first = await conversation(42, ports);
    const second = await conversation(42, ports);
    expect(second).toEqual(first);
    expect(first[0]).toMatch(/"RedirectURL":"http:\/\/127\.0\.0\.1:\d+\/Home\?PaymentToken=[0-9A-F]{32}\.\d+"/);
    expect(first[1]).toMatch(/^400 .*"InvalidRequestID":"\d+"/);
  });

  it('makes two runs on free ports (port 0) byte-identical when --public-url names the address RedirectURL carries', async () => {
    const publicUrls = { publicUrl: 'http://sandbox.test', publicCardUrl: 'http://card.sandbox.test' };
    const first = await conversation(42, [0, 0], publicUrls);
    const second = await conversation(42, [0, 0], publicUrls);
    expect(second).toEqual(first);
    expect(first[0]).toMatch(/"RedirectURL":"http:\/\/sandbox\.test\/Home\?PaymentToken=[0-9A-F]{32}\.3005001"/);
  });

  it('gives another run with another seed other tokens', async () => {
    const ports = await freePorts();
    const a = await conversation(1, ports);
    const b = await conversation(2, ports);
    const token = (s: string) => /PaymentToken=([0-9A-F]{32})/.exec(s)![1];
    expect(token(b[0]!)).not.toBe(token(a[0]!));
  });
});
