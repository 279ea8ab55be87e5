// A create in a commit group writes without a savepoint of its own (Store.txChecked): its refusals
// come before its first write, and a write that fails undoes the whole group, as a failed commit does.
import request from 'supertest';
import { createPayment } from '../../src/services/payments.service';
import { isStorageFailure } from '../../src/store/failures';
import { MARKETPLACE, type World, makeWorld, paymentBody, snapshot } from '../helpers/world';

const GROUP_UNDONE = 'a change stored together with it failed, and both were undone; try again';

type Runnable = { run(): unknown };
type Statements = Record<'savepoint' | 'release' | 'rollbackTo' | 'rollback', Runnable>;

/** Counts the savepoints the store opens. */
function savepoints(w: World) {
  const stmt = (w.store as unknown as { stmt: Statements }).stmt;
  const real = stmt.savepoint;
  const seen = { opened: 0 };
  stmt.savepoint = { run: () => (seen.opened++, real.run()) };
  return { seen, restore: () => (stmt.savepoint = real) };
}

describe('a create in a commit group', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => {
    jest.restoreAllMocks();
    w.close();
  });

  it('opens no savepoint, and answers and stores what a create did before', async () => {
    const { seen, restore } = savepoints(w);
    let res;
    try {
      res = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'one' }));
    } finally {
      restore();
    }
    expect(res.status).toBe(201);
    expect(seen.opened).toBe(0);
    const read = await request(w.api).get(`/v1/payments/${res.body.Payment.ID}`).set('Authorization', w.auth);
    expect(read.body.Payment.Splits).toEqual(res.body.Payment.Splits);
    expect(read.body.Payment.Customer).toEqual(res.body.Payment.Customer);
  });

  it('refused as a duplicate beside two creates of the same turn, is undone alone: they are stored', async () => {
    await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'taken' })).expect(201);
    const server = w.api.listen(0, '127.0.0.1');
    try {
      const agent = request(server);
      const answers = await Promise.all(
        ['a', 'taken', 'b'].map((id) => agent.post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: id }))),
      );
      expect(answers.map((r) => r.status)).toEqual([201, 400, 201]);
      expect(answers[1]!.body.Payment.Status.Reasons[0].Code).toBe(20);
      const list = await agent.get('/v1/payments?pageSize=100').set('Authorization', w.auth);
      expect(list.body.Payments.map((p: { MerchantTransactionID: string }) => p.MerchantTransactionID).sort()).toEqual(['a', 'b', 'taken']);
    } finally {
      server.close();
    }
  });

  it('whose write fails undoes the whole group: what waited for it fails with a 503, nothing of the turn is kept, the next turn works', async () => {
    const before = snapshot(w.store);
    const real = w.store.splits.insertAll.bind(w.store.splits);
    jest.spyOn(w.store.splits, 'insertAll').mockImplementation((rows) => {
      if (rows.some((r) => r.merchantTransactionId === 'breaks')) throw new Error('a write that fails');
      return real(rows);
    });
    const site = w.store.sites.get(MARKETPLACE.SiteID)!;
    const body = (id: string) => paymentBody({ MerchantTransactionID: id, Splits: [{ SiteID: 30202, Amount: '1', MerchantTransactionID: id }] });
    const outcomes: (string | null)[] = [];
    // Three creates of one turn, as a burst of requests is: the second fails while writing.
    createPayment(w.services, site, body('before'));
    w.store.afterCommit((err) => outcomes.push(err && err.message));
    expect(() => createPayment(w.services, site, body('breaks'))).toThrow('a write that fails');
    w.store.afterCommit((err) => outcomes.push(err && err.message));
    expect(isStorageFailure(await new Promise((r) => w.store.afterCommit(r)))).toBe(true);
    expect(outcomes).toEqual([GROUP_UNDONE, GROUP_UNDONE]);
    expect(snapshot(w.store)).toBe(before);
    const list = await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect(list.body.TotalCount).toBe(0);
    // Answered over HTTP, the failing create is a 503 too; the next one is stored.
    const failed = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body('breaks'));
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ Message: `The change could not be saved: ${GROUP_UNDONE}` });
    expect(snapshot(w.store)).toBe(before);
    const again = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(body('before'));
    expect(again.status).toBe(201);
  });

  it('after a create undone with its group, the same MerchantTransactionID is free, and the kept count agrees with the table', async () => {
    jest.spyOn(w.store.history, 'record').mockImplementationOnce(() => {
      throw new Error('a write that fails');
    });
    const failed = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'again' }));
    expect(failed.status).toBe(503);
    const ok = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody({ MerchantTransactionID: 'again' }));
    expect(ok.status).toBe(201);
    const list = await request(w.api).get('/v1/payments').set('Authorization', w.auth);
    expect(list.body.TotalCount).toBe(1);
  });
});
