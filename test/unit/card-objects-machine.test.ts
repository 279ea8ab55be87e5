// The card address's decisions about its other objects: card expiry and Luhn, a payout's outcome, a
// split's capture, a dispute's course. Pure functions, no sandbox.
import {
  cardAuthCancel,
  cardExpired,
  disputeOpens,
  disputeResolves,
  luhnValid,
  payoutOutcome,
  splitCapture,
} from '../../src/domain/card-objects.machine';

const JAN_15_2026 = Date.UTC(2026, 0, 15);
const VISA = '4111111111111111';

describe('card checks', () => {
  it('a card is valid through the last moment of its expiry month; two-digit years are 20xx', () => {
    expect(cardExpired('01', '2026', JAN_15_2026)).toBe(false);
    expect(cardExpired('1', '26', Date.UTC(2026, 0, 31, 23, 59, 59))).toBe(false);
    expect(cardExpired('01', '2026', Date.UTC(2026, 1, 1))).toBe(true);
    expect(cardExpired('12', '2025', JAN_15_2026)).toBe(true);
    expect(cardExpired('02', '18', JAN_15_2026)).toBe(true);
  });

  it('the Luhn check passes real test numbers and fails a changed digit', () => {
    for (const n of [VISA, '4548812049400004', '5555555555554444', '378282246310005']) expect(luhnValid(n)).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });
});

describe('payoutOutcome', () => {
  const card = (year: string, number = VISA) => ({ number, month: '02', year });
  it.each([
    [1000n, card('2030'), 2, []],
    [1000n, card('2018'), 4, [1205]],
    [1000n, card('2030', '4111111111111112'), 4, [1201]],
    [10001n, card('2030'), 4, [13]],
  ] as const)('amount %s, card %j: status %i, reasons %j', (amount, c, status, codes) => {
    const o = payoutOutcome(amount, c, JAN_15_2026);
    expect(o.status).toBe(status);
    expect(o.reasons.map((r) => r.Code)).toEqual(codes);
  });
});

describe('splitCapture', () => {
  const split = { id: 7001, amount: 6000n, capturedAmount: null };
  it('takes the split or part of it; the payment is Captured once the captures add up to its amount', () => {
    expect(splitCapture(9, 9000n, 0n, split, 6000n)).toEqual({ ok: true, value: { splitStatus: 11, splitCaptured: 6000n, paymentStatus: 35, paymentCaptured: 6000n } });
    expect(splitCapture(9, 6000n, 0n, split, 6000n)).toMatchObject({ value: { paymentStatus: 11 } });
    expect(splitCapture(35, 9000n, 6000n, { id: 7002, amount: 3000n, capturedAmount: null }, 1000n)).toMatchObject({ value: { splitStatus: 35, paymentStatus: 35, paymentCaptured: 7000n } });
  });

  it('refuses a split captured before (4997), a payment not Authorized (17), more than the split (1013)', () => {
    expect(splitCapture(35, 9000n, 6000n, { ...split, capturedAmount: 6000n }, 1n)).toMatchObject({ ok: false, code: 4997 });
    expect(splitCapture(11, 9000n, 9000n, split, 1n)).toMatchObject({ ok: false, code: 4997 });
    expect(splitCapture(1, 9000n, 0n, split, 1n)).toMatchObject({ ok: false, code: 17 });
    expect(splitCapture(9, 9000n, 0n, split, 6001n)).toMatchObject({ ok: false, code: 1013 });
  });
});

describe('disputes and tokens', () => {
  it('a dispute opens on what was captured, one at a time, and ends once', () => {
    expect(disputeOpens(11, 9000n, false)).toEqual({ ok: true, value: 9000n });
    expect(disputeOpens(35, 4500n, false)).toEqual({ ok: true, value: 4500n });
    expect(disputeOpens(9, null, false)).toMatchObject({ ok: false, code: 11 });
    expect(disputeOpens(11, 9000n, true)).toMatchObject({ ok: false, code: 11 });
    expect(disputeResolves(1, 'win')).toEqual({ ok: true, value: 23 });
    expect(disputeResolves(1, 'lose')).toEqual({ ok: true, value: 24 });
    expect(disputeResolves(24, 'win')).toMatchObject({ ok: false, code: 11 });
  });

  it('a credit card token is cancelled once', () => {
    expect(cardAuthCancel(true)).toEqual({ ok: true, value: true });
    expect(cardAuthCancel(false)).toMatchObject({ ok: false, code: 2401 });
  });
});
