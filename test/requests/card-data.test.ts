// The request journal and the log lines never keep a card number or a security code: whatever the
// body's type and shape, whatever the key's spelling, on either address, and in the query string.
import request from 'supertest';
import { createApp } from '../../src/http/app';
import { createLogger } from '../../src/log';
import { BODY_CAP, type RequestEntry } from '../../src/requests/journal';
import { type World, makeWorld } from '../helpers/world';

const NUMBER = '4111111111111111';
const CODE = '7319';

async function journal(w: World): Promise<RequestEntry[]> {
  const res = await request(w.api).get('/_sandbox/requests?PageSize=1000&SortDirection=asc');
  expect(res.status).toBe(200);
  return res.body.Requests as RequestEntry[];
}

/** Every text column of every entry: none may hold the number or the code. */
function stored(w: World): string {
  w.services.requests!.flush();
  return JSON.stringify(w.store.db.prepare('SELECT query, request_body, CAST(response_body AS TEXT) AS response_body FROM journal.requests').all());
}

function expectNoCardData(w: World): void {
  const all = stored(w);
  expect(all).not.toContain(NUMBER);
  expect(all).not.toContain(CODE);
}

const card = { HolderName: 'Ada Lovelace', ExpirationMonth: '12', ExpirationYear: '2030' };

function cardPayment(cardText: string): string {
  return `{"Payment":{"MerchantTransactionID":"order-1","Amount":2000,"Currency":"EUR","ReturnURL":"https://shop.example/r","Customer":{"Email":"payer@example.com"},"BillingAddress":{"Country":"NL"},"Card":${cardText}}}`;
}

describe('the journal keeps no card data', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const post = (app: 'api' | 'card', path: string, body: string, type = 'application/json') =>
    request(w[app]).post(path).set('Authorization', w.auth).set('Content-Type', type).send(body);

  it('masks an accepted card payment whose keys are JSON-escaped ("Num\\u0062er", "Security\\u0043ode")', async () => {
    const res = await post('card', '/v1/payments', cardPayment(`{"HolderName":"Ada Lovelace","Num\\u0062er":"${NUMBER}","ExpirationMonth":"12","ExpirationYear":"2030","Security\\u0043ode":"${CODE}"}`));
    expect(res.status).toBe(201);
    const [entry] = await journal(w);
    expect(JSON.parse(entry!.Request.Body!).Payment.Card).toEqual({ ...card, Number: 'VISA-1111', SecurityCode: '***' });
    expectNoCardData(w);
  });

  it('masks a card sent to the API address (a payout, a card authentication), kept as a near miss', async () => {
    const payout = await post('api', '/v1/payouts', JSON.stringify({ Payout: { MerchantTransactionID: 'po-1', Amount: 500, Currency: 'EUR', Card: { ...card, Number: NUMBER, SecurityCode: CODE } } }));
    const auth = await post('api', '/v1/card/authenticate', JSON.stringify({ CardAuthentication: { Card: { ...card, Number: NUMBER, SecurityCode: CODE } } }));
    expect([payout.status, auth.status]).toEqual([404, 404]);
    const entries = await journal(w);
    expect(entries.map((e) => e.NearMiss)).toEqual([expect.stringContaining('card address'), expect.stringContaining('card address')]);
    expect(JSON.parse(entries[0]!.Request.Body!).Payout.Card).toMatchObject({ Number: 'VISA-1111', SecurityCode: '***' });
    expectNoCardData(w);
  });

  it('masks malformed JSON', async () => {
    const res = await post('card', '/v1/payments', `{"Payment":{"Card":{"Number":"${NUMBER}","SecurityCode":"${CODE}",`);
    expect(res.status).toBe(400);
    const [entry] = await journal(w);
    expect(entry!.Request.Body).toBe('{"Payment":{"Card":{"Number":"VISA-1111","SecurityCode":"***",');
    expectNoCardData(w);
  });

  it('masks a top-level array', async () => {
    const res = await post('card', '/v1/payments', JSON.stringify([{ Payment: { Card: { ...card, Number: NUMBER, SecurityCode: CODE } } }]));
    expect(res.status).toBe(400);
    expectNoCardData(w);
  });

  it('masks a form-encoded body, percent-encoded keys included', async () => {
    const res = await post('card', '/v1/payments', `Card%5BNumber%5D=${NUMBER}&Card%5BSecurityCode%5D=${CODE}&cvv=${CODE}`, 'application/x-www-form-urlencoded');
    expect(res.status).toBe(400);
    const [entry] = await journal(w);
    expect(entry!.Request.Body).toBe('Card%5BNumber%5D=VISA-1111&Card%5BSecurityCode%5D=***&cvv=***');
    expectNoCardData(w);
  });

  it('masks a number sent as a JSON number', async () => {
    const res = await post('card', '/v1/payments', cardPayment(`{"HolderName":"Ada Lovelace","Number":${NUMBER},"ExpirationMonth":"12","ExpirationYear":"2030","SecurityCode":${CODE}}`));
    expect(res.status).toBe(400);
    const [entry] = await journal(w);
    expect(JSON.parse(entry!.Request.Body!).Payment.Card).toMatchObject({ Number: 'VISA-1111', SecurityCode: '***' });
    expectNoCardData(w);
  });

  it('masks a number in the query string, and in an answer that echoes it', async () => {
    await request(w.api).get(`/v1/payments?Number=${NUMBER}&cvv=${CODE}`).set('Authorization', w.auth);
    const missing = await request(w.api).get(`/v1/nowhere?pan=${NUMBER}`).set('Authorization', w.auth);
    expect(missing.status).toBe(404);
    const entries = await journal(w);
    expect(entries.map((e) => e.Query)).toEqual(['Number=VISA-1111&cvv=***', 'pan=VISA-1111']);
    expect(entries[1]!.Response.Body).toContain('/v1/nowhere?pan=VISA-1111');
    expectNoCardData(w);
  });

  it('masks a number the cap cuts in two, in a body of 900 kB, and says the size as sent', async () => {
    const body = JSON.stringify({ Note: `${'x'.repeat(BODY_CAP - 18)} ${NUMBER} ${'y'.repeat(900 * 1000)}` });
    await post('card', '/v1/payments', body);
    const [entry] = await journal(w);
    expect(entry!.Request).toMatchObject({ Bytes: Buffer.byteLength(body), CappedAt: BODY_CAP });
    expect(entry!.Request.Body!.endsWith(' VISA-111')).toBe(true);
    expect(stored(w)).not.toContain('41111111');
  });

  it('keeps a time and IDs that pass the Luhn check, and the rest of an accepted body byte for byte', async () => {
    // 20261127014102 passes the Luhn check, as one 14-digit time in ten does.
    const body = JSON.stringify({
      Payment: {
        MerchantTransactionID: '20261127014102',
        Amount: 1000,
        Currency: 'EUR',
        ReturnURL: 'https://shop.example/r',
        Customer: { Email: 'payer@example.com' },
        BillingAddress: { Country: 'NL' },
        Card: { ...card, Number: NUMBER },
      },
    });
    expect((await post('card', '/v1/payments', body)).status).toBe(201);
    await request(w.api).get('/v1/payments?startDate=20261127014102').set('Authorization', w.auth);
    const [create, list] = await journal(w);
    expect(create!.Request.Body).toBe(body.replace(NUMBER, 'VISA-1111'));
    expect(list!.Query).toBe('startDate=20261127014102');
  });
});

describe('log lines keep no card number', () => {
  it('masks the query string of a request line', async () => {
    const w = makeWorld();
    try {
      const lines: string[] = [];
      const app = createApp({ ...w.ctx, log: createLogger('info', 'json', (l) => lines.push(l)) }, 'api');
      await request(app).get(`/v1/payments?Number=${NUMBER}`).set('Authorization', w.auth);
      expect(lines.map((l) => JSON.parse(l).msg)).toEqual([expect.stringMatching(/^GET \/v1\/payments\?Number=VISA-1111 \d{3}$/)]);
      expect(lines.join('')).not.toContain(NUMBER);
    } finally {
      w.close();
    }
  });
});
