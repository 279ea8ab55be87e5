// Spec 4.6: cancel, and its rejections (reason 122).
import request from 'supertest';
import { paymentErrorResponse, paymentResponse } from '../../src/schemas/responses';
import {
  START_STAMP,
  type WirePayment,
  type World,
  authorizedPayment,
  createPayment,
  event,
  expectSchema,
  makeWorld,
  snapshot,
  post,
} from '../helpers/world';

const CANCELLED = { ID: 3, Info: 'Cancelled', Reasons: null };

const get = (w: World, id: number) => request(w.api).get(`/v1/payments/${id}`).set('Authorization', w.auth);

async function expectCancelRefused(w: World, id: number) {
  const current = (await get(w, id)).body.Payment as WirePayment;
  const before = snapshot(w.store);
  const res = await post(w, `/v1/payments/${id}/cancel`);
  expect(res.status).toBe(400);
  expectSchema(paymentErrorResponse, res.body);
  expect(res.body).toEqual({
    Payment: {
      ...current,
      InvalidRequestID: expect.stringMatching(/^[0-9]+$/),
      Status: { ID: current.Status.ID, Info: current.Status.Info, Reasons: [{ Code: 122, Info: expect.any(String) }] },
    },
  });
  expect(snapshot(w.store)).toBe(before);
}

describe('POST /v1/payments/{id}/cancel (4.6)', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('cancels an Authorized payment: 200, payment and splits Cancelled, RedirectURL and TokenLifetime null', async () => {
    const auth = await authorizedPayment(w);
    expect(auth.RedirectURL).not.toBeNull();
    expect(auth.TokenLifetime).toBe(10);
    const res = await post(w, `/v1/payments/${auth.ID}/cancel`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectSchema(paymentResponse, res.body);
    expect(res.body).toEqual({
      Payment: {
        ...auth,
        Status: CANCELLED,
        NotificationDateTime: START_STAMP,
        RedirectURL: null,
        TokenLifetime: null,
        Splits: auth.Splits.map((s) => ({ ...s, StateDetails: CANCELLED })),
      },
    });
    expect((await get(w, auth.ID)).body).toEqual(res.body);
  });

  it('accepts an empty JSON object or an empty body with a JSON content type', async () => {
    const a = await authorizedPayment(w);
    expect((await post(w, `/v1/payments/${a.ID}/cancel`).set('Content-Type', 'application/json').send('')).status).toBe(200);
    const b = await authorizedPayment(w);
    expect((await post(w, `/v1/payments/${b.ID}/cancel`).send({})).status).toBe(200);
  });

  it('cancels a payment without splits; the body has no Splits key', async () => {
    const p = await createPayment(w, { Splits: undefined });
    const res = await post(w, `/v1/payments/${p.ID}/cancel`);
    expect(res.status).toBe(200);
    expectSchema(paymentResponse, res.body);
    expect('Splits' in res.body.Payment).toBe(false);
    expect(res.body.Payment).toMatchObject({ Status: CANCELLED, RedirectURL: null, TokenLifetime: null });
  });

  it('refuses to cancel a PartiallyCaptured payment (per-split capture) with reason 122', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/capture`)
      .send({ Payment: { Splits: [{ ID: auth.Splits[0]!.ID, Amount: 10 }] } })
      .expect(200);
    await expectCancelRefused(w, auth.ID);
  });

  it('refuses to cancel a Cancelled payment with reason 122', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/cancel`).expect(200);
    await expectCancelRefused(w, auth.ID);
  });

  it('refuses to cancel a captured (Success) payment with reason 122', async () => {
    const auth = await authorizedPayment(w);
    await post(w, `/v1/payments/${auth.ID}/capture`).expect(200);
    await expectCancelRefused(w, auth.ID);
  });

  it('refuses to cancel a one-step Success payment with reason 122', async () => {
    const p = await createPayment(w, { MethodID: 29 });
    await event(w, p.ID, 'succeed');
    await expectCancelRefused(w, p.ID);
  });

  it('refuses to cancel a Failed payment with reason 122', async () => {
    const p = await createPayment(w);
    await event(w, p.ID, 'fail');
    await expectCancelRefused(w, p.ID);
  });

  it('refuses to cancel a CaptureRequested payment with reason 122', async () => {
    const auth = await authorizedPayment(w, { MethodID: 1078 });
    await post(w, `/v1/payments/${auth.ID}/capture`).expect(200);
    await expectCancelRefused(w, auth.ID);
  });

  it('refuses to cancel an Open payment with reason 122 when cancelOpen is off', async () => {
    w.close();
    w = makeWorld({ cancelOpen: false });
    const p = await createPayment(w);
    await expectCancelRefused(w, p.ID);
  });
});
