// Faults on the API channel: each action on both addresses, with what it leaves in the store; the
// matching by method, path, SiteID and PaymentID; Times and a seeded Probability; the request's own
// X-Sandbox-Fault header; and the log lines that say which fault answered.
import { once } from 'node:events';
import request from 'supertest';
import type { FaultHit } from '../../src/faults/faults';
import { createLogger } from '../../src/log';
import type { Store } from '../../src/store/store';
import { type World, authorizedPayment, basic, createPayment, makeWorld, paymentBody } from '../helpers/world';

/** Every table but the fault rules (whose Hits count the requests they act on) and the request journal. */
function data(store: Store): string {
  const tables = store.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('faults', 'requests') ORDER BY name`).pluck().all() as string[];
  const rows = (t: string) => store.db.prepare(t === 'sqlite_sequence' ? `SELECT * FROM sqlite_sequence WHERE name <> 'requests'` : `SELECT * FROM "${t}"`).all();
  return JSON.stringify(tables.map((t) => [t, rows(t)]));
}

async function addFault(w: World, rule: object): Promise<number> {
  const res = await request(w.api).post('/_sandbox/faults').send(rule);
  if (res.status !== 201) throw new Error(`fault refused: ${JSON.stringify(res.body)}`);
  return res.body.Fault.ID;
}

const hitsOf = async (w: World, id: number) => (await request(w.api).get(`/_sandbox/faults/${id}`)).body.Fault.Hits as number;

/** The error a client sees when the connection closes without an answer. */
const noAnswer = (p: PromiseLike<unknown>) => Promise.resolve(p).then(() => 'answered', (e: NodeJS.ErrnoException) => `${e.code}: ${e.message}`);

/** Whether `p` settles while the event loop turns a few times (no real time passes). */
async function settlesSoon(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 20 && !done; i++) await new Promise((r) => setImmediate(r));
  return done;
}

describe('api faults', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it.each([500, 502, 503, 504])('Status %i answers {"Message":"An error has occurred."} and creates nothing', async (status) => {
    const id = await addFault(w, { Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments' }, Action: { Status: status } });
    const before = data(w.store);
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody());
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ Message: 'An error has occurred.' });
    expect(data(w.store)).toBe(before);
    expect(w.store.payments.getAny(3005001)).toBeUndefined();
    expect(await hitsOf(w, id)).toBe(1);
  });

  it('Status 429 says when to retry (Retry-After: 1); 408 closes the connection', async () => {
    await addFault(w, { Channel: 'api', Match: { Method: 'GET' }, Action: { Status: 429 }, Times: 1 });
    await addFault(w, { Channel: 'api', Match: { Method: 'GET' }, Action: { Status: 408 }, Times: 1 });
    const first = await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect([first.status, first.headers['retry-after'], first.body]).toEqual([429, '1', { Message: 'Too many requests: retry after 1 second.' }]);
    const second = await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect([second.status, second.headers.connection, second.body]).toEqual([408, 'close', { Message: 'The request timed out.' }]);
    // Both spent: the third is answered by the route.
    expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status).toBe(200);
  });

  it('Status on a capture leaves the payment Authorized, and the capture works once the rule is spent', async () => {
    const p = await authorizedPayment(w);
    await addFault(w, { Channel: 'api', Match: { Path: '/v1/payments/{id}/capture' }, Action: { Status: 503 }, Times: 1 });
    const before = data(w.store);
    expect((await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth)).status).toBe(503);
    expect(data(w.store)).toBe(before);
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(9);
    const retried = await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth);
    expect([retried.status, retried.body.Payment.Status.ID]).toEqual([200, 2]);
  });

  it('Reset closes the connection with no answer, and nothing happens', async () => {
    const p = await authorizedPayment(w);
    const id = await addFault(w, { Channel: 'api', Match: { Method: 'POST', PaymentID: p.ID }, Action: { Reset: true } });
    const before = data(w.store);
    expect(await noAnswer(request(w.api).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', w.auth))).toBe('ECONNRESET: socket hang up');
    expect(data(w.store)).toBe(before);
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(9);
    expect(await hitsOf(w, id)).toBe(1);
  });

  it('LoseAnswer commits the create, then closes the connection; the retry gets reason 20 and a list by MerchantTransactionID finds the payment', async () => {
    const id = await addFault(w, { Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments' }, Action: { LoseAnswer: true }, Times: 1 });
    const body = paymentBody({ MerchantTransactionID: 'order-lost-1' });
    expect(await noAnswer(request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body))).toBe('ECONNRESET: socket hang up');
    const stored = w.store.payments.getAny(3005001)!;
    expect([stored.merchantTransactionId, stored.statusId]).toEqual(['order-lost-1', 1]);
    expect(w.store.splits.ofPayment(3005001)).toHaveLength(3);

    const retry = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body);
    expect(retry.status).toBe(400);
    expect(retry.body.Payment.ID).toBeNull();
    expect(retry.body.Payment.Status).toEqual({ ID: null, Info: null, Reasons: [{ Code: 20, Info: expect.stringContaining('order-lost-1') }] });

    const found = await request(w.api).get('/v1/payments?merchantTransactionID=order-lost-1').set('Authorization', w.auth);
    expect(found.body.Payments.map((x: any) => [x.ID, x.MerchantTransactionID])).toEqual([[3005001, 'order-lost-1']]);
    expect(await hitsOf(w, id)).toBe(1);
  });

  it('LoseAnswer on a capture: the capture is kept, and a second one is refused with reason 17', async () => {
    const p = await authorizedPayment(w);
    await addFault(w, { Channel: 'api', Match: { Path: `/v1/payments/${p.ID}/capture` }, Action: { LoseAnswer: true }, Times: 1 });
    expect(await noAnswer(request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth))).toBe('ECONNRESET: socket hang up');
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(2);
    const again = await request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth);
    expect([again.status, again.body.Payment.Status.Reasons]).toEqual([400, [{ Code: 17, Info: expect.any(String) }]]);
  });

  it('Delay answers when the sandbox clock reaches it; the capture itself is done at once', async () => {
    const p = await authorizedPayment(w);
    await addFault(w, { Channel: 'api', Match: { Path: '/v1/payments/{id}/capture' }, Action: { Delay: '2s' } });
    const hit = once(w.services.faults!.events, 'hit');
    const answer = request(w.api).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth).then((r) => r);
    expect((await hit)[0]).toEqual<FaultHit>({ FaultID: 1, Channel: 'api', Effect: 'delayed 2s', Target: `POST /v1/payments/${p.ID}/capture` });
    expect(await settlesSoon(answer)).toBe(false);
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(2);
    w.clock.advance(1999);
    expect(await settlesSoon(answer)).toBe(false);
    w.clock.advance(1);
    const res = await answer;
    expect([res.status, res.body.Payment.Status]).toEqual([200, { ID: 2, Info: 'Success', Reasons: null }]);
  });

  it('acts on the card address too, by the same path', async () => {
    await addFault(w, { Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments' }, Action: { Status: 502 } });
    const card = { Payment: { MerchantTransactionID: 'card-1', Amount: 2000, Currency: 'EUR', Capture: true, Card: { HolderName: 'Ada', Number: '4111111111111111', ExpirationMonth: '12', ExpirationYear: '2030', SecurityCode: '123' } } };
    const res = await request(w.card).post('/v1/payments').set('Authorization', w.auth).send(card);
    expect([res.status, res.body]).toEqual([502, { Message: 'An error has occurred.' }]);
    expect(w.store.db.prepare('SELECT count(*) FROM payments').pluck().get()).toBe(0);
  });

  it('matches a concrete path, a template, a method and a payment, and nothing else', async () => {
    const a = await authorizedPayment(w);
    const b = await authorizedPayment(w);
    await addFault(w, { Channel: 'api', Match: { Method: 'GET', Path: `/v1/payments/${a.ID}` }, Action: { Status: 500 } });
    await addFault(w, { Channel: 'api', Match: { Path: '/v1/payments/{id}/splits/{splitId}/capture' }, Action: { Status: 504 } });
    await addFault(w, { Channel: 'api', Match: { Method: 'POST', PaymentID: b.ID }, Action: { Status: 503 } });
    const get = (path: string) => request(w.api).get(path).set('Authorization', w.auth).then((r) => r.status);
    const post = (path: string) => request(w.api).post(path).set('Authorization', w.auth).then((r) => r.status);
    expect(await get(`/v1/payments/${a.ID}`)).toBe(500);
    expect(await get(`/v1/payments/${a.ID}/`)).toBe(500);
    expect(await get(`/v1/payments/${b.ID}`)).toBe(200); // GET: the PaymentID rule is for POST
    expect(await get('/v1/payments')).toBe(200);
    expect(await post(`/v1/payments/${a.ID}/splits/${a.Splits[0]!.ID}/capture`)).toBe(504);
    expect(await post(`/v1/payments/${b.ID}/cancel`)).toBe(503);
    expect(await post(`/v1/payments/${a.ID}/cancel`)).toBe(200);
  });

  it('counts Times: the rule acts on that many requests, then lets them through', async () => {
    const id = await addFault(w, { Channel: 'api', Match: { Method: 'GET' }, Action: { Status: 503 }, Times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect(await hitsOf(w, id)).toBe(2);
    expect(w.services.faults!.apiRules).toBe(0); // spent: out of the index, still listed
    expect((await request(w.api).get('/_sandbox/faults')).body.Faults).toHaveLength(1);
  });

  it('writes a log line that names the fault', async () => {
    const lines: string[] = [];
    w.ctx.log = createLogger('info', 'json', (l) => lines.push(l));
    await addFault(w, { Channel: 'api', Action: { Status: 503 } });
    await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', 'reset').send(paymentBody()).catch(() => {});
    const msgs = lines.map((l) => JSON.parse(l)).map((l) => [l.level, l.msg, l.fault]);
    expect(msgs).toEqual([
      ['info', 'GET /v1/payments answered 503 by fault 1', 1],
      ['info', 'POST /v1/payments connection reset by X-Sandbox-Fault', undefined],
    ]);
  });
});

describe('api faults scoped by SiteID', () => {
  it('a rule for one marketplace never touches another; a request that fails authentication has no site', async () => {
    const w = makeWorld();
    try {
      const mk = async () => (await request(w.api).post('/_sandbox/merchants').send({ LinkedSites: 1 })).body.Merchant;
      const [a, b] = [await mk(), await mk()];
      const id = await addFault(w, { Channel: 'api', Match: { SiteID: a.SiteID }, Action: { Status: 503 } });
      const create = (m: any, key = m.APIKey) =>
        request(w.api)
          .post('/v1/payments')
          .set('Authorization', basic(m.SiteID, key))
          .send(paymentBody({ Splits: [{ SiteID: m.LinkedSiteIDs[0], Amount: '500', MerchantTransactionID: 's' }] }));
      expect((await create(a)).status).toBe(503);
      expect((await create(b)).status).toBe(201);
      expect((await create(a, 'wrong-key')).status).toBe(401);
      expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status).toBe(200);
      expect(await hitsOf(w, id)).toBe(1);
      expect(w.store.db.prepare('SELECT owner_site_id FROM payments').pluck().all()).toEqual([b.SiteID]);
    } finally {
      w.close();
    }
  });
});

describe('Probability', () => {
  async function pattern(seed: number): Promise<string> {
    const w = makeWorld({ seed });
    try {
      await addFault(w, { Channel: 'api', Match: { Method: 'GET' }, Action: { Status: 503 }, Probability: 0.5, Times: 6 });
      // Another rule's draws in between change nothing: each rule has its own sequence.
      await addFault(w, { Channel: 'api', Match: { Method: 'POST' }, Action: { Status: 500 }, Probability: 0.5 });
      let out = '';
      for (let i = 0; i < 24; i++) {
        if (i % 3 === 0) await request(w.api).post('/v1/payments/1/cancel').set('Authorization', w.auth);
        out += (await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status === 503 ? 'x' : '.';
      }
      expect(await hitsOf(w, 1)).toBe([...out].filter((c) => c === 'x').length);
      return out;
    } finally {
      w.close();
    }
  }

  it('gives the same hits for the same seed, twice, and others for another seed', async () => {
    const first = await pattern(7);
    expect(await pattern(7)).toBe(first);
    expect([...first].filter((c) => c === 'x')).toHaveLength(6); // Times: 6 hits, then none
    expect(first).toMatch(/^[x.]*x\.+$/);
    expect(first).not.toMatch(/^x{6}/); // some requests were let through before the sixth hit
    expect(await pattern(8)).not.toBe(first);
  });

  it('of 0 never acts, of 1 always', async () => {
    const w = makeWorld();
    try {
      await addFault(w, { Channel: 'api', Match: { Method: 'GET' }, Action: { Status: 503 }, Probability: 0 });
      await addFault(w, { Channel: 'api', Match: { Method: 'POST' }, Action: { Status: 503 }, Probability: 1 });
      for (let i = 0; i < 5; i++) {
        expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status).toBe(200);
        expect((await request(w.api).post('/v1/payments/1/cancel').set('Authorization', w.auth)).status).toBe(503);
      }
    } finally {
      w.close();
    }
  });
});

describe('X-Sandbox-Fault', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('503 answers that status for this request only, and creates nothing', async () => {
    const before = data(w.store);
    const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', '503').send(paymentBody());
    expect([res.status, res.body]).toEqual([503, { Message: 'An error has occurred.' }]);
    expect(data(w.store)).toBe(before);
    expect((await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody())).status).toBe(201);
  });

  it('reset closes the connection and nothing happens; lose-answer keeps the payment', async () => {
    const before = data(w.store);
    const body = paymentBody({ MerchantTransactionID: 'hdr-1' });
    expect(await noAnswer(request(w.api).post('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', 'reset').send(body))).toBe('ECONNRESET: socket hang up');
    expect(data(w.store)).toBe(before);
    expect(await noAnswer(request(w.api).post('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', 'lose-answer').send(body))).toBe('ECONNRESET: socket hang up');
    expect(w.store.payments.getAny(3005001)!.merchantTransactionId).toBe('hdr-1');
  });

  it('delay=2s answers when the clock reaches it', async () => {
    const p = await createPayment(w);
    const hit = once(w.services.faults!.events, 'hit');
    const answer = request(w.api).get(`/v1/payments/${p.ID}`).set('Authorization', w.auth).set('X-Sandbox-Fault', 'delay=2s').then((r) => r);
    expect((await hit)[0]).toMatchObject({ FaultID: null, Effect: 'delayed 2s' });
    expect(await settlesSoon(answer)).toBe(false);
    w.clock.advance(2000);
    expect((await answer).body.Payment.ID).toBe(p.ID);
  });

  it('is refused with 400 when it is no known fault, and the request does nothing', async () => {
    const before = data(w.store);
    for (const value of ['200', 'explode', 'delay=forever', 'delay=25h', '']) {
      const res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', value).send(paymentBody());
      expect([value, res.status, res.body]).toEqual([
        value,
        400,
        { Message: 'X-Sandbox-Fault must be one of 500, 502, 503, 504, 429, 408, reset, lose-answer or delay=<duration> (e.g. delay=2s)' },
      ]);
    }
    expect(data(w.store)).toBe(before);
  });

  it('needs no control access, and is ignored outside /v1', async () => {
    const guarded = makeWorld();
    guarded.ctx.controlToken = 'secret';
    try {
      const res = await request(guarded.api).get('/v1/payments').set('Authorization', guarded.auth).set('X-Sandbox-Fault', '504');
      expect(res.status).toBe(504);
      expect((await request(guarded.api).get('/_sandbox/health').set('X-Sandbox-Fault', '503')).status).toBe(200);
      expect((await request(guarded.api).get('/dashboard/login').set('X-Sandbox-Fault', '503')).status).toBe(200);
    } finally {
      guarded.close();
    }
  });

  it('takes the place of the rules for its request: no rule is looked at or counted', async () => {
    const id = await addFault(w, { Channel: 'api', Action: { Status: 500 } });
    expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth).set('X-Sandbox-Fault', '429')).status).toBe(429);
    expect(await hitsOf(w, id)).toBe(0);
  });
});
