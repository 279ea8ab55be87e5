// Changing a preapproval (`PATCH /v1/preapprovals/{id}`) as SDK-NET's ChangePreapprovalAsync sends it:
// 201 with its status unchanged and a RedirectURL, what is left out kept; refusals; other sites' 404.
import request from 'supertest';
import { preapprovalErrorResponse, preapprovalResponse } from '../../src/schemas/preapprovals';
import { MARKETPLACE, PLAIN, START_STAMP, type World, basic, expectSchema, makeWorld, snapshot } from '../helpers/world';

const AUTH = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);

const CREATE = {
  Preapproval: {
    MerchantPreapprovalID: 'jmt3593334',
    Description: '1 year subscription',
    ReturnURL: 'https://shop.example/return',
    MethodID: 2,
    PreapprovedMaximumAmount: 5000,
    Currency: 'EUR',
    Customer: { FirstName: 'John', LastName: 'Doe', Email: 'john@example.com' },
    BillingAddress: { City: 'Amsterdam', Country: 'NL' },
  },
};

/**
 * What SDK-NET sends for its integration test's change (Newtonsoft: RecurringPeriod and MethodOptionID
 * 0, a null PreapprovedMaximumAmount and Currency left out, every Customer and Address property).
 */
const SDK_CHANGE =
  '{"Preapproval":{"MethodID":2,"MerchantPreapprovalID":"jmt3593334","RecurringPeriod":0,"Description":"SDK Test Preapproval 11/27/2026 10:00:00",' +
  '"ReturnURL":"http://demo.smart2pay.com/redirect.php","MethodOptionID":0,"Customer":{"MerchantCustomerID":null,"Email":"test_user_29302802@testuser.com",' +
  '"FirstName":null,"LastName":null,"Gender":null,"SocialSecurityNumber":null,"Phone":null,"Company":null,"DateOfBirth":null},' +
  '"BillingAddress":{"City":null,"ZipCode":null,"State":null,"Street":null,"StreetNumber":null,"HouseNumber":null,"HouseExtension":null,"Country":"BR"}}}';

describe('changing a preapproval', () => {
  let w: World;
  beforeEach(() => {
    w = makeWorld();
  });
  afterEach(() => w.close());

  const create = async () => (await request(w.api).post('/v1/preapprovals').set('Authorization', AUTH).send(CREATE)).body.Preapproval;
  const patch = (id: number, json: string, auth = AUTH) =>
    request(w.api).patch(`/v1/preapprovals/${id}`).set('Authorization', auth).set('Content-Type', 'application/json; charset=utf-8').send(json);
  const open = async (id: number) => request(w.api).post(`/_sandbox/preapprovals/${id}/events`).send({ Event: 'open' }).expect(200);

  it('takes the SDK’s body for an Open preapproval: 201, still Open, the changes made, the rest kept, with a RedirectURL', async () => {
    const p = await create();
    await open(p.ID);
    // A status change is recorded in the history and notified together (services/changes.ts): a change of terms is neither.
    const history = () => w.store.db.prepare('SELECT count(*) AS n FROM status_history WHERE preapproval_id = ?').get(p.ID);
    expect(history()).toEqual({ n: 2 });
    const res = await patch(p.ID, SDK_CHANGE);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      Preapproval: {
        ID: p.ID,
        Created: START_STAMP,
        MethodID: 2,
        SiteID: MARKETPLACE.SiteID,
        MerchantPreapprovalID: 'jmt3593334',
        RecurringPeriod: 0,
        PreapprovedMaximumAmount: '5000',
        Currency: 'EUR',
        ReturnURL: 'http://demo.smart2pay.com/redirect.php',
        Description: 'SDK Test Preapproval 11/27/2026 10:00:00',
        Customer: { ...p.Customer, Email: 'test_user_29302802@testuser.com' },
        BillingAddress: { ...p.BillingAddress, Country: 'BR' },
        Status: { ID: 2, Info: 'Open', Reasons: null },
        RedirectURL: expect.stringMatching(new RegExp(`^http://sandbox\\.test/Home/Preapproval\\?PreapprovalToken=[0-9A-F]{32}\\.${p.ID}$`)),
        MethodOptionID: 0,
        PreapprovedFrequency: null,
        MandateReference: null,
      },
    });
    expectSchema(preapprovalResponse, res.body);
    // Kept: a read answers the same terms (an Open preapproval's read has no RedirectURL).
    const read = await request(w.api).get(`/v1/preapprovals/${p.ID}`).set('Authorization', AUTH);
    expect(read.body).toEqual({ Preapproval: { ...res.body.Preapproval, RedirectURL: null } });
    // The page it names says the preapproval was answered already.
    const page = await request(w.api).get(new URL(res.body.Preapproval.RedirectURL).pathname + new URL(res.body.Preapproval.RedirectURL).search);
    expect(page.status).toBe(410);
    // Its status did not change: no history row, nothing notified.
    expect(history()).toEqual({ n: 2 });
  });

  it('keeps a Pending preapproval Pending, with its own payer page', async () => {
    const p = await create();
    const res = await patch(p.ID, SDK_CHANGE);
    expect(res.status).toBe(201);
    expect(res.body.Preapproval.Status).toEqual({ ID: 1, Info: 'Pending', Reasons: null });
    expect(res.body.Preapproval.RedirectURL).toBe(p.RedirectURL);
  });

  it('refuses a closed preapproval (reason 12), another MethodID (reason 5), a taken MerchantPreapprovalID (reason 20) and a bad body, changing nothing', async () => {
    const p = await create();
    const other = (await request(w.api).post('/v1/preapprovals').set('Authorization', AUTH).send({ Preapproval: { ...CREATE.Preapproval, MerchantPreapprovalID: 'other' } })).body.Preapproval;
    const before = snapshot(w.store);
    const method = await patch(p.ID, '{"Preapproval":{"MethodID":42}}');
    expect(method.status).toBe(400);
    expectSchema(preapprovalErrorResponse, method.body);
    expect(method.body.Preapproval.Status).toEqual({ ID: 1, Info: 'Pending', Reasons: [{ Code: 5, Info: `Preapproval.MethodID is invalid: preapproval ${p.ID} is of method 2; a change keeps its method` }] });
    const taken = await patch(p.ID, '{"Preapproval":{"MerchantPreapprovalID":"other"}}');
    expect(taken.body.Preapproval.Status.Reasons).toEqual([{ Code: 20, Info: 'Preapproval.MerchantPreapprovalID is duplicated: other was used before on site 30201' }]);
    // A field the API does not read is refused with --strict-fields (ignored without it).
    w.services.settings.strictFields = true;
    const unknownField = await patch(p.ID, '{"Preapproval":{"Colour":"red"}}');
    w.services.settings.strictFields = false;
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.Preapproval.Status.Reasons[0].Info).toContain('Preapproval.Colour');
    const badAmount = await patch(p.ID, '{"Preapproval":{"PreapprovedMaximumAmount":"10.50"}}');
    expect(badAmount.body.Preapproval.Status.Reasons[0].Code).toBe(118);
    expect(snapshot(w.store)).toBe(before);

    await request(w.api).delete(`/v1/preapprovals/${other.ID}`).set('Authorization', AUTH).expect(200);
    const closed = await patch(other.ID, SDK_CHANGE);
    expect(closed.status).toBe(400);
    expect(closed.body.Preapproval).toMatchObject({ ID: other.ID, Status: { ID: 4, Info: 'ClosedByCustomer', Reasons: [{ Code: 12 }] } });
  });

  it('answers another site’s preapproval 404, as an unknown one, and 401 without credentials', async () => {
    const p = await create();
    const foreign = await patch(p.ID, SDK_CHANGE, basic(PLAIN.SiteID, PLAIN.APIKey));
    const unknown = await patch(987654, SDK_CHANGE);
    expect([foreign.status, foreign.body]).toEqual([404, unknown.body]);
    expect(unknown.status).toBe(404);
    expect((await patch(p.ID, SDK_CHANGE, basic(MARKETPLACE.SiteID, 'wrong'))).status).toBe(401);
  });
});
