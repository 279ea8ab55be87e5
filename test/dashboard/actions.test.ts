// The payment page's buttons: each calls the API's service and comes back (303) to the page, done or
// refused (a reload never sends it again); a refused one's reason is shown there once, and it changed nothing.
import { type World, authorizedPayment, createPayment, makeWorld, snapshot } from '../helpers/world';
import { type Agent, signedIn, submit, withOutbox } from './helpers';

describe('dashboard payment actions', () => {
  let w: World;
  let agent: Agent;
  beforeEach(async () => {
    w = makeWorld();
    agent = await signedIn(w);
  });
  afterEach(() => w.close());

  const statusOf = (id: number) => w.store.payments.getAny(id)!.statusId;
  const splitsOf = (id: number) => w.store.splits.ofPayment(id);

  async function done(id: number, path: string, fields: Record<string, string> = {}) {
    const res = await submit(agent, `/dashboard/payments/${id}${path}`, fields);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/dashboard/payments/${id}`);
    return (await agent.get(`/dashboard/payments/${id}`)).text;
  }

  async function refused(id: number, path: string, fields: Record<string, string>, message: string) {
    const before = snapshot(w.store);
    const res = await submit(agent, `/dashboard/payments/${id}${path}`, fields);
    expect([res.status, res.headers.location]).toEqual([303, `/dashboard/payments/${id}`]);
    const page = await agent.get(`/dashboard/payments/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('class="error"');
    expect(page.text).toContain(message);
    expect(page.text).toContain(`<h1>Payment ${id}`); // the payment's own page, with the message
    // Said once: a reload shows the page without it (and sends nothing).
    expect((await agent.get(`/dashboard/payments/${id}`)).text).not.toContain('class="error"');
    expect(snapshot(w.store)).toBe(before);
    return page.text;
  }

  it('applies provider events: authorize, then succeed of a one-step payment, settle of a capture-requested one', async () => {
    const p = await createPayment(w);
    const page = await done(p.ID, '/events', { Event: 'authorize' });
    expect(statusOf(p.ID)).toBe(9);
    expect(page).toContain('Event authorize applied: the payment is Authorized.');
    const one = await createPayment(w, { MethodID: 2 });
    await done(one.ID, '/events', { Event: 'succeed' });
    expect(statusOf(one.ID)).toBe(2);
    const other = await createPayment(w);
    await done(other.ID, '/events', { Event: 'fail' });
    expect(statusOf(other.ID)).toBe(4);
    const late = await createPayment(w);
    await done(late.ID, '/events', { Event: 'expire' });
    expect(statusOf(late.ID)).toBe(5);
    const klarna = await authorizedPayment(w, { MethodID: 1078 });
    await done(klarna.ID, '/capture');
    expect(statusOf(klarna.ID)).toBe(13);
    await done(klarna.ID, '/events', { Event: 'settle' });
    expect(statusOf(klarna.ID)).toBe(2);
  });

  it('refuses an event the method does not allow, or no event at all', async () => {
    const p = await createPayment(w);
    await refused(p.ID, '/events', { Event: 'succeed' }, `Event succeed refused for payment ${p.ID}`);
    await refused(p.ID, '/events', { Event: 'cancel' }, 'Unknown event &quot;cancel&quot;');
    await refused(p.ID, '/events', {}, 'Unknown event');
  });

  it('captures in full', async () => {
    const p = await authorizedPayment(w);
    const page = await done(p.ID, '/capture');
    expect(statusOf(p.ID)).toBe(2);
    expect(w.store.payments.getAny(p.ID)!.capturedAmount).toBe(1000n);
    expect(page).toContain('Captured in full: the payment is Success.');
  });

  it('refuses the capture of an Open payment with its reason, changing nothing', async () => {
    const p = await createPayment(w);
    await refused(p.ID, '/capture', {}, 'Reason 17: Payment is invalid: only an Authorized payment can be captured, once (it is Open)');
    expect(statusOf(p.ID)).toBe(1);
  });

  it('refuses a second capture (reason 17)', async () => {
    const p = await authorizedPayment(w);
    await done(p.ID, '/capture');
    await refused(p.ID, '/capture', {}, 'Reason 17: ');
  });

  it('captures one split, with an amount or whole', async () => {
    const p = await authorizedPayment(w);
    const [a] = p.Splits;
    const page = await done(p.ID, '/capture-split', { SplitID: String(a!.ID), Amount: '250' });
    expect(statusOf(p.ID)).toBe(35);
    expect(splitsOf(p.ID).find((s) => s.id === a!.ID)!.capturedAmount).toBe(250n);
    expect(page).toContain(`Split ${a!.ID} captured: the payment is PartiallyCaptured.`);
    expect(page).toContain('<td class="num">2.50 EUR</td><td>PartiallyCaptured (35)</td>');

    const q = await authorizedPayment(w);
    await done(q.ID, '/capture-split', { SplitID: String(q.Splits[1]!.ID), Amount: '' });
    expect(splitsOf(q.ID).find((s) => s.id === q.Splits[1]!.ID)!.capturedAmount).toBe(300n);
  });

  it('refuses a split capture above the split, of an unknown split or with a bad amount', async () => {
    const p = await authorizedPayment(w);
    const id = String(p.Splits[0]!.ID);
    await refused(p.ID, '/capture-split', { SplitID: id, Amount: '601' }, 'amount is invalid: 601 is more than the authorized 600');
    await refused(p.ID, '/capture-split', { SplitID: '1', Amount: '1' }, 'Split not found.');
    await refused(p.ID, '/capture-split', { SplitID: id, Amount: '1.50' }, 'Reason 118: ');
    expect(statusOf(p.ID)).toBe(9);
  });

  it('captures per split', async () => {
    const p = await authorizedPayment(w);
    const [a, b] = p.Splits;
    await done(p.ID, '/capture-per-split', { [`Amount_${a!.ID}`]: '300', [`Amount_${b!.ID}`]: '200', [`Amount_${p.Splits[2]!.ID}`]: '' });
    expect(statusOf(p.ID)).toBe(35);
    expect(w.store.payments.getAny(p.ID)!.capturedAmount).toBe(500n);
    const splits = splitsOf(p.ID);
    expect(splits.map((s) => s.capturedAmount)).toEqual([300n, 200n, null]);
  });

  it('refuses a per-split capture without amounts or above a split', async () => {
    const p = await authorizedPayment(w);
    await refused(p.ID, '/capture-per-split', {}, 'Give an amount for at least one split.');
    await refused(p.ID, '/capture-per-split', { [`Amount_${p.Splits[2]!.ID}`]: '101' }, 'Payment.Splits[0].Amount is invalid: 101 is more than the authorized 100');
  });

  it('cancels', async () => {
    const p = await authorizedPayment(w);
    const page = await done(p.ID, '/cancel');
    expect(statusOf(p.ID)).toBe(3);
    expect(page).toContain(`Payment ${p.ID} cancelled.`);
    await refused(p.ID, '/cancel', {}, 'Reason 122: ');
  });

  it('refunds a split with an amount and a description', async () => {
    const p = await authorizedPayment(w);
    await done(p.ID, '/capture');
    const split = p.Splits[0]!;
    const page = await done(p.ID, '/refund', { SplitID: String(split.ID), Amount: '150', Description: 'returned item' });
    const refunds = w.store.refunds.ofPayment(p.ID);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ splitId: split.ID, amount: 150n, description: 'returned item', statusId: 1 });
    expect(page).toContain(`Refund ${refunds[0]!.id} requested on split ${split.ID}.`);
    expect(page).toContain('returned item');
  });

  it('refuses a refund of an uncaptured split, one too large, or without an amount', async () => {
    const p = await authorizedPayment(w);
    const split = String(p.Splits[0]!.ID);
    await refused(p.ID, '/refund', { SplitID: split, Amount: '100' }, 'Reason 18: ');
    await done(p.ID, '/capture');
    await refused(p.ID, '/refund', { SplitID: split, Amount: '601' }, 'Refund.Amount 601 is more than the 600 left to refund');
    await refused(p.ID, '/refund', { SplitID: split, Amount: '' }, 'Reason 118: ');
  });

  it('adds a split', async () => {
    const p = await authorizedPayment(w, { Splits: [{ SiteID: 30202, Amount: '600', MerchantTransactionID: 'a' }] });
    const page = await done(p.ID, '/splits', { SiteID: '30203', Amount: '400', MerchantTransactionID: 'added-1' });
    const splits = splitsOf(p.ID);
    expect(splits).toHaveLength(2);
    expect(splits[1]).toMatchObject({ siteId: 30203, amount: 400n, merchantTransactionId: 'added-1', statusId: 9 });
    expect(page).toContain(`Split ${splits[1]!.id} added.`);
  });

  it('refuses a split over the payment amount, of a foreign site, or after a refund', async () => {
    const p = await authorizedPayment(w, { Splits: [{ SiteID: 30202, Amount: '600', MerchantTransactionID: 'a' }] });
    await refused(p.ID, '/splits', { SiteID: '30203', Amount: '401', MerchantTransactionID: 'x' }, 'Reason 118: ');
    await refused(p.ID, '/splits', { SiteID: '30300', Amount: '1', MerchantTransactionID: 'x' }, 'SiteID');
    await refused(p.ID, '/splits', { SiteID: 'abc', Amount: '1', MerchantTransactionID: 'x' }, 'SiteID');
    await done(p.ID, '/capture');
    await done(p.ID, '/refund', { SplitID: String(p.Splits[0]!.ID), Amount: '1' });
    await refused(p.ID, '/splits', { SiteID: '30203', Amount: '1', MerchantTransactionID: 'x' }, 'Reason 11: ');
  });

  it('redelivers a notification of the payment, and no other', async () => {
    withOutbox(w);
    const p = await authorizedPayment(w);
    const q = await authorizedPayment(w);
    const [n] = w.store.notifications.list({ paymentId: p.ID });
    expect(n!.state).toBe('no-url');
    // Nowhere to send it: refused, and it stays as it was.
    await refused(p.ID, `/notifications/${n!.id}/redeliver`, {}, `Notification ${n!.id} cannot be redelivered: merchant 30201 has no notification URL`);
    expect(w.store.notifications.get(n!.id)!.state).toBe('no-url');
    w.store.sites.setNotificationUrl(30201, 'http://127.0.0.1:9/hook');
    const page = await done(p.ID, `/notifications/${n!.id}/redeliver`);
    expect(w.store.notifications.get(n!.id)!.state).toBe('pending');
    expect(page).toContain(`Notification ${n!.id} will be sent again.`);
    const [other] = w.store.notifications.list({ paymentId: q.ID });
    await refused(p.ID, `/notifications/${other!.id}/redeliver`, {}, 'Notification not found.');
    await refused(p.ID, '/notifications/abc/redeliver', {}, 'Notification not found.');
  });

  it('escapes what a refused action echoes', async () => {
    const p = await authorizedPayment(w);
    const text = await refused(p.ID, '/capture-split', { SplitID: String(p.Splits[0]!.ID), Amount: '<script>x</script>' }, 'Reason 118: ');
    expect(text).not.toContain('<script>x');
  });
});
