// The URLs an answer hands out reach the caller: built from the request's Host where no public URL is
// set (behind a port map, on a CI network's service name), the public URL where one is.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { type Config, type Sandbox, startSandbox } from 'split-sandbox';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { type Receiver, startReceiver } from '../helpers/receiver';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

interface Asked {
  status: number;
  text: string;
  body: any;
}

/** A request to `url` (where the sandbox listens) carrying `host` as its Host header, as a proxy or a port map delivers it. */
function ask(url: string, path: string, host: string, opts: { method?: string; body?: unknown; auth?: boolean } = {}): Promise<Asked> {
  const u = new URL(url);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: opts.method ?? 'GET',
        headers: {
          Host: host,
          ...(opts.auth ? { Authorization: auth } : {}),
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let body: unknown = null;
          try {
            body = JSON.parse(text);
          } catch {
            // HTML
          }
          resolve({ status: res.statusCode ?? 0, text, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** An HTTP/1.0 request without a Host header; the whole answer as text. */
function http10(url: string, path: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.end(`GET ${path} HTTP/1.0\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c) => (text += c));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('answer URLs without a public URL: from the Host the request came in on', () => {
  let sb: Sandbox;
  let api: string;
  let card: string;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 7, quiet: true, notifyUrl: receiver.url });
    api = sb.listening.baseUrl;
    card = sb.listening.cardBaseUrl;
  });
  afterAll(async () => {
    await sb.stop();
    await receiver.close();
  });

  test('another name for the same machine: both listeners keep their ports under that name', async () => {
    const host = `localhost:${portOf(api)}`;
    const health = await ask(api, '/_sandbox/health', host);
    expect(health.status).toBe(200);
    expect(health.body.BaseURL).toBe(`http://localhost:${portOf(api)}`);
    expect(health.body.CardBaseURL).toBe(`http://localhost:${portOf(card)}`);
    const created = await ask(api, '/v1/payments', host, { method: 'POST', body: paymentBody(), auth: true });
    expect(created.status).toBe(201);
    expect(created.body.Payment.RedirectURL).toMatch(new RegExp(`^http://localhost:${portOf(api)}/Home\\?PaymentToken=[0-9A-F]{32}\\.${created.body.Payment.ID}$`));
  });

  test('behind a port map: the address reached; the other listener, whose mapped port the sandbox cannot know, its own', async () => {
    const health = await ask(api, '/_sandbox/health', '127.0.0.1:32768');
    expect(health.body).toMatchObject({ BaseURL: 'http://127.0.0.1:32768', CardBaseURL: card });
    const onCard = await ask(card, '/_sandbox/health', 'sandbox.ci:40001');
    expect(onCard.body).toMatchObject({ BaseURL: api, CardBaseURL: 'http://sandbox.ci:40001' });
  });

  test("a card payment's RedirectURL names the card address it was created on", async () => {
    const created = await ask(card, '/v1/payments', 'sandbox.ci:40001', {
      method: 'POST',
      auth: true,
      body: { Payment: { MerchantTransactionID: 'card-host-1', Amount: '500', Currency: 'EUR', ReturnURL: 'https://shop.example/r' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.Payment.RedirectURL).toBe(
      `http://sandbox.ci:40001/v1/Payments/FillCardDetails?PaymentToken=${/PaymentToken=([^&]+)/.exec(created.body.Payment.RedirectURL)![1]}`,
    );
  });

  test('each caller gets its own address, a read and a kept list page alike; nothing of one caller reaches the next', async () => {
    const created = await ask(api, '/v1/payments', '10.0.0.5:9000', { method: 'POST', body: paymentBody(), auth: true });
    const id = created.body.Payment.ID;
    const token = /PaymentToken=(.+)$/.exec(created.body.Payment.RedirectURL)![1];
    expect(created.body.Payment.RedirectURL).toBe(`http://10.0.0.5:9000/Home?PaymentToken=${token}`);
    for (const host of ['a.test:1111', 'b.test:2222', 'a.test:1111']) {
      const read = await ask(api, `/v1/payments/${id}`, host, { auth: true });
      expect(read.body.Payment.RedirectURL).toBe(`http://${host}/Home?PaymentToken=${token}`);
      const list = await ask(api, '/v1/payments?pageSize=1', host, { auth: true });
      expect(list.body.Payments[0].RedirectURL).toBe(`http://${host}/Home?PaymentToken=${token}`);
    }
    const plain = await ask(api, `/v1/payments/${id}`, `127.0.0.1:${portOf(api)}`, { auth: true });
    expect(plain.body.Payment.RedirectURL).toBe(`${api}/Home?PaymentToken=${token}`);
  });

  test("a preapproval's RedirectURL names the address reached, as a payment's does: created, read, listed, and on the control API", async () => {
    const body = {
      Preapproval: { MerchantPreapprovalID: 'host-sub-1', Description: 'subscription', ReturnURL: 'https://shop.example/return', MethodID: 2 },
    };
    const created = await ask(api, '/v1/preapprovals', 'sandbox.ci:9000', { method: 'POST', body, auth: true });
    expect(created.status).toBe(201);
    const id = created.body.Preapproval.ID;
    const path = new URL(created.body.Preapproval.RedirectURL).pathname + new URL(created.body.Preapproval.RedirectURL).search;
    expect(created.body.Preapproval.RedirectURL).toBe(`http://sandbox.ci:9000${path}`);
    const read = await ask(api, `/v1/preapprovals/${id}`, 'a.test:1111', { auth: true });
    expect(read.body.Preapproval.RedirectURL).toBe(`http://a.test:1111${path}`);
    const list = await ask(api, '/v1/preapprovals', 'b.test:2222', { auth: true });
    expect(list.body.Preapprovals.find((p: { ID: number }) => p.ID === id).RedirectURL).toBe(`http://b.test:2222${path}`);
    const control = await ask(api, `/_sandbox/preapprovals/${id}`, 'c.test:3333');
    expect(control.body.Preapproval.RedirectURL).toBe(`http://c.test:3333${path}`);
    const plain = await ask(api, `/v1/preapprovals/${id}`, `127.0.0.1:${portOf(api)}`, { auth: true });
    expect(plain.body.Preapproval.RedirectURL).toBe(`${api}${path}`);
  });

  test('the RedirectURL handed out through a Host leads to the payment page, whose links stay on that address', async () => {
    const created = await ask(api, '/v1/payments', `localhost:${portOf(api)}`, { method: 'POST', body: paymentBody(), auth: true });
    const page = new URL(created.body.Payment.RedirectURL);
    const html = await ask(`http://127.0.0.1:${page.port}`, page.pathname + page.search, page.host);
    expect(html.status).toBe(200);
    expect(html.text).toContain('PaymentToken');
    // Every link and form of the page is relative: it works on whatever address the payer reached.
    expect(html.text).not.toMatch(/(href|action|src)="https?:/);
    const dashboard = await ask(api, '/dashboard/login', `localhost:${portOf(api)}`);
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).not.toMatch(/(href|action|src)="https?:/);
  });

  test('logos and the served document name the address reached', async () => {
    const methods = await ask(api, '/v1/methods', 'shop-ci:8080', { auth: true });
    expect(methods.body.Methods[0].LogoURL).toMatch(/^http:\/\/shop-ci:8080\/images\/methods\//);
    const doc = await ask(api, '/_sandbox/openapi.json', `localhost:${portOf(api)}`);
    expect(doc.body.servers).toEqual([{ url: `http://localhost:${portOf(api)}` }]);
    const cardDoc = await ask(card, '/_sandbox/openapi.json?surface=card', `localhost:${portOf(card)}`);
    expect(cardDoc.body.servers).toEqual([{ url: `http://localhost:${portOf(card)}` }]);
  });

  test('a Host that cannot stand in a URL, or none (HTTP/1.0), gives the sandbox its own addresses', async () => {
    for (const host of ['evil.example/phish?', 'user@evil.example', 'a b', '-x.example', '[::1', 'x'.repeat(300)]) {
      const health = await ask(api, '/_sandbox/health', host);
      expect({ host, status: health.status, BaseURL: health.body?.BaseURL }).toEqual({ host, status: 200, BaseURL: api });
    }
    const ipv6 = await ask(api, '/_sandbox/health', `[::1]:${portOf(api)}`);
    expect(ipv6.body).toMatchObject({ BaseURL: `http://[::1]:${portOf(api)}`, CardBaseURL: `http://[::1]:${portOf(card)}` });
    const bare = await http10(api, '/_sandbox/health');
    expect(JSON.parse(bare.slice(bare.indexOf('\r\n\r\n') + 4))).toMatchObject({ BaseURL: api, CardBaseURL: card });
  });

  test('notifications, sent later and to someone else, carry the sandbox’s own address, whatever Host the create came with', async () => {
    const created = await ask(api, '/v1/payments', 'elsewhere.test:7000', { method: 'POST', body: paymentBody(), auth: true });
    const id = created.body.Payment.ID;
    await ask(api, `/_sandbox/payments/${id}/events`, 'elsewhere.test:7000', { method: 'POST', body: { Event: 'authorize' } });
    const n = await sb.notifications.waitFor({ PaymentID: id, StatusID: 9 }, { delivered: true });
    const token = /PaymentToken=(.+)$/.exec(created.body.Payment.RedirectURL)![1];
    expect(n.Body).toMatchObject({ Payment: { ID: id, RedirectURL: `${api}/Home?PaymentToken=${token}` } });
    expect(receiver.received.find((r) => r.body.Payment?.ID === id)?.body.Payment.RedirectURL).toBe(`${api}/Home?PaymentToken=${token}`);
  });
});

describe('answer URLs with a public URL: it wins', () => {
  const start = (extra: Partial<Config>) => startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, seed: 7, quiet: true, ...extra });

  test('--public-url and --public-card-url: every answer names them, whatever the Host', async () => {
    const sb = await start({ publicUrl: 'https://sandbox.example', publicCardUrl: 'https://card.sandbox.example' });
    try {
      const health = await ask(sb.listening.baseUrl, '/_sandbox/health', 'localhost:1234');
      expect(health.body).toMatchObject({ BaseURL: 'https://sandbox.example', CardBaseURL: 'https://card.sandbox.example' });
      const created = await ask(sb.listening.baseUrl, '/v1/payments', 'localhost:1234', { method: 'POST', body: paymentBody(), auth: true });
      expect(created.body.Payment.RedirectURL).toMatch(/^https:\/\/sandbox\.example\/Home\?PaymentToken=/);
    } finally {
      await sb.stop();
    }
  });

  test('--public-url alone: the API named by it, the card address from the Host', async () => {
    const sb = await start({ publicUrl: 'https://sandbox.example' });
    try {
      const cardPort = portOf(sb.listening.cardBaseUrl);
      const onApi = await ask(sb.listening.baseUrl, '/_sandbox/health', 'localhost:1234');
      expect(onApi.body).toMatchObject({ BaseURL: 'https://sandbox.example', CardBaseURL: sb.listening.cardBaseUrl });
      const onCard = await ask(sb.listening.cardBaseUrl, '/_sandbox/health', `localhost:${cardPort}`);
      expect(onCard.body).toMatchObject({ BaseURL: 'https://sandbox.example', CardBaseURL: `http://localhost:${cardPort}` });
    } finally {
      await sb.stop();
    }
  });
});
