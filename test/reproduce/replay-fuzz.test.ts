// Stories edited by hand (or by mistake) before a replay: whatever a step or the request holds, the
// replay is a 201 or a 400 that changes nothing, and no step of the replayed payment fails
// unexpectedly when it runs.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import request from 'supertest';
import { paymentBody } from '../helpers/world';
import { AUTH, type Rig, advance, boot, shutdown } from '../lifecycle/harness';
import { tablesOf } from './helpers';

const value = fc.oneof(
  fc.constantFrom<unknown>(0, -1, 1, 2, 99, 1e20, 2 ** 53, 1.5, '', 'x', '50%', '100%', '999999999999', null, true, [], {}, [{}], '9999999999h', '1e3ms'),
  fc.integer(),
  fc.string({ maxLength: 8 }),
);
const stepKey = fc.constantFrom('Do', 'After', 'On', 'Split', 'Amount', 'Splits', 'NewSplits', 'Refund', 'Description', 'MerchantTransactionID');
const requestKey = fc.constantFrom('MerchantTransactionID', 'Amount', 'Currency', 'MethodID', 'Splits', 'TokenLifetime', 'Customer', 'ReturnURL');

describe('replaying edited stories', () => {
  let rig: Rig | undefined;
  afterAll(async () => shutdown(rig));

  it('answers 201 or a 400 that changes nothing, and its steps never fail unexpectedly', async () => {
    rig = await boot();
    const { sb } = rig;
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', AUTH).set('X-Sandbox-Scenario', 'two-step').send(paymentBody())).body.Payment;
    await advance(sb, 2);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/splits/${p.Splits[0].ID}/capture?amount=300`).set('Authorization', AUTH).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/splits/${p.Splits[0].ID}/refunds`).set('Authorization', AUTH).send({ Refund: { Amount: 100 } }).expect(201);
    await advance(sb, 2);
    const story = (await request(sb.baseUrl).get(`/_sandbox/payments/${p.ID}/story`)).body;
    expect(story.Steps.length).toBeGreaterThanOrEqual(4);

    // The rows before a replay are those the last reading found, while nothing has been written since
    // (changeStamp() moves with every write, the request journal's too): a refused replay leaves the
    // tables as they were, and reading them all again was most of what the next run cost. A stale
    // reading could only fail the test; the rows after a refusal are always read afresh.
    const store = sb.services.store;
    let last: { stamp: string; tables: Record<string, unknown[]> } | undefined;
    const read = () => {
      const tables = tablesOf(store);
      last = { stamp: store.changeStamp(), tables };
      return tables;
    };
    const unchangedSinceRead = () => {
      store.writePending();
      return last?.stamp === store.changeStamp() ? last.tables : read();
    };

    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.tuple(fc.constant('step'), fc.nat(5), stepKey, value), fc.tuple(fc.constant('request'), fc.constant(0), requestKey, value)), { minLength: 1, maxLength: 3 }),
        async (edits) => {
          const edited = structuredClone(story);
          for (const [where, i, key, v] of edits) {
            const target = where === 'step' ? edited.Steps[i % edited.Steps.length] : edited.Request.Payment;
            target[key] = v;
          }
          const before = unchangedSinceRead();
          const res = await request(sb.baseUrl).post('/_sandbox/replay').send(edited);
          expect([201, 400]).toContain(res.status);
          if (res.status === 400) {
            expect(Object.keys(res.body)).toEqual(['Message']);
            const after = read();
            // Rows strictly equal are equal to toEqual as well: only rows that differ are handed to it,
            // whose deep comparison of every row of every table was most of the time of a run.
            if (!isDeepStrictEqual(after, before)) expect(after).toEqual(before);
            return;
          }
          await advance(sb, 10);
          const steps = (await request(sb.baseUrl).get(`/_sandbox/payments/${res.body.PaymentID}`)).body.Steps as { Outcome: string | null }[];
          for (const s of steps) expect(String(s.Outcome)).not.toMatch(/^error:/);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS || 150), seed: Number(process.env.FUZZ_SEED || 20261123) },
    );
  }, 120_000);
});
