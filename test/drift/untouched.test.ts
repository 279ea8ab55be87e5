// What the integration gets through the proxy is the upstream's answer byte for byte, and no key,
// security code or card number reaches the report, the log, the shadow's journal, the file or a story.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { createLogger } from '../../src/log';
import { MARKETPLACE, paymentBody } from '../helpers/world';
import { AUTH, type Rig, startRig, transforming } from './rig';

interface Raw {
  status: number;
  message: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One exchange as bytes: no client library between the answer and the test. */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method, headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, message: res.statusMessage!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** End-to-end headers that do not move with the clock or the connection. */
function steady(h: IncomingHttpHeaders) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = h;
  return rest;
}

const CARD_NUMBER = '4548812049400004';
const SECURITY_CODE = '312';

describe('drift proxy: the answer untouched, the secrets kept', () => {
  let rig: Rig;
  let folder: string;
  let testProxy: Server | undefined;
  const lines: string[] = [];
  afterEach(async () => {
    await rig.close();
    await new Promise((resolve) => (testProxy ? testProxy.close(resolve) : resolve(undefined)));
    testProxy = undefined;
    rmSync(folder, { recursive: true, force: true });
    lines.length = 0;
  });

  it('gives the integration the upstream’s status, headers and body bytes, for answers and refusals alike', async () => {
    folder = mkdtempSync(join(tmpdir(), 'drift-'));
    rig = await startRig();
    const made = await raw(rig.drift.apiUrl, 'POST', '/v1/payments', { Authorization: AUTH }, JSON.stringify(paymentBody({ MerchantTransactionID: 'bytes-1' })));
    expect(made.status).toBe(201);
    const id = JSON.parse(made.body.toString()).Payment.ID as number;
    for (const [path, headers] of [
      [`/v1/payments/${id}`, { Authorization: AUTH }],
      ['/v1/payments/987654', { Authorization: AUTH }],
      [`/v1/payments/${id}`, { Authorization: 'Basic MzAyMDE6d3Jvbmc=' }],
      ['/v1/payments?PageSize=1', { Authorization: AUTH }],
    ] as const) {
      const direct = await raw(rig.upstream.baseUrl, 'GET', path, headers);
      const proxied = await raw(rig.drift.apiUrl, 'GET', path, headers);
      expect(proxied.status).toBe(direct.status);
      expect(proxied.message).toBe(direct.message);
      expect(steady(proxied.headers)).toEqual(steady(direct.headers));
      expect(proxied.body.equals(direct.body)).toBe(true);
    }
    await rig.settle();
    expect(rig.drift.report.list()).toEqual([]);
  });

  it('keeps the API key, security codes and card numbers out of the report, the log, the journal, the file and a story', async () => {
    folder = mkdtempSync(join(tmpdir(), 'drift-'));
    const out = join(folder, 'drift.json');
    const log = createLogger('debug', 'json', (l) => lines.push(l));
    rig = await startRig({}, {
      out,
      log,
      // The planted upstream echoes the whole card back, and a split's amount as a number: differences whose values hold the card.
      viaCard: async (url) => {
        const t = await transforming(url, (method, path, body) => {
          if (method === 'POST' && path === '/v1/payments' && body.Payment) {
            body.Payment.Card = { ...body.Payment.Card, Number: CARD_NUMBER, SecurityCode: SECURITY_CODE, Note: `card ${CARD_NUMBER}` };
          }
          return body;
        });
        testProxy = t.server;
        return t.url;
      },
    });
    const card = { HolderName: 'John Doe', Number: CARD_NUMBER, ExpirationMonth: '02', ExpirationYear: '2030', SecurityCode: SECURITY_CODE };
    const made = await raw(rig.drift.cardUrl, 'POST', '/v1/payments', { Authorization: AUTH }, JSON.stringify({ Payment: { MerchantTransactionID: 'secret-1', Amount: 9000, Currency: 'EUR', ReturnURL: 'https://shop.example/r', Capture: false, Card: card } }));
    expect(made.status).toBe(201);
    const realId = JSON.parse(made.body.toString()).Payment.ID as number;
    await raw(rig.drift.apiUrl, 'POST', '/v1/payments', { Authorization: AUTH }, JSON.stringify(paymentBody({ Amount: 'abc' })));
    const split = await raw(rig.drift.apiUrl, 'POST', '/v1/payments', { Authorization: AUTH }, JSON.stringify(paymentBody({ MerchantTransactionID: 'story-1' })));
    const splitId = JSON.parse(split.body.toString()).Payment.ID as number;
    await raw(rig.drift.apiUrl, 'GET', '/v1/payments/1', { Authorization: 'Basic MzAyMDE6d3Jvbmc=' });
    await rig.settle();

    const report = (await (await fetch(`${rig.drift.apiUrl}/_sandbox/drift`)).json()) as { Differences: unknown[] };
    expect(report.Differences.length).toBeGreaterThan(0);
    const shadow = rig.drift.shadow.sandbox;
    expect(rig.drift.ids.shadowOf('payment', realId)).toBeDefined();
    const shadowId = Number(rig.drift.ids.shadowOf('payment', splitId));
    const places = {
      report: JSON.stringify(report),
      log: lines.join(''),
      journal: JSON.stringify(shadow.requests.find()),
      file: readFileSync(out, 'utf8'),
      story: JSON.stringify(shadow.stories.of(shadowId)),
      driftStory: JSON.stringify(rig.drift.storyOf(splitId)),
    };
    const basicValue = AUTH.replace(/^Basic /, '');
    for (const [where, text] of Object.entries(places)) {
      for (const secret of [CARD_NUMBER, MARKETPLACE.APIKey, basicValue, `"${SECURITY_CODE}"`]) {
        expect({ where, leaks: text.includes(secret) ? secret : null }).toEqual({ where, leaks: null });
      }
    }
    expect(places.log).toContain('drift: call');
    expect(rig.drift.storyOf(splitId)).toBeDefined();
    expect(JSON.parse(places.file).Differences).toEqual(report.Differences);
  });

  it('guards the report like the control API: the control token when there is one', async () => {
    folder = mkdtempSync(join(tmpdir(), 'drift-'));
    rig = await startRig({}, { controlToken: 'drift-token' });
    const without = await fetch(`${rig.drift.apiUrl}/_sandbox/drift`);
    expect(without.status).toBe(401);
    expect(await without.json()).toEqual({ Message: expect.stringContaining('Bearer') });
    const wrong = await fetch(`${rig.drift.apiUrl}/_sandbox/drift`, { headers: { Authorization: 'Bearer other' } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${rig.drift.apiUrl}/_sandbox/drift`, { headers: { Authorization: 'Bearer drift-token' } });
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ Differences: [] });
    expect((await fetch(`${rig.drift.apiUrl}/_sandbox/dashboard/drift`)).status).toBe(401);
    const page = await fetch(`${rig.drift.apiUrl}/_sandbox/dashboard/drift`, { headers: { Authorization: 'Bearer drift-token' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Drift');
    // Other control paths are not the shadow's to give away: the proxy answers only its own.
    expect((await fetch(`${rig.drift.apiUrl}/_sandbox/payments/1/events`, { method: 'POST', headers: { Authorization: 'Bearer drift-token' } })).status).toBe(404);
  });
});
