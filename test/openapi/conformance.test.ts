import express from 'express';
import request from 'supertest';
import { documentOf, nonConformity } from '../helpers/conformance';
import { makeWorld, paymentBody } from '../helpers/world';

const answer = (method: string, path: string, status: number, body: unknown, contentType = 'application/json; charset=utf-8') => ({
  method,
  path,
  status,
  contentType,
  body,
  requestHeaders: {},
});

describe('every answer is checked against the document (test/setup/conformance.ts)', () => {
  it('fails a test whose answer the document does not describe, naming the operation, the status and the schema error', async () => {
    // An app that claims to be the API address and answers a payment that is no payment.
    const app = express();
    app.locals.surface = 'api';
    app.get('/v1/payments/:id', (_req, res) => {
      res.status(200).json({ Payment: { ID: 'one' } });
    });
    app.get('/v1/payments/:id/status', (_req, res) => {
      res.status(418).json({ Message: 'teapot' });
    });
    await expect(request(app).get('/v1/payments/1')).rejects.toThrow(
      /^The OpenAPI document does not describe this answer: GET \/v1\/payments\/\{id\} \(getPayment\) on the api address answered 200 with a body its schema refuses: data\/Payment/,
    );
    await expect(request(app).get('/v1/payments/1/status')).rejects.toThrow(/\(getPaymentStatus\) on the api address answered 418, which the document does not list/);
    // Refused by the checks compiled once per run (test/setup/validators.ts), not by checks this file compiled.
    expect(documentOf('api').checks.precompiled).toBe(true);
  });

  it('passes the sandbox’s own answers, on both addresses', async () => {
    const w = makeWorld();
    try {
      const created = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send(paymentBody()).expect(201);
      await request(w.api).get(`/v1/payments/${created.body.Payment.ID}`).set('Authorization', w.auth).expect(200);
      await request(w.card).get('/v1/payments').set('Authorization', w.auth).expect(200);
    } finally {
      w.close();
    }
  });

  it('tells the addresses apart: a card list is not a split-payments list', () => {
    const cardList = { Payments: [], TotalCount: 0, Error: null };
    expect(nonConformity('api', answer('GET', '/v1/payments', 200, cardList))).toMatch(/listPayments/);
  });

  it('refuses an operation the document lacks, and allows the router’s own 404 for junk paths', () => {
    expect(nonConformity('api', answer('DELETE', '/v1/payments/1', 200, {}))).toMatch(/the document has no operation for it/);
    const junk = { Message: "No HTTP resource was found that matches the request URI '/v1/nothing'." };
    expect(nonConformity('api', answer('GET', '/v1/nothing', 404, junk))).toBeUndefined();
    expect(nonConformity('card', answer('GET', '/Home', 200, '<html>', 'text/html'))).toMatch(/no operation/);
  });

  it('checks the media type of pages and images', () => {
    expect(nonConformity('api', answer('GET', '/Home', 200, {}, 'application/json'))).toMatch(/showPaymentPage.*as application\/json, the document says text\/html/);
    expect(nonConformity('api', answer('GET', '/images/methods/paypal.svg', 200, '', 'image/svg+xml'))).toBeUndefined();
  });
});
