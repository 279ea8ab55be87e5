// GET /v1/payments on the API address: paging, sorting, filters and their errors.
import request from 'supertest';
import { listErrorResponse, listItemOut, listResponse } from '../../src/schemas/responses';
import { START, type World, basic, PLAIN, createPayment, event, expectSchema, makeWorld, snapshot } from '../helpers/world';
import { formatTimestamp } from '../../src/domain/time';

let seq = 0;

const HOUR = 3_600_000;

interface Spec {
  mtid?: string;
  amount?: number;
  currency?: string;
  methodId?: number;
  country?: string | null;
}

/** Creates a payment with one small split, so that any amount from 1 up is possible. */
async function make(w: World, spec: Spec = {}): Promise<number> {
  const amount = spec.amount ?? 1000;
  const res = await request(w.api)
    .post('/v1/payments')
    .set('Authorization', w.auth)
    .send({
      Payment: {
        MerchantTransactionID: spec.mtid ?? `mt-${++seq}`,
        Amount: amount,
        Currency: spec.currency ?? 'EUR',
        MethodID: spec.methodId ?? 42,
        ReturnURL: 'https://shop.example/return',
        Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace' },
        BillingAddress: spec.country === null ? null : { Country: spec.country ?? 'NL' },
        Splits: [{ SiteID: 30202, Amount: 1, MerchantTransactionID: 's-1' }],
      },
    });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.Payment.ID as number;
}

async function list(w: World, query = '') {
  const res = await request(w.api).get(`/v1/payments${query}`).set('Authorization', w.auth);
  return res;
}

async function ids(w: World, query = ''): Promise<number[]> {
  const res = await list(w, query);
  expect(res.status).toBe(200);
  expectSchema(listResponse, res.body);
  return res.body.Payments.map((p: { ID: number }) => p.ID);
}

const desc = (xs: number[]) => [...xs].sort((a, b) => b - a);
const asc = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('GET /v1/payments paging', () => {
  let w: World | undefined;
  afterEach(() => {
    w?.close();
    w = undefined;
  });

  it('answers an empty list for a site without payments', async () => {
    w = makeWorld();
    const res = await list(w);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ Payments: [], Count: 0, TotalPages: 0, TotalCount: 0, PageIndex: 1, PageSize: 10 });
    expectSchema(listResponse, res.body);
  });

  it('pages by 10 by default, newest (highest ID) first', async () => {
    w = makeWorld();
    const created: number[] = [];
    for (let i = 0; i < 12; i++) created.push(await make(w));
    const res = await list(w);
    expect(res.status).toBe(200);
    expectSchema(listResponse, res.body);
    expect({ ...res.body, Payments: undefined }).toEqual({ Payments: undefined, Count: 10, TotalPages: 2, TotalCount: 12, PageIndex: 1, PageSize: 10 });
    expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(created).slice(0, 10));
  });

  it('uses the configured page size when none is asked for', async () => {
    w = makeWorld({ pageSize: 3 });
    const created: number[] = [];
    for (let i = 0; i < 7; i++) created.push(await make(w));
    const res = await list(w);
    expect({ ...res.body, Payments: undefined }).toEqual({ Payments: undefined, Count: 3, TotalPages: 3, TotalCount: 7, PageIndex: 1, PageSize: 3 });
    expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(created).slice(0, 3));
    // An explicit pageSize still wins over the configured one.
    expect((await list(w, '?pageSize=5')).body).toMatchObject({ Count: 5, PageSize: 5, TotalPages: 2 });
  });

  // Its tests only read: one world with the 12 payments serves them all.
  describe('with 12 payments', () => {
    let w: World;
    let created: number[];
    beforeAll(async () => {
      w = makeWorld();
      created = [];
      for (let i = 0; i < 12; i++) created.push(await make(w));
    });
    afterAll(() => w.close());

    it.each<[number, number, number[], number]>([
      [5, 1, [0, 5], 5],
      [5, 2, [5, 10], 5],
      [5, 3, [10, 12], 2],
      [12, 1, [0, 12], 12],
      [1, 12, [11, 12], 1],
      [7, 2, [7, 12], 5],
    ])('pageSize=%i pageIndex=%i gives the right slice with exact counts', async (size, index, [from, to], count) => {
      const res = await list(w, `?pageSize=${size}&pageIndex=${index}`);
      expect(res.status).toBe(200);
      expectSchema(listResponse, res.body);
      expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(created).slice(from, to));
      expect(res.body).toMatchObject({ Count: count, TotalPages: Math.ceil(12 / size), TotalCount: 12, PageIndex: index, PageSize: size });
    });

    it('walks every page once: pages 1..3 of 5 hold each payment exactly once', async () => {
      const seen = [...(await ids(w, '?pageSize=5&pageIndex=1')), ...(await ids(w, '?pageSize=5&pageIndex=2')), ...(await ids(w, '?pageSize=5&pageIndex=3'))];
      expect(seen).toEqual(desc(created));
    });

    it.each<[string, number, number]>([
      ['just past the end', 5, 4],
      ['far past the end', 5, 1000],
      ['at the largest index', 10, 2147483647],
    ])('answers a page %s with 200 and an empty Payments list', async (_name, size, index) => {
      const res = await list(w, `?pageSize=${size}&pageIndex=${index}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ Payments: [], Count: 0, TotalPages: Math.ceil(12 / size), TotalCount: 12, PageIndex: index, PageSize: size });
    });

    it('accepts the largest page size, 1000', async () => {
      const res = await list(w, '?pageSize=1000');
      expect(res.body).toMatchObject({ Count: 12, TotalPages: 1, PageSize: 1000 });
    });

    it('ignores query parameters it does not know', async () => {
      expect(await ids(w, '?pageSize=2&foo=bar&limit=7')).toEqual(desc(created).slice(0, 2));
    });
  });
});

describe('GET /v1/payments sorting', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('sorts by ID descending by default and ascending with sortDirection=asc', async () => {
    const created = [await make(w), await make(w), await make(w), await make(w)];
    expect(await ids(w)).toEqual(desc(created));
    expect(await ids(w, '?sortDirection=desc')).toEqual(desc(created));
    expect(await ids(w, '?sortDirection=asc')).toEqual(asc(created));
    expect(await ids(w, '?sortDirection=ASC')).toEqual(asc(created));
    expect(await ids(w, '?sortDirection=asc&pageSize=3&pageIndex=2')).toEqual(asc(created).slice(3));
  });

  it('sorts by amount, ties broken by ID in the same direction', async () => {
    const a500 = await make(w, { amount: 500 });
    const a20 = await make(w, { amount: 20 });
    const b500 = await make(w, { amount: 500 });
    const a999 = await make(w, { amount: 999_999_999_999 });
    const a1 = await make(w, { amount: 1 });
    expect(await ids(w, '?sortBy=amount&sortDirection=asc')).toEqual([a1, a20, a500, b500, a999]);
    expect(await ids(w, '?sortBy=amount&sortDirection=desc')).toEqual([a999, b500, a500, a20, a1]);
    expect(await ids(w, '?sortBy=amount')).toEqual([a999, b500, a500, a20, a1]);
    expect(await ids(w, '?SORTBY=Amount&sortdirection=asc&pageSize=2&pageIndex=2')).toEqual([a500, b500]);
  });

  it('sorts amounts as numbers, not as text', async () => {
    const nine = await make(w, { amount: 9 });
    const hundred = await make(w, { amount: 100 });
    const twenty = await make(w, { amount: 20 });
    expect(await ids(w, '?sortBy=amount&sortDirection=asc')).toEqual([nine, twenty, hundred]);
  });

  it('sorts by merchanttransactionid', async () => {
    const c = await make(w, { mtid: 'order-c' });
    const a = await make(w, { mtid: 'order-a' });
    const b = await make(w, { mtid: 'order-b' });
    expect(await ids(w, '?sortBy=merchanttransactionid&sortDirection=asc')).toEqual([a, b, c]);
    expect(await ids(w, '?sortBy=MerchantTransactionID&sortDirection=desc')).toEqual([c, b, a]);
  });

  it('sorts by inputdatetime (creation time), which need not follow the ID', async () => {
    w.clock.set(START + 2 * HOUR);
    const late = await make(w);
    w.clock.set(START);
    const early = await make(w);
    w.clock.set(START + HOUR);
    const middle = await make(w);
    expect(await ids(w, '?sortDirection=asc')).toEqual([late, early, middle]);
    expect(await ids(w, '?sortBy=inputdatetime&sortDirection=asc')).toEqual([early, middle, late]);
    expect(await ids(w, '?sortBy=InputDateTime&sortDirection=desc')).toEqual([late, middle, early]);
  });
});

describe('GET /v1/payments filters', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const stamp = (ms: number) => formatTimestamp(ms);

  it('filters by startDate and endDate (14 digits, both inclusive, endDate to the end of its second)', async () => {
    const p0 = await make(w); // START
    w.clock.advance(HOUR);
    const p1 = await make(w); // START + 1h
    w.clock.advance(HOUR + 500);
    const p2 = await make(w); // START + 2h + 0.5s
    w.clock.advance(HOUR);
    const p3 = await make(w); // START + 3h + 0.5s
    expect(await ids(w, `?startDate=${stamp(START + HOUR)}`)).toEqual([p3, p2, p1]);
    expect(await ids(w, `?endDate=${stamp(START + HOUR)}`)).toEqual([p1, p0]);
    expect(await ids(w, `?startDate=${stamp(START + HOUR)}&endDate=${stamp(START + 2 * HOUR)}`)).toEqual([p2, p1]);
    expect(await ids(w, `?startDate=${stamp(START + HOUR + 1000)}&endDate=${stamp(START + 2 * HOUR - 1000)}`)).toEqual([]);
    expect(await ids(w, `?startdate=${stamp(START)}&ENDDATE=${stamp(START)}`)).toEqual([p0]);
    expect(await ids(w, `?startDate=${stamp(START - 24 * HOUR)}&endDate=${stamp(START + 24 * HOUR)}`)).toEqual([p3, p2, p1, p0]);
    // A start after the end finds nothing, and is no error.
    const res = await list(w, `?startDate=${stamp(START + 3 * HOUR)}&endDate=${stamp(START)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Count: 0, TotalCount: 0, TotalPages: 0 });
  });

  it('filters by methodID', async () => {
    const paypal = await make(w, { methodId: 42 });
    const ideal = await make(w, { methodId: 2 });
    const klarna = await make(w, { methodId: 75 });
    const paypal2 = await make(w, { methodId: 42 });
    expect(await ids(w, '?methodID=42')).toEqual([paypal2, paypal]);
    expect(await ids(w, '?methodid=2')).toEqual([ideal]);
    expect(await ids(w, '?METHODID=75')).toEqual([klarna]);
    expect(await ids(w, '?methodID=9')).toEqual([]);
  });

  it('filters by statusID as payments move', async () => {
    const open = await make(w);
    const authorized = await make(w);
    await event(w, authorized, 'authorize');
    const paid = await make(w, { methodId: 2 });
    await event(w, paid, 'succeed');
    const cancelled = await make(w);
    await request(w.api).post(`/v1/payments/${cancelled}/cancel`).set('Authorization', w.auth).expect(200);
    const failed = await make(w);
    await event(w, failed, 'fail');
    expect(await ids(w, '?statusID=1')).toEqual([open]);
    expect(await ids(w, '?statusID=9')).toEqual([authorized]);
    expect(await ids(w, '?statusID=2')).toEqual([paid]);
    expect(await ids(w, '?statusID=3')).toEqual([cancelled]);
    expect(await ids(w, '?statusid=4')).toEqual([failed]);
    expect(await ids(w, '?statusID=35')).toEqual([]);
    await request(w.api).post(`/v1/payments/${authorized}/capture`).set('Authorization', w.auth).expect(200);
    expect(await ids(w, '?statusID=9')).toEqual([]);
    expect(await ids(w, '?statusID=2')).toEqual(desc([authorized, paid]));
  });

  it('filters by currency, whatever its case', async () => {
    const eur = await make(w, { currency: 'EUR' });
    const usd = await make(w, { currency: 'USD' });
    const dkk = await make(w, { currency: 'DKK' });
    expect(await ids(w, '?currency=EUR')).toEqual([eur]);
    expect(await ids(w, '?currency=usd')).toEqual([usd]);
    expect(await ids(w, '?Currency=DKK')).toEqual([dkk]);
    expect(await ids(w, '?currency=GBP')).toEqual([]);
  });

  it('filters by the billing country, whatever its case', async () => {
    const nl = await make(w, { country: 'NL' });
    const de = await make(w, { country: 'DE' });
    const none = await make(w, { country: null });
    expect(await ids(w, '?country=NL')).toEqual([nl]);
    expect(await ids(w, '?country=de')).toEqual([de]);
    expect(await ids(w, '?country=FR')).toEqual([]);
    expect(await ids(w)).toContain(none);
  });

  it('filters by minimumAmount and maximumAmount, both inclusive, in minor units', async () => {
    const a1 = await make(w, { amount: 1 });
    const a100 = await make(w, { amount: 100 });
    const a1000 = await make(w, { amount: 1000 });
    const aMax = await make(w, { amount: 999_999_999_999 });
    expect(await ids(w, '?minimumAmount=100')).toEqual([aMax, a1000, a100]);
    expect(await ids(w, '?maximumAmount=100')).toEqual([a100, a1]);
    expect(await ids(w, '?minimumAmount=100&maximumAmount=1000')).toEqual([a1000, a100]);
    expect(await ids(w, '?minimumamount=101&MAXIMUMAMOUNT=999')).toEqual([]);
    expect(await ids(w, '?minimumAmount=0')).toEqual([aMax, a1000, a100, a1]);
    expect(await ids(w, '?maximumAmount=999999999999')).toEqual([aMax, a1000, a100, a1]);
  });

  it('filters by merchantTransactionID, exact match only', async () => {
    const a = await make(w, { mtid: 'order-42' });
    await make(w, { mtid: 'order-420' });
    await make(w, { mtid: 'ORDER-42' });
    expect(await ids(w, '?merchantTransactionID=order-42')).toEqual([a]);
    expect(await ids(w, '?merchanttransactionid=order-4')).toEqual([]);
    expect(await ids(w, '?merchantTransactionID=order-%25')).toEqual([]);
  });

  it('finds nothing by methodTransactionID, which the sandbox never sets', async () => {
    await make(w);
    const res = await list(w, '?methodTransactionID=abc');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Payments: [], Count: 0, TotalPages: 0, TotalCount: 0, PageIndex: 1, PageSize: 10 });
  });

  it('filters by typeID: 1 (payments) finds them, 2 (recurring) none', async () => {
    const p = await make(w);
    expect(await ids(w, '?typeID=1')).toEqual([p]);
    expect(await ids(w, '?typeID=2')).toEqual([]);
  });

  it('combines filters and pages over the filtered set only', async () => {
    const match: number[] = [];
    for (let i = 0; i < 5; i++) {
      match.push(await make(w, { currency: 'USD', amount: 500 + i }));
      await make(w, { currency: 'EUR', amount: 500 + i });
      await make(w, { currency: 'USD', amount: 5 });
    }
    const res = await list(w, '?currency=USD&minimumAmount=500&pageSize=2&pageIndex=3');
    expect(res.body).toMatchObject({ Count: 1, TotalPages: 3, TotalCount: 5, PageIndex: 3, PageSize: 2 });
    expect(res.body.Payments.map((p: { ID: number }) => p.ID)).toEqual(desc(match).slice(4));
    expect(await ids(w, '?currency=USD&minimumAmount=500&sortBy=amount&sortDirection=asc')).toEqual(match);
  });
});

describe('GET /v1/payments invalid parameters', () => {
  // Each test is refused and checks that nothing changed: one world serves them all.
  let w: World;
  beforeAll(async () => {
    w = makeWorld();
    await make(w);
  });
  afterAll(() => w.close());

  it.each<[string, RegExp]>([
    ['pageSize=0', /pageSize/],
    ['pageSize=-1', /pageSize/],
    ['pageSize=abc', /pageSize/],
    ['pageSize=1.5', /pageSize/],
    ['pageSize=1001', /pageSize/],
    ['pageSize=', /pageSize/],
    ['pageSize=99999999999999999999', /pageSize/],
    ['pageIndex=0', /pageIndex/],
    ['pageIndex=-2', /pageIndex/],
    ['pageIndex=first', /pageIndex/],
    ['pageIndex=2147483648', /pageIndex/],
    ['sortDirection=up', /sortDirection/],
    ['sortDirection=', /sortDirection/],
    ['sortBy=id', /sortBy/],
    ['sortBy=created', /sortBy/],
    ['startDate=2026', /startDate/],
    ['startDate=2026011510000', /startDate/],
    ['startDate=202601151000000', /startDate/],
    ['startDate=20261315100000', /startDate/],
    ['startDate=20260230100000', /startDate/],
    ['startDate=20260115250000', /startDate/],
    ['startDate=2026-01-15T10:00:00Z', /startDate/],
    ['endDate=2026011510000a', /endDate/],
    ['endDate=yesterday', /endDate/],
    ['methodID=abc', /methodID/],
    ['methodID=0', /methodID/],
    ['methodID=-42', /methodID/],
    ['statusID=abc', /statusID/],
    ['statusID=0', /statusID/],
    ['statusID=999', /statusID/],
    ['currency=EURO', /currency/],
    ['currency=XXX', /currency/],
    ['currency=', /currency/],
    ['country=NLD', /country/],
    ['country=12', /country/],
    ['minimumAmount=10.50', /minimumAmount/],
    ['minimumAmount=-1', /minimumAmount/],
    ['minimumAmount=abc', /minimumAmount/],
    ['minimumAmount=1000000000000', /minimumAmount/],
    ['maximumAmount=1e3', /maximumAmount/],
    ['maximumAmount=', /maximumAmount/],
    ['typeID=3', /typeID/],
    ['pageSize=2&pageSize=3', /pageSize/i],
    ['currency=EUR&currency=USD', /currency/i],
  ])('answers %s with 400 {"Payments":null,...,"Error"} naming the parameter, and changes nothing', async (query, names) => {
    const before = snapshot(w.store);
    const res = await list(w, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(listErrorResponse, res.body);
    expect(res.body).toMatchObject({ Payments: null, Count: null, TotalPages: null, TotalCount: null, PageIndex: null, PageSize: null });
    expect(res.body.Error).toMatch(names);
    expect(snapshot(w.store)).toBe(before);
  });

  it('answers the same way with a trailing slash and a lower-case name', async () => {
    const res = await request(w.api).get('/v1/payments/?pagesize=0').set('Authorization', w.auth);
    expect(res.status).toBe(400);
    expectSchema(listErrorResponse, res.body);
  });
});

describe('GET /v1/payments items', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('carries the payment without Fraud and Splits, with Customer and addresses null', async () => {
    const id = await make(w, { mtid: 'order-item', amount: 1234, currency: 'DKK', country: 'DK' });
    const res = await list(w);
    expectSchema(listResponse, res.body);
    const item = res.body.Payments[0];
    expectSchema(listItemOut, item);
    expect(item).not.toHaveProperty('Fraud');
    expect(item).not.toHaveProperty('Splits');
    expect(item).toMatchObject({
      ID: id,
      MerchantTransactionID: 'order-item',
      Amount: '1234',
      Currency: 'DKK',
      CapturedAmount: null,
      MethodID: 42,
      SiteID: 30202,
      Customer: null,
      BillingAddress: null,
      ShippingAddress: null,
      Articles: null,
      Details: null,
      Status: { ID: 1, Info: 'Open', Reasons: null },
    });
    // Every other field equals the full payment's.
    const full = (await request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth)).body.Payment;
    const { Fraud: _f, Splits: _s, Customer: _c, BillingAddress: _b, ShippingAddress: _sh, Details: _d, ...rest } = full;
    expect(item).toMatchObject(rest);
    expect(Object.keys(item)).toEqual(Object.keys(listItemOut.properties as object));
  });

  it('shows what changed: CapturedAmount and status after a capture, RedirectURL null after cancel', async () => {
    const captured = await make(w, { amount: 700 });
    await event(w, captured, 'authorize');
    await request(w.api).post(`/v1/payments/${captured}/capture`).set('Authorization', w.auth).expect(200);
    const cancelled = await make(w);
    await request(w.api).post(`/v1/payments/${cancelled}/cancel`).set('Authorization', w.auth).expect(200);
    const res = await list(w);
    expectSchema(listResponse, res.body);
    const byId = new Map(res.body.Payments.map((p: { ID: number }) => [p.ID, p]));
    expect(byId.get(captured)).toMatchObject({ CapturedAmount: '700', Status: { ID: 2, Info: 'Success', Reasons: null } });
    expect(byId.get(cancelled)).toMatchObject({ Status: { ID: 3, Info: 'Cancelled' }, RedirectURL: null, TokenLifetime: null });
  });

  it('does not list card payments, and the card list does not list API payments', async () => {
    const api = await make(w);
    const card = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({
        Payment: {
          MerchantTransactionID: 'card-1',
          Amount: 1000,
          Currency: 'EUR',
          Card: { HolderName: 'Ada Lovelace', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030' },
        },
      });
    expect(card.status).toBe(201);
    expect(await ids(w)).toEqual([api]);
    expect(await ids(w, '?methodID=6')).toEqual([]);
    expect(await ids(w, '?statusID=11')).toEqual([]);
    const cardList = await request(w.card).get('/v1/payments').set('Authorization', w.auth);
    expect(cardList.body.Payments.map((p: { ID: number }) => p.ID)).toEqual([card.body.Payment.ID]);
  });

  it('lists only the calling site\'s payments', async () => {
    const mine = await make(w);
    const other = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey))
      .send({ Payment: { MerchantTransactionID: 'p-1', Amount: 100, Currency: 'EUR', ReturnURL: 'https://plain.example/' } });
    expect(other.status).toBe(201);
    expect(await ids(w)).toEqual([mine]);
  });
});

describe('GET /v1/payments statusID of the real catalogue', () => {
  it('answers a status the sandbox never uses (7, PendingOnProvider) with an empty page, not an error', async () => {
    const w = makeWorld();
    try {
      await createPayment(w);
      const res = await request(w.api).get('/v1/payments?statusID=7').set('Authorization', w.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ Payments: [], Count: 0, TotalPages: 0, TotalCount: 0, PageIndex: 1, PageSize: 10 });
    } finally {
      w.close();
    }
  });
});
