// tellStory is pure: from a payment's records to its story. These cases pin down what the store's
// records mean for a story (the causes the services write, the order of things that happened in the
// same millisecond), without running a sandbox.
import { parseScenario } from '../../src/scenarios/loader';
import type { Scenario } from '../../src/scenarios/scenario';
import { type StoryFacts, tellStory } from '../../src/stories/story';
import type { JobRecord } from '../../src/store/jobs.repo';
import type { HistoryRecord, PaymentRecord, RefundRecord, SplitRecord } from '../../src/store/records';

const T = Date.UTC(2026, 0, 15, 10, 0, 0);

function payment(over: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id: 3005042,
    surface: 'api',
    ownerSiteId: 30201,
    siteId: 30202,
    merchantTransactionId: 'order-42',
    originatorTransactionId: null,
    amount: 1000n,
    currency: 'EUR',
    capturedAmount: null,
    returnUrl: 'https://shop.example/return',
    description: null,
    statementDescriptor: null,
    methodId: 42,
    methodOptionId: null,
    skinId: null,
    clientIp: null,
    tokenLifetime: null,
    token: null,
    statusId: 1,
    createdAt: T,
    notificationAt: null,
    country: null,
    customer: null,
    billingAddress: null,
    shippingAddress: null,
    details: null,
    card: null,
    capture: null,
    retry: null,
    hasSplits: true,
    scenario: 'two-step',
    ...over,
  };
}

const split = (id: number, amount: bigint, over: Partial<SplitRecord & { addedAfter: number | null }> = {}) => ({
  id,
  paymentId: 3005042,
  siteId: 30202,
  merchantTransactionId: `s-${id}`,
  originatorTransactionId: null,
  amount,
  capturedAmount: null,
  statusId: 9,
  createdAt: T,
  addedAfter: null,
  ...over,
});

let historyId = 0;
const h = (ms: number, statusId: number, cause: string, refundId: number | null = null): HistoryRecord => ({
  id: ++historyId,
  paymentId: 3005042,
  refundId,
  statusId,
  at: T + ms,
  cause,
});

function facts(over: Partial<StoryFacts>): StoryFacts {
  return { payment: payment(), tokenLifetime: null, splits: [], refunds: [], history: [], jobs: [], scenario: undefined, createdStamp: '20260115100000', ...over };
}

const steps = (f: StoryFacts) => tellStory(f).Steps.map(({ On, ...rest }) => (expect(On).toBe('created'), rest));

describe('tellStory', () => {
  beforeEach(() => (historyId = 100));

  it('orders what happened in the same millisecond as it happened: status changes, then splits added after them', () => {
    const history = [h(0, 1, 'created'), h(0, 9, 'event authorize')];
    const authorizedAt = history[1]!.id;
    history.push(h(0, 35, 'capture of split 7002'));
    const f = facts({
      history,
      splits: [
        split(7001, 500n),
        split(7002, 300n, { capturedAmount: 120n, statusId: 35 }),
        // Added right after the authorization (two in one call), then one after the capture.
        split(7003, 50n, { addedAfter: authorizedAt }),
        split(7004, 50n, { addedAfter: authorizedAt }),
        split(7005, 10n, { addedAfter: history[2]!.id, statusId: 35 }),
      ],
    });
    expect(steps(f)).toEqual([
      { After: '0ms', Do: 'authorize' },
      { After: '0ms', Do: 'add-splits', NewSplits: [{ SiteID: 30202, Amount: '50', MerchantTransactionID: 's-7003' }, { SiteID: 30202, Amount: '50', MerchantTransactionID: 's-7004' }] },
      { After: '0ms', Do: 'capture-split', Split: 1, Amount: '120' },
      { After: '0ms', Do: 'add-splits', NewSplits: [{ SiteID: 30202, Amount: '10', MerchantTransactionID: 's-7005' }] },
    ]);
    expect(tellStory(f).Request.Payment.Splits).toEqual([
      { SiteID: 30202, Amount: '500', MerchantTransactionID: 's-7001' },
      { SiteID: 30202, Amount: '300', MerchantTransactionID: 's-7002' },
    ]);
  });

  it('tells each capture form, CaptureRequested and its settle, a merchant cancel apart from a payer cancel', () => {
    const capture = facts({ history: [h(0, 1, 'created'), h(2000, 9, 'scenario x: authorize'), h(2500, 13, 'capture'), h(4500, 2, 'scenario x: settle')] });
    expect(tellStory(capture).CaptureRequested).toBe(true);
    expect(steps(capture)).toEqual([
      { After: '2000ms', Do: 'authorize' },
      { After: '2500ms', Do: 'capture' },
      { After: '4500ms', Do: 'settle' },
    ]);
    const full = facts({ history: [h(0, 1, 'created'), h(1, 9, 'payer: authorize'), h(2, 2, 'capture')] });
    expect(tellStory(full).CaptureRequested).toBe(false);
    expect(steps(full).map((s) => s.Do)).toEqual(['authorize', 'capture']);
    expect(steps(facts({ history: [h(0, 1, 'created'), h(10, 9, 'event authorize'), h(20, 3, 'cancel')] })).map((s) => s.Do)).toEqual(['authorize', 'merchant-cancel']);
    expect(steps(facts({ history: [h(0, 1, 'created'), h(10, 3, 'payer: cancel')] })).map((s) => s.Do)).toEqual(['cancel']);
    expect(steps(facts({ history: [h(0, 1, 'created'), h(10, 4, 'event fail')] })).map((s) => s.Do)).toEqual(['fail']);
    expect(steps(facts({ history: [h(0, 1, 'created'), h(10, 2, 'payer: pay')] })).map((s) => s.Do)).toEqual(['succeed']);
  });

  it('leaves out an expiry the TokenLifetime brings again, and keeps the lifetime a cancel or expiry erased', () => {
    const f = facts({ payment: payment({ tokenLifetime: null, statusId: 5 }), tokenLifetime: 1, history: [h(0, 1, 'created'), h(60_000, 5, 'token lifetime ran out')] });
    expect(steps(f)).toEqual([]);
    expect(tellStory(f).Request.Payment.TokenLifetime).toBe(1);
    const byScenario = facts({ history: [h(0, 1, 'created'), h(5000, 5, 'scenario expired: expire')] });
    expect(steps(byScenario)).toEqual([{ After: '5000ms', Do: 'expire' }]);
  });

  it("keeps a refund's split, amount, description and a MerchantTransactionID the merchant gave; names refunds by index", () => {
    const refunds: RefundRecord[] = [
      { id: 16401, paymentId: 3005042, splitId: 7002, siteId: 30203, merchantTransactionId: 'order-42-R16401', originatorTransactionId: null, amount: 100n, currency: 'EUR', description: '', typeId: 1, statusId: 2, createdAt: T + 3000 },
      { id: 16402, paymentId: 3005042, splitId: 7001, siteId: 30202, merchantTransactionId: 'rma-7', originatorTransactionId: null, amount: 25n, currency: 'EUR', description: 'returned', typeId: 1, statusId: 1, createdAt: T + 3000 },
    ];
    const f = facts({
      splits: [split(7001, 500n, { statusId: 2 }), split(7002, 500n, { statusId: 2 })],
      refunds,
      history: [h(0, 1, 'created'), h(2000, 2, 'event succeed'), h(3000, 1, 'refund requested', 16401), h(3000, 1, 'refund requested', 16402), h(4000, 2, 'refund succeed', 16401)],
    });
    expect(steps(f)).toEqual([
      { After: '2000ms', Do: 'succeed' },
      { After: '3000ms', Do: 'refund', Split: 1, Amount: '100', Description: '' },
      { After: '3000ms', Do: 'refund', Split: 0, Amount: '25', Description: 'returned', MerchantTransactionID: 'rma-7' },
      { After: '4000ms', Do: 'refund-succeed', Refund: 0 },
    ]);
    expect(tellStory(f).Description).toBe('What happened to payment 3005042 (order-42): Open → Success; refund 1 Success, refund 2 Open.');
  });

  it('adds the steps its scenario already scheduled, and its merchant steps that were rejected', () => {
    const scenario: Scenario = parseScenario(
      {
        Name: 'x',
        Description: 'x',
        Steps: [
          { After: '1s', Do: 'succeed' },
          { After: '1s', Do: 'add-splits', NewSplits: [{ SiteID: 30204, Amount: 1, MerchantTransactionID: 'late' }] },
          { After: '1s', Do: 'capture-split', Split: 0, Amount: '50%' },
        ],
      },
      'test',
    );
    const job = (id: number, stepIndex: number, action: string, state: JobRecord['state'], dueMs: number, outcome: string | null, refundId: number | null = null): JobRecord => ({
      id,
      paymentId: 3005042,
      preapprovalId: null,
      refundId,
      stepIndex,
      action,
      dueAt: T + dueMs,
      state,
      outcome,
      ranAt: state === 'pending' ? null : T + dueMs,
      plannedDueAt: null,
    });
    const f = facts({
      scenario,
      history: [h(0, 1, 'created'), h(1000, 2, 'scenario x: succeed')],
      jobs: [
        job(1, 0, 'succeed', 'done', 1000, 'Success'),
        job(2, 1, 'add-splits', 'skipped', 2000, 'rejected: 11 - Action is invalid'),
        job(3, 2, 'capture-split', 'skipped', 3000, 'skipped: payment 3005042 has no split 0'),
        job(4, 2, 'capture-split', 'pending', 9000, null),
      ],
    });
    expect(steps(f)).toEqual([
      { After: '1000ms', Do: 'succeed' },
      { After: '2000ms', Do: 'add-splits', NewSplits: [{ SiteID: 30204, Amount: 1, MerchantTransactionID: 'late' }] },
      { After: '9000ms', Do: 'capture-split', Split: 0, Amount: '50%' },
    ]);
  });

  it('is a scenario file the loader takes', () => {
    const f = facts({ history: [h(0, 1, 'created'), h(2000, 9, 'event authorize'), h(3000, 2, 'capture')] });
    const told = tellStory(f);
    const s = parseScenario(JSON.parse(JSON.stringify(told)), 'story');
    expect(s.steps.map((x) => [x.on, x.after, x.do])).toEqual([
      ['created', 2000, 'authorize'],
      ['created', 3000, 'capture'],
    ]);
    expect(s.refunds.outcome).toBe('none');
  });
});
