// Thousands of generated malformed requests to every endpoint of both addresses and the control
// API: every answer is a documented 4xx (or a success), never a 5xx, and a rejected request leaves
// the database byte-for-byte as it was.
import { Agent, type Server, createServer } from 'node:http';
import Database, { type Database as Db, type Statement } from 'better-sqlite3';
import fc from 'fast-check';
import request from 'supertest';
import type { Surface } from '../../src/openapi/document';
import {
  listErrorResponse,
  messageResponse,
  paymentErrorResponse,
  refundErrorResponse,
  splitsErrorResponse,
} from '../../src/schemas/responses';
import { preapprovalErrorResponse } from '../../src/schemas/preapprovals';
import { type World, authorizedPayment, basic, createPayment, event, makeWorld, snapshot } from '../helpers/world';
import { type PlainRequest, plainRequest } from '../helpers/plain-http';
import { schemaCheck } from '../helpers/compiled-checks';
import type { Store } from '../../src/store/store';

// As many frames as an error takes in the sandbox's own process (node's 10), not jest's 100: each of
// the thousands of refusals below is an error made, and its stack taken, deep in Express's stack.
Error.stackTraceLimit = 10;

// The commonest refusal first ({"Message"}: 401, 404, 413): a shape a body fails costs every error
// it finds, and the verdict is the same in any order. Each compiled as the sandbox compiles a schema,
// once per run (test/helpers/compiled-checks.ts), not by this file.
const ERROR_SHAPES = [messageResponse, paymentErrorResponse, refundErrorResponse, splitsErrorResponse, listErrorResponse, preapprovalErrorResponse].map((s) => schemaCheck(s));
const documented = (body: unknown) => ERROR_SHAPES.some((fn) => fn(body));

const ROUTES: [method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, surface: 'api' | 'card'][] = [
  ['post', '/v1/payments', 'api'],
  ['get', '/v1/payments', 'api'],
  ['get', '/v1/payments/{id}', 'api'],
  ['post', '/v1/payments/{id}/splits', 'api'],
  ['post', '/v1/payments/{id}/capture', 'api'],
  ['post', '/v1/payments/{id}/splits/{split}/capture', 'api'],
  ['post', '/v1/payments/{id}/cancel', 'api'],
  ['post', '/v1/payments/{id}/splits/{split}/refunds', 'api'],
  ['get', '/v1/payments/{id}/status', 'api'],
  ['post', '/v1/payments/{id}/refunds', 'api'],
  ['get', '/v1/payments/{id}/refunds', 'api'],
  ['get', '/v1/payments/{id}/refunds/{split}', 'api'],
  ['get', '/v1/methods', 'api'],
  ['get', '/v1/methods/assigned', 'api'],
  ['get', '/v1/methods/{id}', 'api'],
  ['get', '/images/methods/{id}', 'api'],
  ['post', '/v1/payments', 'card'],
  ['get', '/v1/payments', 'card'],
  ['get', '/v1/payments/{id}', 'card'],
  ['get', '/v1/payments/{id}/status', 'card'],
  ['post', '/v1/payments/{id}/capture', 'card'],
  ['post', '/v1/payments/{id}/cancel', 'card'],
  ['post', '/v1/payments/{id}/refunds', 'card'],
  ['post', '/v1/payments/{id}/splits/{split}/refunds', 'card'],
  ['get', '/v1/payments/{id}/refunds', 'card'],
  ['get', '/v1/payments/{id}/refunds/{split}', 'card'],
  ['get', '/v1/Payments/FillCardDetails', 'card'],
  ['post', '/v1/Payments/FillCardDetails/{id}', 'card'],
  ['post', '/_sandbox/payments/{id}/events', 'api'],
  ['post', '/_sandbox/refunds/{id}/events', 'api'],
  ['patch', '/_sandbox/merchants/{id}', 'api'],
  ['post', '/_sandbox/clock/advance', 'api'],
  ['get', '/_sandbox/notifications', 'api'],
  ['get', '/_sandbox/payments/{id}', 'api'],
  ['post', '/_sandbox/faults', 'api'],
  ['get', '/_sandbox/faults/{id}', 'api'],
  ['delete', '/_sandbox/faults/{id}', 'api'],
  ['get', '/_sandbox/payments/{id}/story', 'api'],
  ['post', '/_sandbox/replay', 'api'],
  ['get', '/Home', 'api'],
  ['post', '/v1/preapprovals', 'api'],
  ['get', '/v1/preapprovals', 'api'],
  ['get', '/v1/preapprovals/{id}', 'api'],
  ['delete', '/v1/preapprovals/{id}', 'api'],
  ['get', '/v1/preapprovals/{id}/payments', 'api'],
  ['post', '/v1/payments/recurrent', 'api'],
  ['get', '/v1/payments/{id}/refunds/types', 'api'],
  ['get', '/v1/exchangerates/{id}/{split}', 'api'],
  ['post', '/_sandbox/preapprovals/{id}/events', 'api'],
  ['get', '/_sandbox/preapprovals/{id}', 'api'],
  ['get', '/Home/Preapproval', 'api'],
  ['post', '/Home/Preapproval/{id}', 'api'],
  ['put', '/v1/payments/{id}', 'api'],
  ['delete', '/v1/payments', 'card'],
];

const weirdId = fc.oneof(
  fc.constantFrom('1', '0', '-1', 'abc', '1%2F..', '..%2F..', '9007199254740993', '99999999999999999999', '1e3', '%00', '%E2%82%AC', '3005001', '7001', '3005003', 'ideal.svg', 'authorize', '4201', 'EUR', 'approve'),
  fc.integer({ min: -10, max: 3_100_000 }).map(String),
);

/**
 * The characters of fc.string({ unit: 'binary' }), drawn and shrunk by the very arbitrary fast-check
 * makes for them (every code point but the surrogates, in order), and told apart by their code point.
 * fast-check tells them by a map of all 1.1M code points, built when the string arbitrary is made
 * (seconds of CPU); the answer is the same, so the strings drawn, seed for seed, and their shrinks are too.
 */
class BinaryUnit extends fc.Arbitrary<string> {
  private readonly codePoint = fc.mapToConstant(
    { num: 0xd800, build: (i) => String.fromCodePoint(i) },
    { num: 0x110000 - 0xe000, build: (i) => String.fromCodePoint(0xe000 + i) },
  );
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    return this.codePoint.generate(mrng, biasFactor);
  }
  canShrinkWithoutContext(value: unknown): value is string {
    if (typeof value !== 'string' || value.length === 0 || value.length > 2) return false;
    const cp = value.codePointAt(0)!;
    return String.fromCodePoint(cp) === value && (cp < 0xd800 || cp >= 0xe000);
  }
  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    return this.codePoint.shrink(value, context);
  }
}
// One instance for every use.
const binaryString = fc.string({ unit: new BinaryUnit() });

const amount = fc.oneof(
  fc.constantFrom<unknown>('10.50', -5, 10.5, '', '0', 0, 1e21, '1e3', '１２', null, true, [], {}, 'NaN', 999999999999999, '0001'),
  fc.integer(),
  fc.string(),
  binaryString,
);

/** Bodies that look like requests but are wrong somewhere, and bodies that are not requests at all. */
const body = fc.oneof(
  fc.constant(undefined),
  fc.anything({ maxDepth: 3 }),
  fc.record({ Payment: fc.dictionary(fc.constantFrom('MerchantTransactionID', 'Amount', 'Currency', 'MethodID', 'ReturnURL', 'Splits', 'Customer', 'BillingAddress', 'Extra', 'TokenLifetime'), fc.oneof(amount, fc.anything({ maxDepth: 2 }))) }),
  fc.record({ Splits: fc.array(fc.record({ SiteID: fc.oneof(fc.integer(), fc.string()), Amount: amount, MerchantTransactionID: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }), { maxLength: 4 }) }),
  fc.record({ Preapproval: fc.dictionary(fc.constantFrom('MerchantPreapprovalID', 'MethodID', 'PreapprovedMaximumAmount', 'Currency', 'ReturnURL', 'Customer', 'RecurringPeriod', 'Extra'), fc.oneof(amount, fc.anything({ maxDepth: 2 }))) }),
  fc.record({ Payment: fc.record({ PreapprovalID: fc.oneof(fc.constant(4201), fc.integer(), fc.string()), MerchantTransactionID: fc.string(), Amount: amount, Currency: fc.constantFrom('EUR', 'eur', '') }, { requiredKeys: [] }) }),
  fc.record({ Refund: fc.record({ Amount: amount, Description: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }) }),
  fc.record({ Event: fc.oneof(fc.constantFrom('authorize', 'succeed', 'fail', 'settle', 'expire', 'cancel'), fc.string()), Seconds: fc.oneof(fc.double(), fc.string()) }, { requiredKeys: [] }),
  binaryString.map((s) => ({ raw: s, MerchantTransactionID: s })),
  fc.constantFrom('{', '{"Payment":', '[1,2', 'null', '"text"', '{"a":1e999}', '\u0000', '{"Payment":{"Amount":1e3}}', '['.repeat(5000) + ']'.repeat(5000)),
);

const authHeader = fc.oneof(
  fc.constant('valid'),
  fc.constantFrom('', 'Basic', 'Basic !!!', 'Bearer x', `Basic ${Buffer.from('30201').toString('base64')}`, basic(30201, 'wrong'), basic(99999, 'x'), basic(30300, 'P1ainSh0p+Key/For=Sandbox')),
  fc.string().map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
);

/**
 * "A rejected request changes nothing", checked on the database's image: the same bytes are the same
 * rows, and only when the bytes differ are the rows compared (so a request that wrote and rolled back
 * passes, as it does with the rows alone). The image before a request is copied again only when a
 * write may have happened since the last copy: the store's dataStamp() moves with every change but
 * the request journal's (which is in a database of its own, not in the image, and written after each
 * answer), a change of tables moves schema_version. A stale copy could only fail the test.
 */
function unchangedCheck() {
  let last: { db: Db; stamp: string; schema: number; image: Buffer } | undefined;
  // Prepared once for each connection: preparing is most of what asking costs.
  const statements = new WeakMap<Db, Statement>();
  const state = (store: Store) => {
    const { db } = store;
    let schema = statements.get(db);
    if (!schema) statements.set(db, (schema = db.prepare('PRAGMA schema_version').pluck()));
    return { stamp: store.dataStamp(), schema: schema.get() as number };
  };
  return {
    before(store: Store): Buffer {
      const { db } = store;
      const now = state(store);
      if (last?.db !== db || last.stamp !== now.stamp || last.schema !== now.schema) last = { db, ...now, image: db.serialize() };
      return last.image;
    },
    expectUnchanged(store: Store, before: Buffer): void {
      const { db } = store;
      const image = db.serialize();
      last = { db, ...state(store), image };
      if (image.equals(before)) return;
      const copy = new Database(before);
      try {
        expect(snapshot(store)).toBe(snapshot({ db: copy } as unknown as Store));
      } finally {
        copy.close();
      }
    },
  };
}

/**
 * One connection for the generated requests, kept open between them, as a client's would be: a new
 * connection per request costs both ends more than most requests do.
 */
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** A server for the whole file: supertest would otherwise open and close one per request. */
function listening(app: World['api']): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(app);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/xml', undefined);

describe('fuzzing every endpoint', () => {
  let w: World;
  let apiServer: Server;
  let cardServer: Server;
  /**
   * The generated requests, sent as supertest sends them (the same bytes) and their answers checked
   * against the OpenAPI document as supertest's are, without superagent: on its client side each
   * request cost about as much as the sandbox's answer.
   */
  const send = (surface: Surface, r: PlainRequest) => plainRequest(surface === 'api' ? apiServer : cardServer, keepAlive, surface, r);
  beforeAll(async () => {
    w = makeWorld();
    [apiServer, cardServer] = await Promise.all([listening(w.api), listening(w.card)]);
    await authorizedPayment(w, { MerchantTransactionID: 'fuzz-authorized' });
    // An Open preapproval (4201), for the recurring-payments API.
    const pre = await request(w.api).post('/v1/preapprovals').set('Authorization', w.auth).send({ Preapproval: { MerchantPreapprovalID: 'fuzz-pre', MethodID: 2 } });
    await request(w.api).post(`/_sandbox/preapprovals/${pre.body.Preapproval.ID}/events`).send({ Event: 'open' }).expect(200);
    const paid = await createPayment(w, { MethodID: 2, MerchantTransactionID: 'fuzz-paid' });
    await event(w, paid.ID, 'succeed');
    // A captured card payment (3005003), for the card address's actions.
    const card = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({ Payment: { MerchantTransactionID: 'fuzz-card', Amount: 9000, Currency: 'EUR', Capture: false, Card: { HolderName: 'A B', Number: '4111111111111111', ExpirationMonth: '1', ExpirationYear: '2031' } } });
    await request(w.card).post(`/v1/payments/${card.body.Payment.ID}/capture?amount=4500`).set('Authorization', w.auth).expect(200);
  });
  afterAll(async () => {
    keepAlive.destroy();
    await Promise.all([apiServer, cardServer].map((server) => new Promise((resolve) => server.close(resolve))));
    w.close();
  });

  it('answers every malformed request with a documented 4xx and changes nothing', async () => {
    const unchanged = unchangedCheck();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        weirdId,
        weirdId,
        body,
        authHeader,
        contentType,
        fc.dictionary(fc.constantFrom('pageSize', 'pageindex', 'statusID', 'limit', 'offset', 'amount', 'startDate', 'currency', 'PaymentToken', 'State', 'country', 'additionalDetails'), fc.oneof(fc.string(), fc.integer().map(String))),
        async ([method, template, surface], id, split, b, authorization, type, query) => {
          const was = unchanged.before(w.store);
          const path = template.replace('{id}', id).replace('{split}', split);
          const headers: [string, string][] = [['Authorization', authorization === 'valid' ? w.auth : authorization]];
          if (type) headers.push(['Content-Type', type]);
          const res = await send(surface, { method, path, query, headers, body: b === undefined ? undefined : typeof b === 'string' ? b : JSON.stringify(b) });
          // Each expectation is made when it does not hold: expect() builds its whole set of matchers
          // on each call, which thousands of iterations feel. The failure reads the same.
          if (!(res.status < 500)) expect(res.status).toBeLessThan(500);
          if (res.status >= 400) {
            if (/^text\/html/.test(res.headers['content-type'] ?? '')) {
              if (!/<h1>/.test(res.text)) expect(res.text).toMatch(/<h1>/);
            } else if (!documented(res.body)) expect({ path, status: res.status, documented: false }).toEqual({ path, status: res.status, documented: true });
            unchanged.expectUnchanged(w.store, was);
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS || 3000), seed: Number(process.env.FUZZ_SEED || 20261122) },
    );
  }, 180_000);

  it('refuses an X-Sandbox-Fault header that names no fault with 400, and the request does nothing', async () => {
    const unchanged = unchangedCheck();
    const valid = /^\s*(500|502|503|504|429|408|reset|lose-answer|delay=.*)\s*$/i;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES.filter(([, path]) => path.startsWith('/v1/'))),
        fc.oneof(fc.string(), fc.constantFrom('200', '5033', 'delay=', 'delay=-1s', 'delay=1y', 'lose', 'RESET ,reset', '503,503')),
        async ([method, template, surface], value) => {
          fc.pre(!valid.test(value) && /^[\x20-\x7e]*$/.test(value));
          const was = unchanged.before(w.store);
          const res = await send(surface, {
            method,
            path: template.replace('{id}', '3005001').replace('{split}', '7001'),
            headers: [
              ['Authorization', w.auth],
              ['X-Sandbox-Fault', value],
            ],
          });
          // Made only when it may not hold (see above): an answer of exactly {"Message": "X-Sandbox-Fault must be one of…"} passes it.
          const body = res.body as { Message?: unknown } | null;
          const refused = res.status === 400 && typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 1 && typeof body.Message === 'string' && /^X-Sandbox-Fault must be one of/.test(body.Message);
          if (!refused) expect([value, res.status, res.body]).toEqual([value, 400, { Message: expect.stringMatching(/^X-Sandbox-Fault must be one of/) }]);
          unchanged.expectUnchanged(w.store, was);
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it('refuses bodies of 2 MiB with 413 on every address', async () => {
    const big = JSON.stringify({ Payment: { Description: 'x'.repeat(2 * 1024 * 1024) } });
    for (const app of [w.api, w.card]) {
      const before = snapshot(w.store);
      const res = await request(app).post('/v1/payments').set('Authorization', w.auth).set('Content-Type', 'application/json').send(big);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ Message: expect.any(String) });
      expect(snapshot(w.store)).toBe(before);
    }
  });
});
