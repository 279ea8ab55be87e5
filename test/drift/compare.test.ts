// compareExchange and compareNotification: planted differences found once each with their kind and
// field, and two honest answers (other IDs, times, hosts, tokens) found alike.
import { compareExchange, compareNotification, compareNotificationOrder, type CallRef, type Exchange } from '../../src/drift/differences';

const call: CallRef = { Method: 'GET', Path: '/v1/payments/3005042', JournalID: 17, At: '20260115100000' };

/** A payment as the real service shows it, with the IDs, times, host and token given. */
function payment(o: { id: number; splitIds: [number, number]; created: string; host: string; token: string }) {
  return {
    Payment: {
      ID: o.id,
      SkinID: null,
      Created: o.created,
      MerchantTransactionID: 'order-1',
      Amount: '2000',
      Currency: 'EUR',
      CapturedAmount: null as string | null,
      ReturnURL: 'https://shop.example/return',
      MethodID: 1,
      SiteID: 30201,
      NotificationDateTime: null,
      Details: { CreditCardToken: `tok${o.token}` },
      Status: { ID: 9, Info: 'Authorized', Reasons: [{ Code: 200, Info: 'Success' }] },
      RedirectURL: `${o.host}/Home?PaymentToken=${o.token}.${o.id}`,
      Splits: o.splitIds.map((id, i) => ({
        ID: id,
        PaymentID: o.id,
        SiteID: 30202 + i,
        MerchantTransactionID: `split-${i}`,
        Created: o.created,
        Amount: i === 0 ? '1500' : '500',
        Currency: 'EUR',
        CapturedAmount: '',
        StateDetails: { ID: 9, Info: 'Authorized' },
      })),
    },
  };
}

const upstreamPayment = () => payment({ id: 3005042, splitIds: [77, 78], created: '20260115100000', host: 'https://paymentsapi.example.com', token: 'a'.repeat(32) });
const shadowPayment = () => payment({ id: 1, splitIds: [1, 2], created: '20260115100003', host: 'http://127.0.0.1:40123', token: 'b'.repeat(32) });

function exchange(upstream: unknown, shadow: unknown, statuses: [number, number] = [200, 200]): Exchange {
  return { route: 'GET /v1/payments/{id}', call, upstream: { status: statuses[0], body: upstream }, shadow: { status: statuses[1], body: shadow } };
}

describe('compareExchange', () => {
  it('finds nothing between two answers that differ only in IDs, times, hosts and tokens', () => {
    expect(compareExchange(exchange(upstreamPayment(), shadowPayment()))).toEqual([]);
  });

  it('reports a 503 against a 200 as the one http status difference, without diffing the bodies', () => {
    const d = compareExchange(exchange({ Message: 'Service Unavailable' }, shadowPayment(), [503, 200]));
    expect(d).toEqual([{ Kind: 'http status', Route: 'GET /v1/payments/{id}', Field: null, Upstream: 503, Shadow: 200, Call: call }]);
  });

  it('reports another reason code once, as a reason difference naming both codes', () => {
    const s = shadowPayment();
    s.Payment.Status.Reasons = [{ Code: 201, Info: 'Success' }];
    expect(compareExchange(exchange(upstreamPayment(), s))).toEqual([
      { Kind: 'reason', Route: 'GET /v1/payments/{id}', Field: 'Payment.Status.Reasons', Upstream: [200], Shadow: [201], Call: call },
    ]);
  });

  it('reports a status ID and Info as status differences', () => {
    const s = shadowPayment();
    s.Payment.Status.ID = 11;
    s.Payment.Status.Info = 'Captured';
    expect(compareExchange(exchange(upstreamPayment(), s)).map((d) => [d.Kind, d.Field, d.Upstream, d.Shadow])).toEqual([
      ['status', 'Payment.Status.ID', 9, 11],
      ['status', 'Payment.Status.Info', 'Authorized', 'Captured'],
    ]);
  });

  it('reports a renamed field as one missing and one extra field', () => {
    const s = shadowPayment() as unknown as { Payment: Record<string, unknown> };
    s.Payment.Descr = s.Payment.MerchantTransactionID;
    delete s.Payment.MerchantTransactionID;
    expect(compareExchange(exchange(upstreamPayment(), s)).map((d) => [d.Kind, d.Field, d.Upstream, d.Shadow])).toEqual([
      ['missing field', 'Payment.MerchantTransactionID', 'order-1', undefined],
      ['extra field', 'Payment.Descr', undefined, 'order-1'],
    ]);
  });

  it('reports a dropped field once, even when every split lacks it', () => {
    const s = shadowPayment() as unknown as { Payment: { Splits: Record<string, unknown>[] } };
    for (const split of s.Payment.Splits) delete split.CapturedAmount;
    const d = compareExchange(exchange(upstreamPayment(), s));
    expect(d.map((x) => [x.Kind, x.Field])).toEqual([
      ['missing field', 'Payment.Splits[].CapturedAmount'],
      ['missing field', 'Payment.Splits[].CapturedAmount'],
    ]);
  });

  it('reports a string amount turned into a number as a type difference', () => {
    const s = shadowPayment() as unknown as { Payment: { Splits: Record<string, unknown>[] } };
    s.Payment.Splits[1]!.Amount = 500;
    expect(compareExchange(exchange(upstreamPayment(), s))).toEqual([
      { Kind: 'type', Route: 'GET /v1/payments/{id}', Field: 'Payment.Splits[].Amount', Upstream: '500', Shadow: 500, Call: call },
    ]);
  });

  it('reports amounts, currencies and split amounts that differ as values, splits by position', () => {
    const s = shadowPayment();
    s.Payment.Currency = 'USD';
    s.Payment.Splits[0]!.Amount = '1400';
    expect(compareExchange(exchange(upstreamPayment(), s)).map((d) => [d.Kind, d.Field, d.Upstream, d.Shadow])).toEqual([
      ['value', 'Payment.Currency', 'EUR', 'USD'],
      ['value', 'Payment.Splits[].Amount', '1500', '1400'],
    ]);
  });

  it('reports null against a value, and a split too many', () => {
    const s = shadowPayment();
    s.Payment.CapturedAmount = '2000';
    s.Payment.Splits.push({ ...s.Payment.Splits[1]! });
    expect(compareExchange(exchange(upstreamPayment(), s)).map((d) => [d.Kind, d.Field, d.Upstream, d.Shadow])).toEqual([
      ['null', 'Payment.CapturedAmount', null, '2000'],
      ['value', 'Payment.Splits', '2 items', '3 items'],
    ]);
  });

  it('reports a time in another format as a type difference, and a hosted page at another path as a value', () => {
    const s = shadowPayment();
    s.Payment.Created = '2026-01-15T10:00:03Z';
    s.Payment.RedirectURL = 'http://127.0.0.1:40123/Pay?PaymentToken=x';
    expect(compareExchange(exchange(upstreamPayment(), s)).map((d) => [d.Kind, d.Field])).toEqual([
      ['type', 'Payment.Created'],
      ['value', 'Payment.RedirectURL'],
    ]);
  });

  it('never shows a token, even when it differs in type', () => {
    const s = shadowPayment() as unknown as { Payment: { Details: Record<string, unknown> } };
    s.Payment.Details.CreditCardToken = 12345;
    const d = compareExchange(exchange(upstreamPayment(), s));
    expect(d.map((x) => [x.Kind, x.Field, x.Upstream, x.Shadow])).toEqual([['type', 'Payment.Details.CreditCardToken', '***', '***']]);
  });

  it('reads a shadow ID inside a value as the upstream ID it is mapped to', () => {
    const u = { Refund: { ID: 501, MerchantTransactionID: 'order-1-R501' } };
    const s = { Refund: { ID: 9, MerchantTransactionID: 'order-1-R9' } };
    expect(compareExchange(exchange(u, s)).map((d) => d.Field)).toEqual(['Refund.MerchantTransactionID']);
    expect(compareExchange({ ...exchange(u, s), upstreamIdOf: (id) => (id === '9' ? '501' : undefined) })).toEqual([]);
  });

  it('leaves what lies deeper than any answer of the API uncompared, without exhausting the stack', () => {
    const deep = (n: number, leaf: unknown): unknown => {
      let v = leaf;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    expect(compareExchange(exchange({ Payment: { Details: deep(100_000, 1) } }, { Payment: { Details: deep(100_000, 2) } }))).toEqual([]);
    expect(compareExchange(exchange({ Payment: { Details: deep(30, 1) } }, { Payment: { Details: deep(30, 2) } }))).toHaveLength(1);
    const missing = compareExchange(exchange({ Payment: { Details: deep(100_000, 1) } }, { Payment: {} }));
    expect(missing.map((x) => [x.Kind, x.Field])).toEqual([['missing field', 'Payment.Details']]);
    expect(JSON.stringify(missing)).toContain('(nested too deep)');
  });

  it('compares a body against no JSON body as a type difference of the whole answer', () => {
    expect(compareExchange(exchange(undefined, { Message: 'x' })).map((d) => [d.Kind, d.Field])).toEqual([['type', null]]);
    expect(compareExchange(exchange(undefined, undefined))).toEqual([]);
  });
});

describe('compareNotification', () => {
  it('compares a notification pair as bodies, under its route', () => {
    const s = shadowPayment();
    s.Payment.Status.ID = 2;
    const d = compareNotification('Payment', call, upstreamPayment(), s);
    expect(d.map((x) => [x.Kind, x.Route, x.Field])).toEqual([['status', 'notification Payment', 'Payment.Status.ID']]);
  });

  it('reports a notification one side did not send', () => {
    expect(compareNotification('Payment', call, undefined, shadowPayment())).toEqual([
      { Kind: 'notification', Route: 'notification Payment', Field: null, Upstream: '(none sent)', Shadow: 'Payment', Call: call },
    ]);
  });

  it('reports the same kinds in another order', () => {
    expect(compareNotificationOrder('notification Payment', call, ['Payment', 'Refund'], ['Refund', 'Payment'])[0]!.Kind).toBe('notification order');
    expect(compareNotificationOrder('notification Payment', call, ['Payment', 'Refund'], ['Payment', 'Refund'])).toEqual([]);
  });
});
