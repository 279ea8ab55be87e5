// The payment page offers what the payment's state allows: the other buttons are disabled with why
// not beside them, from the same decisions the services take (a button offered is not refused).
import request from 'supertest';
import { type World, authorizedPayment, createPayment, makeWorld } from '../helpers/world';
import { type Agent, signedIn, submit, withOutbox } from './helpers';

describe('dashboard: the actions a payment is offered', () => {
  let w: World;
  let agent: Agent;
  beforeEach(async () => {
    w = makeWorld();
    agent = await signedIn(w);
  });
  afterEach(() => w.close());

  const page = async (id: number) => (await agent.get(`/dashboard/payments/${id}`)).text;
  const disabled = (label: string, why: string) => `<button type="submit" disabled>${label}</button> <span class="why">Not now: ${why}</span>`;

  it('PartiallyCaptured: no capture and no cancel, each saying why; refund and add split offered', async () => {
    const p = await authorizedPayment(w);
    const split = p.Splits[0]!.ID;
    expect((await submit(agent, `/dashboard/payments/${p.ID}/capture-split`, { SplitID: String(split), Amount: '300' })).status).toBe(303);
    expect(w.store.payments.getAny(p.ID)!.statusId).toBe(35);
    const t = await page(p.ID);
    const capture = 'Payment is invalid: only an Authorized payment can be captured, once (it is PartiallyCaptured)';
    expect(t).toContain(`<button class="primary" type="submit" disabled>Capture in full</button> <span class="why">Not now: ${capture}</span>`);
    expect(t).toContain(disabled('Capture split', capture));
    expect(t).toContain(disabled('Capture these amounts', capture));
    expect(t).toContain(disabled('Cancel payment', 'Unable to cancel transaction: only an Open or Authorized payment can be cancelled (it is PartiallyCaptured)'));
    expect(t).toContain('<button type="submit">Refund</button>');
    expect(t).toContain('<button type="submit">Add split</button>');
    expect(t).toContain('<span class="why">No event applies now.</span>');

    // Once refunded, added splits are no longer offered.
    expect((await submit(agent, `/dashboard/payments/${p.ID}/refund`, { SplitID: String(split), Amount: '100' })).status).toBe(303);
    expect(await page(p.ID)).toContain(disabled('Add split', `Action is invalid: payment ${p.ID} has a refund, so splits can no longer be added`));
  });

  it('Open: events offered, capture and refund not (with why), cancel offered', async () => {
    const p = await createPayment(w);
    const t = await page(p.ID);
    for (const e of ['authorize', 'fail', 'expire']) expect(t).toContain(`name="Event" value="${e}"`);
    expect(t).toContain('<li>Succeed: ');
    expect(t).toContain(disabled('Capture split', 'Payment is invalid: only an Authorized payment can be captured, once (it is Open)'));
    expect(t).toContain(disabled('Refund', 'nothing to refund: no money taken and not yet refunded on any split (it is Open)'));
    expect(t).toContain('<button type="submit">Cancel payment</button>');
  });

  it('redelivery is offered only with a notification URL to send to', async () => {
    withOutbox(w);
    const p = await authorizedPayment(w);
    expect(await page(p.ID)).toContain(disabled('Redeliver', 'no notification URL: set one in Settings (or start the sandbox with --notify-url)'));
    w.store.sites.setNotificationUrl(30201, 'http://127.0.0.1:9/hook');
    expect(await page(p.ID)).toContain('<button type="submit">Redeliver</button>');
  });

  it('a card payment: once captured, no second capture and no cancel (with the card host\'s reasons); its refund offered', async () => {
    const res = await request(w.card)
      .post('/v1/payments')
      .set('Authorization', w.auth)
      .send({
        Payment: {
          MerchantTransactionID: 'offers-card-1',
          Amount: 9000,
          Currency: 'EUR',
          Capture: false,
          Card: { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' },
        },
      });
    const id = res.body.Payment.ID as number;
    expect(await page(id)).toContain('<button class="primary" type="submit">Capture</button>');
    expect(await page(id)).toContain(disabled('Refund', 'nothing to refund: no money taken and not yet refunded (it is Authorized)'));
    expect((await submit(agent, `/dashboard/payments/${id}/card-capture`)).status).toBe(303);
    const t = await page(id);
    expect(t).toMatch(/<button class="primary" type="submit" disabled>Capture<\/button> <span class="why">Not now: [^<]+<\/span>/);
    expect(t).toContain(disabled('Cancel payment', 'Payment is captured: a captured card payment cannot be cancelled; refund it'));
    expect(t).toContain('<button type="submit">Refund</button>');
    // A Captured card payment takes no provider event: none is offered, and each says why.
    expect(t).toContain('<span class="why">No event applies now.</span>');
    expect(t).toContain('Not offered now:<ul class="why"><li>Card entered: only an Open card payment waits for its card (it is Captured)</li>');
  });

  it('a reload after a refused action shows the page, not the action again', async () => {
    const p = await createPayment(w);
    const res = await submit(agent, `/dashboard/payments/${p.ID}/capture`);
    expect([res.status, res.headers.location]).toEqual([303, `/dashboard/payments/${p.ID}`]);
    expect(await page(p.ID)).toContain('Reason 17: Payment is invalid: only an Authorized payment can be captured, once (it is Open)');
    expect(await page(p.ID)).not.toContain('class="error"');
  });
});
