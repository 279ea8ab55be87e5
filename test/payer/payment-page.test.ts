// The hosted payment page behind RedirectURL: what the payer sees, the buttons, and their effects.
import request from 'supertest';
import { type World, createPayment, makeWorld, snapshot } from '../helpers/world';

const pathOf = (redirectUrl: string) => redirectUrl.replace('http://sandbox.test', '');
const tokenOf = (redirectUrl: string) => new URL(redirectUrl).searchParams.get('PaymentToken')!;

async function status(w: World, id: number) {
  return (await request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth)).body.Payment.Status.ID as number;
}

describe('GET /Home?PaymentToken=… (the payment page)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('shows the merchant, the amount in major units, the method, the splits and the two-step buttons', async () => {
    const p = await createPayment(w, { Amount: '1154', Splits: [{ SiteID: 30202, Amount: '1154', MerchantTransactionID: 's' }] });
    const res = await request(w.api).get(pathOf(p.RedirectURL!));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Sandbox Marketplace');
    expect(res.text).toContain('11.54 EUR');
    expect(res.text).toContain('PayPal');
    expect(res.text).toContain('Seller One');
    expect(res.text.match(/<button[^>]*>(\w+)<\/button>/g)!.map((b) => />(\w+)</.exec(b)![1])).toEqual(['Authorize', 'Fail', 'Cancel']);
  });

  it('offers Pay instead of Authorize for a one-step method', async () => {
    const p = await createPayment(w, { MethodID: 2 });
    const res = await request(w.api).get(pathOf(p.RedirectURL!));
    expect(res.text.match(/<button[^>]*>(\w+)<\/button>/g)!.map((b) => />(\w+)</.exec(b)![1])).toEqual(['Pay', 'Fail', 'Cancel']);
  });

  it('escapes what the merchant sent (no script from MerchantTransactionID or Description)', async () => {
    const p = await createPayment(w, { MerchantTransactionID: '<script>alert(1)</script>', Description: '"><img src=x onerror=alert(2)>' });
    const res = await request(w.api).get(pathOf(p.RedirectURL!));
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('answers 404 with a clear page for an unknown or mistyped token', async () => {
    const p = await createPayment(w);
    const q = await createPayment(w, { MerchantTransactionID: 'another' });
    // A link is its payment's token with its ID: one payment's token with the other's ID opens neither.
    const mixed = [`${tokenOf(p.RedirectURL!)}.${q.ID}`, `${tokenOf(q.RedirectURL!)}.${p.ID}`, `${tokenOf(p.RedirectURL!)}.0${p.ID}`];
    for (const t of ['0123456789ABCDEF0123456789ABCDEF.1', 'nonsense', `${tokenOf(p.RedirectURL!)}.${p.ID + 2}`, ...mixed]) {
      const res = await request(w.api).get(`/Home?PaymentToken=${encodeURIComponent(t)}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Payment unavailable');
    }
  });

  it('answers 410 once the token lifetime (minutes) has passed', async () => {
    const p = await createPayment(w, { TokenLifetime: 5 });
    w.clock.advance(5 * 60_000);
    const res = await request(w.api).get(pathOf(p.RedirectURL!));
    expect(res.status).toBe(410);
    expect(res.text).toContain('expired');
  });

  it('answers 404 for a payment the merchant cancelled (its token is gone)', async () => {
    const p = await createPayment(w);
    await request(w.api).post(`/v1/payments/${p.ID}/cancel`).set('Authorization', w.auth).expect(200);
    expect((await request(w.api).get(pathOf(p.RedirectURL!))).status).toBe(404);
  });
});

describe('POST /Home/{action} (a button)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  const press = (p: { RedirectURL: string | null }, action: string) =>
    request(w.api).post(`/Home/${action}`).type('form').send({ PaymentToken: tokenOf(p.RedirectURL!) });

  it('authorizes a two-step payment and sends the browser back to ReturnURL', async () => {
    const p = await createPayment(w);
    const res = await press(p, 'authorize');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('https://shop.example/return');
    expect(await status(w, p.ID)).toBe(9);
  });

  it('pays a one-step payment (Success), fails one (Failed) and cancels one (Cancelled)', async () => {
    const a = await createPayment(w, { MethodID: 2 });
    const b = await createPayment(w);
    const c = await createPayment(w);
    expect((await press(a, 'pay')).status).toBe(303);
    expect((await press(b, 'fail')).status).toBe(303);
    expect((await press(c, 'cancel')).status).toBe(303);
    expect([await status(w, a.ID), await status(w, b.ID), await status(w, c.ID)]).toEqual([2, 4, 3]);
  });

  it('changes the payment once when pressed twice (two tabs): the second press gets 410', async () => {
    const p = await createPayment(w);
    expect((await press(p, 'authorize')).status).toBe(303);
    const before = snapshot(w.store);
    const again = await press(p, 'fail');
    expect(again.status).toBe(410);
    expect(again.text).toContain('already been completed');
    expect(snapshot(w.store)).toBe(before);
    expect(await status(w, p.ID)).toBe(9);
  });

  it('refuses a button the method does not have (Pay on a two-step payment), changing nothing', async () => {
    const p = await createPayment(w);
    const before = snapshot(w.store);
    expect((await press(p, 'pay')).status).toBe(404);
    expect((await press(p, 'explode')).status).toBe(404);
    expect(snapshot(w.store)).toBe(before);
  });
});
