// One split payment made as a marketplace (its credentials, its first linked site), as the isolation tests need many.
import request from 'supertest';

/** Creates payment `order-<n>` of 10.00 EUR split to `linkedSiteId`; expects 201 and gives the answer's Payment. */
export async function payAs(baseUrl: string, authorization: string, linkedSiteId: number | undefined, n: number): Promise<{ ID: number; Created: string }> {
  const res = await request(baseUrl)
    .post('/v1/payments')
    .set('Authorization', authorization)
    .send({
      Payment: {
        MerchantTransactionID: `order-${n}`,
        Amount: '1000',
        Currency: 'EUR',
        MethodID: 42,
        ReturnURL: 'https://shop.example/return',
        Customer: { Email: 'payer@example.com', FirstName: 'Ada', LastName: 'Lovelace' },
        Splits: [{ SiteID: linkedSiteId, Amount: '1000', MerchantTransactionID: `split-${n}` }],
      },
    });
  expect(res.status).toBe(201);
  return res.body.Payment;
}
