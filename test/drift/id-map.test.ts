// Real ↔ shadow IDs: learnt from two answers side by side, used on paths, bodies and queries.
import { IdMap } from '../../src/drift/id-map';
import { routeOf } from '../../src/drift/proxy';

describe('IdMap', () => {
  const learnt = () => {
    const ids = new IdMap();
    ids.learnFrom(
      { Payment: { ID: 3005042, Splits: [{ ID: 11 }, { ID: 12 }], PreapprovalID: null, CreditCardToken: 'real-tok' } },
      { Payment: { ID: 7, Splits: [{ ID: 1 }, { ID: 2 }], PreapprovalID: null, CreditCardToken: 'shadow-tok' } },
    );
    ids.learnFrom({ Refund: { ID: 501, PaymentID: 3005042 } }, { Refund: { ID: 3, PaymentID: 7 } });
    return ids;
  };

  it('pairs the IDs that stand at the same place, by kind', () => {
    const ids = learnt();
    expect(ids.shadowOf('payment', 3005042)).toBe(7);
    expect(ids.shadowOf('split', 12)).toBe(2);
    expect(ids.shadowOf('refund', 501)).toBe(3);
    expect(ids.shadowOf('card token', 'real-tok')).toBe('shadow-tok');
    expect(ids.realOf('split', 1)).toBe(11);
    // A payment ID is no split's.
    expect(ids.shadowOf('split', 3005042)).toBeUndefined();
  });

  it('maps paths, bodies and queries, and gives null for an ID this run never saw', () => {
    const ids = learnt();
    expect(ids.shadowPath('/v1/payments/3005042/splits/12/capture')).toBe('/v1/payments/7/splits/2/capture');
    expect(ids.shadowPath('/v1/payments/3005042/refunds/501/status')).toBe('/v1/payments/7/refunds/3/status');
    expect(ids.shadowPath('/v1/payments/recurrent')).toBe('/v1/payments/recurrent');
    expect(ids.shadowPath('/v1/payments/999')).toBeNull();
    expect(ids.shadowBody({ Payment: { Splits: [{ ID: 11, Amount: 600 }] } })).toEqual({ Payment: { Splits: [{ ID: 1, Amount: 600 }] } });
    expect(ids.shadowBody({ Payment: { Splits: [{ ID: 99, Amount: 600 }] } })).toBeNull();
    expect(ids.shadowQuery('PaymentID=3005042&PageSize=2')).toBe('PaymentID=7&PageSize=2');
    expect(ids.shadowQuery('PaymentID=1')).toBeNull();
  });

  it('writes the shadow’s answer with the real IDs, leaving an unpaired one as it is', () => {
    const ids = learnt();
    expect(ids.asReal({ Payment: { ID: 7, Splits: [{ ID: 2 }, { ID: 5 }] }, Refund: { ID: 3, PaymentID: 7 } })).toEqual({
      Payment: { ID: 3005042, Splits: [{ ID: 12 }, { ID: 5 }] },
      Refund: { ID: 501, PaymentID: 3005042 },
    });
  });

  it('names routes with their IDs as {id}', () => {
    expect(routeOf('/v1/payments/3005042/splits/12/capture')).toBe('/v1/payments/{id}/splits/{id}/capture');
    expect(routeOf('/v1/card/token/abc')).toBe('/v1/card/token/{id}');
    expect(routeOf('/v1/payments/recurrent')).toBe('/v1/payments/recurrent');
  });
});
