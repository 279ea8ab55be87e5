// Bodies that are not what a route expects: never a 5xx, always the route's documented 4xx shape,
// and the store unchanged.
import request from 'supertest';
import {
  messageResponse,
  paymentErrorResponse,
  paymentResponse,
  refundErrorResponse,
  splitsErrorResponse,
} from '../../src/schemas/responses';
import { type World, type WirePayment, authorizedPayment, createPayment, event, expectSchema, makeWorld, paymentBody, snapshot } from '../helpers/world';
import { keptWorld } from '../helpers/kept-world';

const MALFORMED: [string, string][] = [
  ['an unfinished object', '{"Payment":'],
  ['an unclosed brace', '{'],
  ['bare words', 'hello'],
  ['single quotes', "{'Payment':{}}"],
  ['a trailing comma', '{"Payment":{"Amount":1000,}}'],
  ['unquoted keys', '{Payment:{}}'],
  ['NaN', '{"Payment":{"Amount":NaN}}'],
  ['Infinity', '{"Payment":{"Amount":Infinity}}'],
  ['a comment', '{"Payment":{} /* note */}'],
  ['two documents', '{"Payment":{}}{"Payment":{}}'],
  ['undefined', 'undefined'],
  ['a raw control character in a string', '{"Payment":{"Description":"a\u0001b"}}'],
  ['a bad escape', '{"Payment":{"Description":"\\x41"}}'],
  ['a leading zero number', '{"Payment":{"Amount":0100}}'],
  ['a lone minus', '{"Payment":{"Amount":-}}'],
  ['XML', '<Payment><Amount>1000</Amount></Payment>'],
  ['form encoding', 'Payment[Amount]=1000&Payment[Currency]=EUR'],
];

/** `[` nested `depth` times around the value at `slot` of a body. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** The worlds a describe's refused bodies are sent to, each kept while nothing changed (registered in that describe). */
function keptWorlds() {
  return {
    fresh: keptWorld(),
    paid: keptWorld(async (w) => {
      const created = await createPayment(w, { MethodID: 2 });
      return event(w, created.ID, 'succeed');
    }),
    open: keptWorld((w) => createPayment(w, { Amount: '5000' })),
    authorized: keptWorld((w) => authorizedPayment(w)),
  };
}

describe('malformed JSON', () => {
  // Each refused body changes nothing: a world and the payment acted on serve test after test.
  const { fresh, paid, open, authorized } = keptWorlds();
  let w: World;
  afterEach(() => (w = undefined as unknown as World));

  const post = (path: string, text: string, app = w.api) =>
    request(app).post(path).set('Authorization', w.auth).set('Content-Type', 'application/json').send(text);

  const notJson = (reasons: unknown) =>
    expect(reasons).toEqual([{ Code: 2, Info: expect.stringMatching(/^The request body is not valid JSON/) }]);

  it.each(MALFORMED)('answers a create with %s: 400 reason 2 in the Payment envelope, nothing stored', async (_name, text) => {
    ({ w } = await fresh());
    const before = snapshot(w.store);
    const res = await post('/v1/payments', text);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.ID).toBeNull();
    expect(res.body.Payment.InvalidRequestID).toMatch(/^.+$/);
    expect(res.body.Payment).toMatchObject({ Status: { ID: null, Info: null } });
    notJson(res.body.Payment.Status.Reasons);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(MALFORMED)('answers a refund with %s in the Refund envelope, nothing stored', async (_name, text) => {
    let p: WirePayment;
    ({ w, made: p } = await paid());
    const before = snapshot(w.store);
    const res = await post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, text);
    expect(res.status).toBe(400);
    expectSchema(refundErrorResponse, res.body);
    notJson(res.body.Refund.Status.Reasons);
    expect(res.body.Refund.MerchantTransactionID).toBeNull();
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(MALFORMED)('answers add-splits with %s as {"Splits":null,...}, nothing stored', async (_name, text) => {
    let p: WirePayment;
    ({ w, made: p } = await open());
    const before = snapshot(w.store);
    const res = await post(`/v1/payments/${p.ID}/splits`, text);
    expect(res.status).toBe(400);
    expectSchema(splitsErrorResponse, res.body);
    notJson(res.body.Reasons);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(MALFORMED)('answers a capture with %s in the Payment envelope and leaves the payment Authorized', async (_name, text) => {
    let p: WirePayment;
    ({ w, made: p } = await authorized());
    const before = snapshot(w.store);
    const res = await post(`/v1/payments/${p.ID}/capture`, text);
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    notJson(res.body.Payment.Status.Reasons);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(MALFORMED)('answers a card create with %s in the Payment envelope, nothing stored', async (_name, text) => {
    ({ w } = await fresh());
    const before = snapshot(w.store);
    const res = await post('/v1/payments', text, w.card);
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    notJson(res.body.Payment.Status.Reasons);
    expect(snapshot(w.store)).toBe(before);
  });

  it('accepts a UTF-8 byte order mark before the JSON', async () => {
    ({ w } = await fresh());
    const res = await post('/v1/payments', '\uFEFF' + JSON.stringify(paymentBody()));
    expect(res.status).toBe(201);
  });
});

describe('deeply nested JSON', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const post = (path: string, text: string, app = w.api) =>
    request(app).post(path).set('Authorization', w.auth).set('Content-Type', 'application/json').send(text);

  it.each<[string, string]>([
    ['in a known field that is echoed (Customer), 100 000 deep', `{"Payment":{"Customer":${nested(100_000)}}}`],
    ['in an unknown field, 100 000 deep', `{"Payment":{"Foo":${nested(100_000)}}}`],
    ['as objects, 50 000 deep', `{"Payment":{"Description":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}}`],
    ['as the whole body, 200 000 deep', nested(200_000)],
  ])('refuses nesting %s with a clean 400, never a 5xx', async (_name, text) => {
    const before = snapshot(w.store);
    const res = await post('/v1/payments', text);
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.Status.Reasons).toHaveLength(1);
    expect(res.body.Payment.Status.Reasons[0].Code).toBe(2);
    expect(snapshot(w.store)).toBe(before);
  });

  it('parses 64 levels (then validates) and refuses 65 as malformed', async () => {
    const at = await post('/v1/payments', `{"Payment":{"Customer":${nested(62)}}}`);
    expect(at.status).toBe(400);
    expect(at.body.Payment.Status.Reasons).toEqual(
      expect.arrayContaining([{ Code: 2, Info: expect.stringMatching(/^Payment\.Customer is invalid/) }]),
    );
    const past = await post('/v1/payments', `{"Payment":{"Customer":${nested(63)}}}`);
    expect(past.status).toBe(400);
    expect(past.body.Payment.Status.Reasons).toEqual([{ Code: 2, Info: expect.stringMatching(/nests deeper than 64 levels/) }]);
  });

  it('refuses deep nesting on refunds, add-splits, capture and the card address too', async () => {
    const created = await createPayment(w, { MethodID: 2, Amount: '5000' });
    const paid = await event(w, created.ID, 'succeed');
    const auth = await authorizedPayment(w);
    const before = snapshot(w.store);
    const refund = await post(`/v1/payments/${paid.ID}/splits/${paid.Splits[0]!.ID}/refunds`, `{"Refund":{"Description":${nested(100_000)}}}`);
    expect(refund.status).toBe(400);
    expectSchema(refundErrorResponse, refund.body);
    const splits = await post(`/v1/payments/${paid.ID}/splits`, `{"Splits":${nested(100_000)}}`);
    expect(splits.status).toBe(400);
    expectSchema(splitsErrorResponse, splits.body);
    const capture = await post(`/v1/payments/${auth.ID}/capture`, `{"Payment":{"Splits":${nested(100_000)}}}`);
    expect(capture.status).toBe(400);
    expectSchema(paymentErrorResponse, capture.body);
    const card = await post('/v1/payments', `{"Payment":{"Card":${nested(100_000)}}}`, w.card);
    expect(card.status).toBe(400);
    expectSchema(paymentErrorResponse, card.body);
    expect(snapshot(w.store)).toBe(before);
  });

  it('accepts brackets inside strings, which are not nesting', async () => {
    const res = await post('/v1/payments', JSON.stringify(paymentBody({ Description: '['.repeat(500) + '{'.repeat(500) })));
    expect(res.status).toBe(201);
  });
});

describe('body size', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const MiB = 1024 * 1024;
  /** A create body of exactly `bytes` bytes (padding in Description). */
  function bodyOfSize(bytes: number): string {
    const base = JSON.stringify(paymentBody({ MerchantTransactionID: 'big', Description: '' }));
    const text = JSON.stringify(paymentBody({ MerchantTransactionID: 'big', Description: 'x'.repeat(bytes - Buffer.byteLength(base)) }));
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  }

  it.each<[string, number]>([
    ['one byte over 1 MiB', MiB + 1],
    ['2 MiB', 2 * MiB],
  ])('answers a body of %s with 413 {"Message"} and stores nothing', async (_name, bytes) => {
    const before = snapshot(w.store);
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send(bodyOfSize(bytes));
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(messageResponse, res.body);
    expect(res.body.Message).toMatch(/1 MiB/);
    expect(snapshot(w.store)).toBe(before);
  });

  it('reads a body of exactly 1 MiB (here refused for its over-long Description, with a 400)', async () => {
    const before = snapshot(w.store);
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send(bodyOfSize(MiB));
    expect(res.status).toBe(400);
    expect(res.body.Payment.Status.Reasons).toEqual([{ Code: 2, Info: 'Payment.Description is invalid: must be at most 1024 characters' }]);
    expect(snapshot(w.store)).toBe(before);
  });

  it('answers an oversized body with 413 on the other routes and on the card address', async () => {
    const p = await authorizedPayment(w);
    const before = snapshot(w.store);
    const big = bodyOfSize(MiB + 100);
    for (const [app, path] of [
      [w.api, `/v1/payments/${p.ID}/capture`],
      [w.api, `/v1/payments/${p.ID}/splits`],
      [w.api, `/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`],
      [w.card, '/v1/payments'],
    ] as const) {
      const res = await request(app).post(path).set('Authorization', w.auth).set('Content-Type', 'application/json').send(big);
      expect(res.status).toBe(413);
      expectSchema(messageResponse, res.body);
    }
    expect(snapshot(w.store)).toBe(before);
  });

  it('counts bytes, not characters: 600 000 two-byte characters are over 1 MiB', async () => {
    const text = JSON.stringify(paymentBody({ Description: 'é'.repeat(600_000) }));
    expect(text.length).toBeLessThan(MiB);
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send(text);
    expect(res.status).toBe(413);
  });
});

describe('content types', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON; charset=UTF-8',
    'text/json',
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'application/xml',
    'application/octet-stream',
    'multipart/form-data; boundary=x',
    'application/vnd.api+json',
    'image/png',
  ])('parses JSON text sent as %s', async (type) => {
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', type).send(JSON.stringify(paymentBody()));
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
  });

  it('parses JSON text sent in latin1 when the charset says so', async () => {
    const text = JSON.stringify(paymentBody({ Description: 'café' }));
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .set('Content-Type', 'application/json; charset=latin1')
      .serialize((b: unknown) => b as string)
      .send(Buffer.from(text, 'latin1') as unknown as string);
    expect(res.status).toBe(201);
    expect(res.body.Payment.Description).toBe('café');
  });

  it('answers an unknown charset with a 415 {"Message"} and stores nothing', async () => {
    const before = snapshot(w.store);
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .set('Content-Type', 'application/json; charset=klingon')
      .send(JSON.stringify(paymentBody()));
    expect(res.status).toBe(415);
    expectSchema(messageResponse, res.body);
    expect(snapshot(w.store)).toBe(before);
  });

  it('answers an unknown content encoding with a 415 {"Message"}', async () => {
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress-9000')
      .send(JSON.stringify(paymentBody()));
    expect(res.status).toBe(415);
    expectSchema(messageResponse, res.body);
  });

  it.each(['gzip', 'deflate', 'br'])('reads a body sent with Content-Encoding: %s', async (encoding) => {
    const zlib = await import('node:zlib');
    const text = JSON.stringify(paymentBody());
    const packed = encoding === 'gzip' ? zlib.gzipSync(text) : encoding === 'deflate' ? zlib.deflateSync(text) : zlib.brotliCompressSync(text);
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', encoding)
      .serialize((b: unknown) => b as string)
      .send(packed as unknown as string);
    expect(res.status).toBe(201);
    expectSchema(paymentResponse, res.body);
  });

  it('answers a compressed body that unpacks beyond 1 MiB with a 413 {"Message"} and stores nothing', async () => {
    const zlib = await import('node:zlib');
    const before = snapshot(w.store);
    const res = await request(w.api)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((b: unknown) => b as string)
      .send(zlib.gzipSync(' '.repeat(3 * 1024 * 1024)) as unknown as string);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ Message: 'The request body is larger than 1 MiB.' });
    expect(snapshot(w.store)).toBe(before);
  });

  it('captures with a per-split body sent as text/plain', async () => {
    const p = await authorizedPayment(w);
    const res = await request(w.api)
      .post(`/v1/payments/${p.ID}/capture`)
      .set('Authorization', w.auth)
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ Payment: { Splits: [{ ID: p.Splits[0]!.ID, Amount: 100 }] } }));
    expect(res.status).toBe(200);
    expect(res.body.Payment.CapturedAmount).toBe('100');
  });
});

describe('a whole body that is not an object', () => {
  // Each refused body changes nothing: a world and the payment acted on serve test after test.
  const { fresh, paid, open, authorized } = keptWorlds();
  let w: World;
  afterEach(() => (w = undefined as unknown as World));

  const WHOLE: [string, string][] = [
    ['an array', '[{"Payment":{}}]'],
    ['an empty array', '[]'],
    ['a string', '"Payment"'],
    ['a number', '1000'],
    ['a negative fraction', '-10.5'],
    ['true', 'true'],
    ['false', 'false'],
  ];
  const expected = [{ Code: 2, Info: 'The request body is invalid: expected object' }];
  const post = (path: string, text: string, app = w.api) =>
    request(app).post(path).set('Authorization', w.auth).set('Content-Type', 'application/json').send(text);

  it.each(WHOLE)('refuses %s as a create body, in the Payment envelope', async (_name, text) => {
    ({ w } = await fresh());
    const before = snapshot(w.store);
    const res = await post('/v1/payments', text);
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.Status.Reasons).toEqual(expected);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(WHOLE)('refuses %s as a refund body, in the Refund envelope', async (_name, text) => {
    let p: WirePayment;
    ({ w, made: p } = await paid());
    const before = snapshot(w.store);
    const res = await post(`/v1/payments/${p.ID}/splits/${p.Splits[0]!.ID}/refunds`, text);
    expect(res.status).toBe(400);
    expectSchema(refundErrorResponse, res.body);
    expect(res.body.Refund.Status.Reasons).toEqual(expected);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(WHOLE)('refuses %s as an add-splits body, in the Splits envelope', async (_name, text) => {
    let p: WirePayment;
    ({ w, made: p } = await open());
    const before = snapshot(w.store);
    const res = await post(`/v1/payments/${p.ID}/splits`, text);
    expect(res.status).toBe(400);
    expectSchema(splitsErrorResponse, res.body);
    expect(res.body.Reasons).toEqual(expected);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(WHOLE)('refuses %s as a capture body and leaves the payment Authorized', async (_name, text) => {
    let p: WirePayment;
    ({ w, made: p } = await authorized());
    const before = snapshot(w.store);
    const res = await post(`/v1/payments/${p.ID}/capture`, text);
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.Status.Reasons).toEqual(expected);
    expect(snapshot(w.store)).toBe(before);
  });

  it('takes a JSON null body as no body: reason 1 naming the missing resource, capture refused', async () => {
    ({ w } = await fresh());
    const created = await createPayment(w, { MethodID: 2, Amount: '5000' });
    const paid = await event(w, created.ID, 'succeed');
    const auth = await authorizedPayment(w);
    const before = snapshot(w.store);
    const create = await post('/v1/payments', 'null');
    expect(create.status).toBe(400);
    expect(create.body.Payment.Status.Reasons).toEqual([{ Code: 1, Info: 'Payment is missing' }]);
    const refund = await post(`/v1/payments/${paid.ID}/splits/${paid.Splits[0]!.ID}/refunds`, 'null');
    expect(refund.status).toBe(400);
    expect(refund.body.Refund.Status.Reasons).toEqual([{ Code: 1, Info: 'Refund is missing' }]);
    const splits = await post(`/v1/payments/${paid.ID}/splits`, 'null');
    expect(splits.status).toBe(400);
    expect(splits.body.Reasons).toEqual([{ Code: 1, Info: 'Splits is missing' }]);
    const card = await post('/v1/payments', 'null', w.card);
    expect(card.status).toBe(400);
    expect(card.body.Payment.Status.Reasons).toEqual([{ Code: 1, Info: 'Payment is missing' }]);
    const capture = await post(`/v1/payments/${auth.ID}/capture`, 'null');
    expect(capture.status).toBe(400);
    expectSchema(paymentErrorResponse, capture.body);
    expect(snapshot(w.store)).toBe(before);
  });

  it.each(WHOLE)('refuses %s as a card create body', async (_name, text) => {
    ({ w } = await fresh());
    const before = snapshot(w.store);
    const res = await post('/v1/payments', text, w.card);
    expect(res.status).toBe(400);
    expectSchema(paymentErrorResponse, res.body);
    expect(res.body.Payment.Status.Reasons).toEqual(expected);
    expect(snapshot(w.store)).toBe(before);
  });
});
