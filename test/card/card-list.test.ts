// GET /v1/payments on the card address: limit/offset paging, the same filters, the same envelope.
import request from 'supertest';
import { cardListResponse, cardPaymentOut, listErrorResponse } from '../../src/schemas/responses';
import { formatTimestamp } from '../../src/domain/time';
import { START, type World, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';

let seq = 0;

const HOUR = 3_600_000;

interface Spec {
  mtid?: string;
  amount?: number;
  currency?: string;
  country?: string | null;
  capture?: boolean;
}

async function makeCard(w: World, spec: Spec = {}): Promise<number> {
  const res = await request(w.card)
    .post('/v1/payments')
    .set('Authorization', w.auth)
    .send({
      Payment: {
        MerchantTransactionID: spec.mtid ?? `card-${++seq}`,
        Amount: spec.amount ?? 2000,
        Currency: spec.currency ?? 'EUR',
        BillingAddress: spec.country === null ? null : { Country: spec.country ?? 'NL' },
        Capture: spec.capture ?? true,
        Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '123' },
      },
    });
  if (res.status !== 201) throw new Error(`card create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment.ID as number;
}

/** A card payment authorized, then captured in full through the card API: Captured (11). */
async function capturedCard(w: World, spec: Spec = {}): Promise<number> {
  const id = await makeCard(w, { ...spec, capture: false });
  const res = await request(w.card).post(`/v1/payments/${id}/capture`).set('Authorization', w.auth);
  if (res.status !== 200) throw new Error(`card capture failed: ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

const list = (w: World, query = '') => request(w.card).get(`/v1/payments${query}`).set('Authorization', w.auth);

async function ids(w: World, query = ''): Promise<number[]> {
  const res = await list(w, query);
  expect(res.status).toBe(200);
  expectSchema(cardListResponse, res.body);
  return res.body.Payments.map((p: { ID: number }) => p.ID);
}

const desc = (xs: number[]) => [...xs].sort((a, b) => b - a);

describe('GET /v1/payments on the card address: paging', () => {
  let w: World;
  afterEach(() => w.close());

  it('answers an empty list in the list envelope', async () => {
    w = makeWorld();
    const res = await list(w);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Payments: [], Count: 0, TotalPages: 0, TotalCount: 0, PageIndex: 1, PageSize: 10 });
    expectSchema(cardListResponse, res.body);
  });

  it('pages by the configured size by default, newest first', async () => {
    w = makeWorld({ pageSize: 4 });
    const created: number[] = [];
    for (let i = 0; i < 6; i++) created.push(await makeCard(w));
    const res = await list(w);
    expect({ ...res.body, Payments: undefined }).toEqual({ Payments: undefined, Count: 4, TotalPages: 2, TotalCount: 6, PageIndex: 1, PageSize: 4 });
    expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(created).slice(0, 4));
  });

  describe('with 7 card payments', () => {
    let created: number[];
    beforeEach(async () => {
      w = makeWorld();
      created = [];
      for (let i = 0; i < 7; i++) created.push(await makeCard(w));
    });

    it.each<[number, number, number, number]>([
      // limit, offset, PageIndex = floor(offset / limit) + 1, Count
      [3, 0, 1, 3],
      [3, 3, 2, 3],
      [3, 6, 3, 1],
      [3, 1, 1, 3],
      [3, 5, 2, 2],
      [2, 5, 3, 2],
      [7, 0, 1, 7],
      [100, 0, 1, 7],
      [1, 6, 7, 1],
    ])('limit=%i offset=%i gives PageIndex %i, PageSize = limit, and the items from offset on', async (limit, offset, pageIndex, count) => {
      const res = await list(w, `?limit=${limit}&offset=${offset}`);
      expect(res.status).toBe(200);
      expectSchema(cardListResponse, res.body);
      expect(res.body).toMatchObject({ Count: count, TotalCount: 7, TotalPages: Math.ceil(7 / limit), PageIndex: pageIndex, PageSize: limit });
      expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(created).slice(offset, offset + limit));
    });

    it('answers an offset past the end with 200 and no items', async () => {
      const res = await list(w, '?limit=5&offset=7');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ Payments: [], Count: 0, TotalPages: 2, TotalCount: 7, PageIndex: 2, PageSize: 5 });
      const far = await list(w, '?limit=5&offset=2147483647');
      expect(far.status).toBe(200);
      expect(far.body).toMatchObject({ Payments: [], Count: 0, TotalCount: 7 });
    });

    it('takes offset alone with the default limit, and limit alone from offset 0', async () => {
      expect(await ids(w, '?offset=5')).toEqual(desc(created).slice(5));
      expect((await list(w, '?offset=5')).body).toMatchObject({ PageSize: 10, PageIndex: 1 });
      expect(await ids(w, '?limit=2')).toEqual(desc(created).slice(0, 2));
    });

    it('reads limit and offset whatever the case of their names', async () => {
      const res = await list(w, '?Limit=2&OFFSET=4');
      expect(res.body).toMatchObject({ PageSize: 2, PageIndex: 3 });
      expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(created).slice(4, 6));
    });
  });
});

describe('GET /v1/payments on the card address: items', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('lists full card items: CapturedAmount a JSON number, Reasons [], the card masked', async () => {
    const captured = await capturedCard(w, { amount: 1500 });
    const requested = await makeCard(w, { amount: 1200 });
    const authorized = await makeCard(w, { amount: 700, capture: false });
    const failed = await makeCard(w, { amount: 10001 });
    const res = await list(w);
    expectSchema(cardListResponse, res.body);
    const byId = new Map<number, Record<string, unknown>>(res.body.Payments.map((p: { ID: number }) => [p.ID, p]));
    for (const item of byId.values()) {
      expectSchema(cardPaymentOut, item);
      expect((item.Status as { Reasons: unknown }).Reasons).toEqual([]);
      expect(item.Card).toEqual({ HolderName: 'Ada Lovelace', Number: 'VISA-1111', ExpirationMonth: '12', ExpirationYear: '2030' });
    }
    expect(byId.get(captured)).toMatchObject({ Amount: '1500', CapturedAmount: 1500, Status: { ID: 11, Info: 'Captured' } });
    expect(byId.get(requested)).toMatchObject({ Amount: '1200', CapturedAmount: 0, Status: { ID: 13, Info: 'CaptureRequested' } });
    expect(byId.get(authorized)).toMatchObject({ Amount: '700', CapturedAmount: 0, Status: { ID: 9, Info: 'Authorized' } });
    expect(byId.get(failed)).toMatchObject({ Amount: '10001', CapturedAmount: 0, Status: { ID: 4, Info: 'Failed' } });
    expect(res.text).not.toContain('4111111111111111');
    expect(res.text).not.toContain('SecurityCode');
    // An item equals the payment as GET shows it.
    const one = await request(w.card).get(`/v1/payments/${captured}`).set('Authorization', w.auth);
    expect(byId.get(captured)).toEqual(one.body.Payment);
  });

  it('does not list API payments', async () => {
    const created = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody());
    expect(created.status).toBe(201);
    const card = await makeCard(w);
    expect(await ids(w)).toEqual([card]);
    expect(await ids(w, '?statusID=1')).toEqual([]);
  });
});

describe('GET /v1/payments on the card address: filters', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const stamp = (ms: number) => formatTimestamp(ms);

  it('filters by startDate and endDate', async () => {
    const c0 = await makeCard(w);
    w.clock.advance(HOUR);
    const c1 = await makeCard(w);
    w.clock.advance(HOUR);
    const c2 = await makeCard(w);
    expect(await ids(w, `?startDate=${stamp(START + HOUR)}`)).toEqual([c2, c1]);
    expect(await ids(w, `?endDate=${stamp(START + HOUR)}`)).toEqual([c1, c0]);
    expect(await ids(w, `?startDate=${stamp(START + HOUR)}&endDate=${stamp(START + HOUR)}&limit=5&offset=0`)).toEqual([c1]);
  });

  it('filters by statusID', async () => {
    const captured = await capturedCard(w);
    const requested = await makeCard(w);
    const authorized = await makeCard(w, { capture: false });
    const failed = await makeCard(w, { amount: 10001 });
    expect(await ids(w, '?statusID=11')).toEqual([captured]);
    expect(await ids(w, '?statusID=13')).toEqual([requested]);
    expect(await ids(w, '?statusid=9')).toEqual([authorized]);
    expect(await ids(w, '?statusID=4')).toEqual([failed]);
    expect(await ids(w, '?statusID=2')).toEqual([]);
  });

  it('filters by currency and country, whatever their case', async () => {
    const eurNl = await makeCard(w, { currency: 'EUR', country: 'NL' });
    const usdUs = await makeCard(w, { currency: 'USD', country: 'US' });
    const eurNone = await makeCard(w, { currency: 'EUR', country: null });
    expect(await ids(w, '?currency=EUR')).toEqual([eurNone, eurNl]);
    expect(await ids(w, '?currency=usd')).toEqual([usdUs]);
    expect(await ids(w, '?country=us')).toEqual([usdUs]);
    expect(await ids(w, '?country=NL&currency=EUR')).toEqual([eurNl]);
  });

  it('filters by minimumAmount and maximumAmount, inclusive', async () => {
    const a100 = await makeCard(w, { amount: 100 });
    const a500 = await makeCard(w, { amount: 500 });
    const a900 = await makeCard(w, { amount: 900 });
    expect(await ids(w, '?minimumAmount=500')).toEqual([a900, a500]);
    expect(await ids(w, '?maximumAmount=500')).toEqual([a500, a100]);
    expect(await ids(w, '?minimumAmount=101&maximumAmount=899')).toEqual([a500]);
  });

  it('filters by merchantTransactionID exactly, and finds nothing by methodTransactionID', async () => {
    const a = await makeCard(w, { mtid: 'card-order-1' });
    await makeCard(w, { mtid: 'card-order-10' });
    expect(await ids(w, '?merchantTransactionID=card-order-1')).toEqual([a]);
    expect(await ids(w, '?methodTransactionID=card-order-1')).toEqual([]);
  });

  it('counts only the filtered payments when paging', async () => {
    const usd: number[] = [];
    for (let i = 0; i < 5; i++) {
      usd.push(await makeCard(w, { currency: 'USD' }));
      await makeCard(w, { currency: 'EUR' });
    }
    const res = await list(w, '?currency=USD&limit=2&offset=2');
    expect(res.body).toMatchObject({ Count: 2, TotalCount: 5, TotalPages: 3, PageIndex: 2, PageSize: 2 });
    expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(usd).slice(2, 4));
  });
});

describe('GET /v1/payments on the card address: invalid parameters', () => {
  let w: World;
  beforeEach(async () => {
    w = makeWorld();
    await makeCard(w);
  });
  afterEach(() => w.close());

  it.each<[string, RegExp]>([
    ['limit=0', /limit/],
    ['limit=-1', /limit/],
    ['limit=abc', /limit/],
    ['limit=2.5', /limit/],
    ['limit=1001', /limit/],
    ['limit=', /limit/],
    ['offset=-1', /offset/],
    ['offset=abc', /offset/],
    ['offset=1.5', /offset/],
    ['offset=', /offset/],
    ['offset=2147483648', /offset/],
    ['limit=1&limit=2', /limit/],
    ['startDate=20260115', /startDate/],
    ['endDate=20260115999999', /endDate/],
    ['statusID=abc', /statusID/],
    ['currency=eu', /currency/],
    ['country=NLD', /country/],
    ['minimumAmount=1.00', /minimumAmount/],
    ['maximumAmount=-3', /maximumAmount/],
  ])('answers %s with 400 {"Payments":null,...,"Error"}, changing nothing', async (query, names) => {
    const before = snapshot(w.store);
    const res = await list(w, `?${query}`);
    expect(res.status).toBe(400);
    expectSchema(listErrorResponse, res.body);
    expect(res.body.Error).toMatch(names);
    expect(snapshot(w.store)).toBe(before);
  });
});
