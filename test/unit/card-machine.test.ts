// The card state machine alone: the card test host's amounts, and what each action may do in each state.
import {
  CardTestAmount,
  captureSettled,
  cardAuthorized,
  cardCancel,
  cardCapture,
  cardCreated,
  cardEvent,
  cardRefundStatus,
} from '../../src/domain/card.machine';
import { PAYMENT_EVENTS, refundableAmount } from '../../src/domain/payment.machine';
import { Status, statusInfo } from '../../src/domain/statuses';

const { Open, Success, Cancelled, Failed, Expired, Authorized, Captured, CaptureRequested, QueuedForCapturing, QueuedForCanceling, PartiallyCaptured } = Status;

describe('the status catalogue', () => {
  it('knows QueuedForCapturing (33) and QueuedForCanceling (34) by their PascalCase Info', () => {
    expect(statusInfo(33)).toBe('QueuedForCapturing');
    expect(statusInfo(34)).toBe('QueuedForCanceling');
  });
});

describe('a new card payment', () => {
  it.each<[bigint, boolean, number, string | null]>([
    [9000n, false, Authorized, null],
    [9000n, true, CaptureRequested, 'captured'],
    [1n, true, CaptureRequested, 'captured'],
    [20000n, true, CaptureRequested, 'captured'],
    [10001n, false, Failed, null],
    [10001n, true, Failed, null],
    [10002n, false, Authorized, null],
    [10002n, true, QueuedForCapturing, null],
    [10003n, true, CaptureRequested, null],
    [10004n, true, CaptureRequested, 'captured'],
    [10005n, false, Authorized, null],
    [10005n, true, CaptureRequested, 'capture-failed'],
    [10006n, true, CaptureRequested, 'captured'],
  ])('of amount %s with Capture %s starts %s, then %s', (amount, capture, status, later) => {
    expect(cardCreated(amount, capture, false)).toEqual({ status, capturedAmount: null, later });
    expect(cardAuthorized(amount, capture)).toEqual({ status, capturedAmount: null, later });
  });

  it('waits Open for the payer when the card is entered on the hosted form, whatever the amount', () => {
    for (const amount of [9000n, 10001n, 10002n]) expect(cardCreated(amount, true, true)).toEqual({ status: Open, capturedAmount: null, later: null });
  });

  it('ends a requested capture Captured with the whole amount, or Failed; nothing once it moved on', () => {
    expect(captureSettled(CaptureRequested, 9000n, 'captured')).toEqual({ ok: true, value: { status: Captured, capturedAmount: 9000n, later: null } });
    expect(captureSettled(CaptureRequested, 10005n, 'capture-failed')).toEqual({ ok: true, value: { status: Failed, capturedAmount: null, later: null } });
    expect(captureSettled(Failed, 9000n, 'captured')).toMatchObject({ ok: false, code: 17 });
  });
});

describe('capture', () => {
  it('takes the whole amount (Captured) or part of it (PartiallyCaptured) of an Authorized payment', () => {
    expect(cardCapture(Authorized, 9000n, 9000n)).toEqual({ ok: true, value: { status: Captured, capturedAmount: 9000n, later: null } });
    expect(cardCapture(Authorized, 9000n, 4500n)).toEqual({ ok: true, value: { status: PartiallyCaptured, capturedAmount: 4500n, later: null } });
  });

  it.each<[bigint, number]>([
    [CardTestAmount.QueuedForCapturing, QueuedForCapturing],
    [CardTestAmount.CaptureRequested, CaptureRequested],
    [CardTestAmount.CaptureFails, Failed],
  ])('of test amount %s ends %s, with nothing captured', (amount, status) => {
    expect(cardCapture(Authorized, amount, amount)).toEqual({ ok: true, value: { status, capturedAmount: null, later: null } });
  });

  it.each<[number, bigint, number]>([
    [Captured, 9000n, 4997],
    [PartiallyCaptured, 4500n, 4996],
    [CaptureRequested, 9000n, 17],
    [Open, 9000n, 17],
    [Cancelled, 9000n, 17],
    [Failed, 9000n, 17],
  ])('refuses a capture of a %s payment with code %s', (status, amount, code) => {
    expect(cardCapture(status, 9000n, amount)).toMatchObject({ ok: false, code });
  });

  it('refuses more than was authorized with code 1013', () => {
    expect(cardCapture(Authorized, 9000n, 9001n)).toMatchObject({ ok: false, code: 1013, info: expect.stringContaining('9001 is more than the authorized 9000') });
  });
});

describe('cancel', () => {
  it('cancels an Authorized payment; test amount 10006 queues the cancel', () => {
    expect(cardCancel(Authorized, 9000n, true)).toEqual({ ok: true, value: Cancelled });
    expect(cardCancel(Authorized, 10006n, true)).toEqual({ ok: true, value: QueuedForCanceling });
  });

  it('cancels an Open payment only when Open payments may be cancelled', () => {
    expect(cardCancel(Open, 9000n, true)).toEqual({ ok: true, value: Cancelled });
    expect(cardCancel(Open, 9000n, false)).toMatchObject({ ok: false, code: 105 });
  });

  it.each<[number, number]>([
    [Captured, 4997],
    [PartiallyCaptured, 4996],
    [CaptureRequested, 105],
    [QueuedForCanceling, 105],
    [Cancelled, 105],
  ])('refuses to cancel a %s payment with code %s', (status, code) => {
    expect(cardCancel(status, 9000n, true)).toMatchObject({ ok: false, code });
  });
});

describe('refunds', () => {
  it('succeed at once, except on test amount 10004, where they stay Open', () => {
    expect(cardRefundStatus(9000n)).toBe(Success);
    expect(cardRefundStatus(10004n)).toBe(Open);
  });

  it('may give back what a Captured or PartiallyCaptured payment took, less what was refunded', () => {
    expect(refundableAmount({ statusId: Captured, amount: 9000n, capturedAmount: 9000n, refunded: 1000n })).toBe(8000n);
    expect(refundableAmount({ statusId: PartiallyCaptured, amount: 9000n, capturedAmount: 4500n, refunded: 0n })).toBe(4500n);
    expect(refundableAmount({ statusId: Authorized, amount: 9000n, capturedAmount: null, refunded: 0n })).toBe(0n);
    expect(refundableAmount({ statusId: CaptureRequested, amount: 9000n, capturedAmount: null, refunded: 0n })).toBe(0n);
  });
});

describe('provider and payer events on card payments', () => {
  const table: Record<string, Record<number, number | 'card-entered' | null>> = {
    authorize: { [Open]: 'card-entered', [Authorized]: null, [CaptureRequested]: null },
    succeed: { [Open]: null, [Authorized]: null, [CaptureRequested]: null },
    settle: { [CaptureRequested]: Captured, [QueuedForCapturing]: Captured, [QueuedForCanceling]: Cancelled, [Authorized]: null, [Captured]: null },
    fail: { [Open]: Failed, [Authorized]: Failed, [CaptureRequested]: Failed, [QueuedForCapturing]: Failed, [Captured]: null, [Cancelled]: null },
    expire: { [Open]: Expired, [Authorized]: null },
    cancel: { [Open]: Cancelled, [Authorized]: null, [QueuedForCanceling]: null },
  };

  it('covers every event', () => expect(Object.keys(table).sort()).toEqual([...PAYMENT_EVENTS].sort()));

  for (const [event, row] of Object.entries(table)) {
    for (const [from, to] of Object.entries(row)) {
      it(`${event} on ${statusInfo(Number(from))} → ${to === null ? 'refused' : to === 'card-entered' ? 'the card decides' : statusInfo(to)}`, () => {
        const d = cardEvent(event as (typeof PAYMENT_EVENTS)[number], Number(from));
        if (to === null) expect(d.ok).toBe(false);
        else expect(d).toEqual({ ok: true, value: to });
      });
    }
  }
});
