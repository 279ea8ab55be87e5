// DriftReport: one difference per kind, route and field, counted; and nothing secret kept in one.
import { DriftReport, compareExchange, type CallRef, type Difference } from '../../src/drift/differences';
import { maskPath, maskValue } from '../../src/drift/mask';

const at = (n: number): CallRef => ({ Method: 'GET', Path: `/v1/payments/${n}`, JournalID: n, At: `2026011510000${n}` });
const missing = (n: number) =>
  compareExchange({ route: 'GET /v1/payments/{id}', call: at(n), upstream: { status: 200, body: { Payment: { Amount: '100', Fraud: null } } }, shadow: { status: 200, body: { Payment: { Amount: String(100 + n) } } } });

describe('DriftReport', () => {
  it('keeps a field missing on every GET as one difference with a count, the first call and values kept', () => {
    const report = new DriftReport();
    for (const n of [1, 2, 3]) report.add(missing(n));
    expect(report.list()).toEqual([
      { Kind: 'value', Route: 'GET /v1/payments/{id}', Field: 'Payment.Amount', Upstream: '100', Shadow: '101', Count: 3, Call: at(1) },
      { Kind: 'missing field', Route: 'GET /v1/payments/{id}', Field: 'Payment.Fraud', Upstream: null, Shadow: undefined, Count: 3, Call: at(1) },
    ]);
  });

  it('keeps the same field of two routes, or of two kinds, apart', () => {
    const report = new DriftReport();
    const base = { Field: 'Payment.Amount', Upstream: '1', Shadow: 1, Call: at(1) };
    report.add([{ ...base, Kind: 'type', Route: 'GET /v1/payments/{id}' }, { ...base, Kind: 'type', Route: 'POST /v1/payments' }, { ...base, Kind: 'value', Route: 'POST /v1/payments' }]);
    expect(report.list().map((d) => d.Count)).toEqual([1, 1, 1]);
  });

  it('tells its listeners of each new difference and each grown count', () => {
    const report = new DriftReport();
    const heard: Difference[] = [];
    report.on('difference', (d) => heard.push(d));
    report.add(missing(1));
    report.add(missing(2));
    expect(heard.map((d) => [d.Field, d.Count])).toEqual([
      ['Payment.Amount', 1],
      ['Payment.Fraud', 1],
      ['Payment.Amount', 2],
      ['Payment.Fraud', 2],
    ]);
  });
});

describe('what a difference keeps', () => {
  const card = '4111111111111111';

  it('masks a difference made outside the comparison when the report keeps it', () => {
    const report = new DriftReport();
    report.add([
      { Kind: 'value', Route: 'card POST /v1/payments', Field: 'Payment.Card.CVV', Upstream: '123', Shadow: '456', Call: { Method: 'POST', Path: `/v1/cards/${card}`, JournalID: null, At: '' } },
      { Kind: 'status path', Route: 'POST /v1/payments', Field: null, Upstream: { Card: { Number: card, SecurityCode: '737' } }, Shadow: null, Call: at(1) },
    ]);
    const text = JSON.stringify(report.list());
    for (const secret of [card, '123', '456', '737']) expect(text).not.toContain(secret);
  });

  it('masks a card number and a security code in a body kept as a value', () => {
    const d = compareExchange({
      route: 'card POST /v1/payments',
      call: at(1),
      upstream: { status: 200, body: { Payment: { Card: { Number: card, SecurityCode: '737', HolderName: 'A B' } } } },
      shadow: { status: 200, body: { Payment: {} } },
    });
    const text = JSON.stringify(d);
    expect(text).not.toContain(card);
    expect(text).not.toContain('737');
    expect(d[0]!.Upstream).toEqual({ Number: 'VISA-1111', SecurityCode: '***', HolderName: 'A B' });
  });

  it('masks a security code, a card number and a key compared on their own', () => {
    const d = compareExchange({
      route: 'card POST /v1/payments',
      call: at(1),
      upstream: { status: 200, body: { Card: { CVV: '123', Number: Number(card), Note: `paid with ${card}`, APIKey: 'real-key' } } },
      shadow: { status: 200, body: { Card: { CVV: '456', Number: 4000000000000002, Note: 'paid with 4000000000000002', APIKey: 'other-key' } } },
    });
    const text = JSON.stringify(d);
    for (const secret of [card, '123', '456', '4000000000000002', 'real-key', 'other-key']) expect(text).not.toContain(secret);
    expect(d.map((x) => [x.Field, x.Upstream, x.Shadow])).toEqual([
      ['Card.CVV', '***', '***'],
      ['Card.Number', 'VISA-1111', 'VISA-0002'],
      ['Card.Note', 'paid with VISA-1111', 'paid with VISA-0002'],
      ['Card.APIKey', '***', '***'],
    ]);
  });

  it("masks a card number and credentials in the call's path", () => {
    const d = compareExchange({
      route: 'card GET /v1/cards/{number}',
      call: { Method: 'GET', Path: `/v1/cards/${card}?cvv=123&apikey=real-key&pageSize=5`, JournalID: null, At: '' },
      upstream: { status: 200, body: {} },
      shadow: { status: 404, body: {} },
    });
    expect(d[0]!.Call.Path).toBe('/v1/cards/VISA-1111?cvv=***&apikey=***&pageSize=5');
  });

  it('keeps IDs and times whose digits pass the Luhn check', () => {
    expect(maskValue({ PaymentID: 4111111111111111, Created: '4111111111111111', Authorization: 'Basic eDp5' })).toEqual({
      PaymentID: 4111111111111111,
      Created: '4111111111111111',
      Authorization: '***',
    });
    expect(maskPath('/v1/payments/3005042')).toBe('/v1/payments/3005042');
  });
});
