// The control API of fault rules: add, list, read, delete, the refusals naming the wrong field, the
// reset that clears them, and their place in the served OpenAPI document.
import request from 'supertest';
import { type World, makeWorld, snapshot } from '../helpers/world';

describe('POST /_sandbox/faults', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('adds an api rule and answers it with its ID, defaults and no hits', async () => {
    const res = await request(w.api)
      .post('/_sandbox/faults')
      .send({ Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments/{id}/capture', SiteID: 30201 }, Action: { Status: 503 }, Times: 2 });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      Fault: { ID: 1, Channel: 'api', Match: { Method: 'POST', Path: '/v1/payments/{id}/capture', SiteID: 30201 }, Action: { Status: 503 }, Times: 2, Probability: 1, Hits: 0 },
    });
    expect(w.store.faults.all()).toMatchObject([{ id: 1, channel: 'api', times: 2, probability: 1, hits: 0 }]);
  });

  it('adds a notifications rule without Match: it matches every notification, until deleted', async () => {
    const res = await request(w.api).post('/_sandbox/faults').send({ Channel: 'notifications', Action: { Duplicate: 3 }, Probability: 0.25 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ Fault: { ID: 1, Channel: 'notifications', Match: {}, Action: { Duplicate: 3 }, Times: null, Probability: 0.25, Hits: 0 } });
  });

  it('lists, reads and deletes rules', async () => {
    await request(w.api).post('/_sandbox/faults').send({ Channel: 'api', Action: { Reset: true } });
    await request(w.api).post('/_sandbox/faults').send({ Channel: 'notifications', Match: { StatusID: 9 }, Action: { Delay: '5s' } });
    const list = await request(w.api).get('/_sandbox/faults');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      Faults: [
        { ID: 1, Channel: 'api', Match: {}, Action: { Reset: true }, Times: null, Probability: 1, Hits: 0 },
        { ID: 2, Channel: 'notifications', Match: { StatusID: 9 }, Action: { Delay: '5s' }, Times: null, Probability: 1, Hits: 0 },
      ],
    });
    expect((await request(w.api).get('/_sandbox/faults/2')).body).toEqual({ Fault: list.body.Faults[1] });

    const del = await request(w.api).delete('/_sandbox/faults/1');
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await request(w.api).get('/_sandbox/faults')).body.Faults.map((f: any) => f.ID)).toEqual([2]);
    expect(await request(w.api).delete('/_sandbox/faults/1').then((r) => [r.status, r.body])).toEqual([404, { Message: 'Fault not found.' }]);
    expect(await request(w.api).get('/_sandbox/faults/1').then((r) => [r.status, r.body])).toEqual([404, { Message: 'Fault not found.' }]);
    expect((await request(w.api).get('/_sandbox/faults/abc')).status).toBe(404);

    expect((await request(w.api).delete('/_sandbox/faults')).status).toBe(204);
    expect((await request(w.api).get('/_sandbox/faults')).body).toEqual({ Faults: [] });
    expect(w.store.faults.all()).toEqual([]);
    expect(w.services.faults!.apiRules + w.services.faults!.notificationRules).toBe(0);
  });

  it.each([
    [{ Channel: 'api', Action: { Explode: true } }, 'Action.Explode is not a known field'],
    [{ Channel: 'api', Action: { Status: 200 } }, 'Action.Status is invalid: must be one of 500, 502, 503, 504, 429, 408'],
    [{ Channel: 'api', Action: { Status: 503 }, Probability: 2 }, 'Probability is invalid: must be at most 1'],
    [{ Channel: 'api', Match: { Path: '/v1/nope' }, Action: { Status: 503 } }, 'Match.Path is invalid: /v1/nope is no route of the API (faults apply to the /v1 routes of both addresses)'],
    [{ Channel: 'api', Match: { Path: '/_sandbox/reset' }, Action: { Status: 503 } }, 'Match.Path is invalid: /_sandbox/reset is no route of the API (faults apply to the /v1 routes of both addresses)'],
    [{ Channel: 'api', Match: { Method: 'DELETE', Path: '/v1/payments/{id}' }, Action: { Reset: true } }, 'Match.Method is invalid: /v1/payments/{id} takes GET, not DELETE'],
    [{ Channel: 'api', Match: { Method: 'PUT' }, Action: { Reset: true } }, 'Match.Method is invalid: no route of the API takes PUT'],
    [{ Channel: 'api', Match: { Method: 'GET', Path: '/v1/payments/{id}/capture' }, Action: { Reset: true } }, 'Match.Method is invalid: /v1/payments/{id}/capture takes POST, not GET'],
    [{ Channel: 'api', Match: { Path: '/v1/payments/-1/capture' }, Action: { Status: 503 } }, 'Match.Path is invalid: /v1/payments/-1/capture names no ID a route takes (IDs are whole numbers of 1 to 15 digits, or a {placeholder})'],
    [{ Channel: 'api', Match: { Path: '/v1/payments/3005001/splits/first/capture' }, Action: { Status: 503 } }, 'Match.Path is invalid: /v1/payments/3005001/splits/first/capture names no ID a route takes (IDs are whole numbers of 1 to 15 digits, or a {placeholder})'],
    [{ Channel: 'api', Match: { Method: 'delete', Path: '/v1/payments/{id}' }, Action: { Reset: true } }, 'Match.Method is invalid: /v1/payments/{id} takes GET, not DELETE'],
    [{ Channel: 'api', Match: { Method: 'fetch' }, Action: { Reset: true } }, 'Match.Method is invalid: must be one of GET, POST, PUT, PATCH, DELETE'],
    [{ Channel: 'api', Action: { Drop: true } }, 'Action.Drop is not an action of the api channel: use one of Status, Delay, Reset, LoseAnswer'],
    [{ Channel: 'notifications', Action: { Status: 503 } }, 'Action.Status is not an action of the notifications channel: use one of Duplicate, Delay, Drop'],
    [{ Channel: 'api', Match: { StatusID: 9 }, Action: { Reset: true } }, 'Match.StatusID does not apply to the api channel: it matches by Method, Path, SiteID, PaymentID'],
    [{ Channel: 'notifications', Match: { Path: '/v1/payments' }, Action: { Drop: true } }, 'Match.Path does not apply to the notifications channel: it matches by SiteID, PaymentID, StatusID'],
    [{ Channel: 'api', Action: { Delay: '25h' } }, 'Action.Delay is invalid: must be at most 24h'],
    [{ Channel: 'api', Action: { Delay: 'soon' } }, 'Action.Delay is invalid: has the wrong format'],
    [{ Channel: 'api', Action: { Delay: '0s' } }, 'Action.Delay is invalid: expected a duration such as 500ms, 2s or 1m'],
    [{ Channel: 'api', Action: {} }, 'Action is invalid: must name at least one field'],
    [{ Channel: 'api', Action: { Reset: true, LoseAnswer: true } }, 'Action is invalid: must name at most 1 field(s)'],
    [{ Channel: 'api', Action: { Reset: false } }, 'Action.Reset is invalid: must be one of true'],
    [{ Channel: 'notifications', Action: { Duplicate: 1 } }, 'Action.Duplicate is invalid: must be at least 2'],
    [{ Channel: 'api', Action: { Reset: true }, Times: 0 }, 'Times is invalid: must be at least 1'],
    [{ Channel: 'email', Action: { Reset: true } }, 'Channel is invalid: must be one of api, notifications'],
    [{ Action: { Reset: true } }, 'Channel is missing'],
    [{ Channel: 'api' }, 'Action is missing'],
    [{ Channel: 'api', Action: { Reset: true }, Match: { SiteID: '30201' } }, 'Match.SiteID is invalid: expected integer'],
    [{ Channel: 'api', Action: { Reset: true }, Extra: 1 }, 'Extra is not a known field'],
  ])('refuses %j with 400 naming the field, and keeps nothing', async (body, message) => {
    const before = snapshot(w.store);
    const res = await request(w.api).post('/_sandbox/faults').send(body);
    expect([res.status, res.body]).toEqual([400, { Message: message }]);
    expect(snapshot(w.store)).toBe(before);
    expect(w.services.faults!.apiRules + w.services.faults!.notificationRules).toBe(0);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await request(w.api).post('/_sandbox/faults').set('Content-Type', 'application/json').send('{"Channel":');
    expect(res.status).toBe(400);
    expect(res.body.Message).toMatch(/^The request body is not valid JSON: /);
  });

  it('takes Match.Method in any case, as Path, and matches requests by it', async () => {
    const res = await request(w.api).post('/_sandbox/faults').send({ Channel: 'api', Match: { Method: 'post', Path: '/V1/Payments' }, Action: { Status: 503 } });
    expect([res.status, res.body.Fault?.Match]).toEqual([201, { Method: 'POST', Path: '/V1/Payments' }]);
    const hit = await request(w.api).post('/v1/payments').set('Authorization', w.auth).send({});
    expect(hit.status).toBe(503);
  });

  it('takes a concrete path and a template with any placeholder name, with or without a trailing slash', async () => {
    for (const Path of ['/v1/payments/3005001/capture', '/v1/payments/{paymentId}/splits/{s}/capture', '/v1/payments/', '/V1/Payments']) {
      const res = await request(w.api).post('/_sandbox/faults').send({ Channel: 'api', Match: { Path }, Action: { Status: 500 } });
      expect([Path, res.status]).toEqual([Path, 201]);
    }
  });
});

describe('fault rules and the rest of the control API', () => {
  it('are cleared by POST /_sandbox/reset, in the store and in force', async () => {
    const w = makeWorld();
    try {
      await request(w.api).post('/_sandbox/faults').send({ Channel: 'api', Action: { Status: 503 } });
      expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status).toBe(503);
      expect((await request(w.api).post('/_sandbox/reset')).status).toBe(200);
      expect((await request(w.api).get('/_sandbox/faults')).body).toEqual({ Faults: [] });
      expect((await request(w.api).get('/v1/payments').set('Authorization', w.auth)).status).toBe(200);
      // IDs start again from 1, as in a new database.
      expect((await request(w.api).post('/_sandbox/faults').send({ Channel: 'api', Action: { Status: 503 } })).body.Fault.ID).toBe(1);
    } finally {
      w.close();
    }
  });

  it('never touch the control API: a rule for every request leaves it answering', async () => {
    const w = makeWorld();
    try {
      await request(w.api).post('/_sandbox/faults').send({ Channel: 'api', Action: { Reset: true } });
      expect((await request(w.api).get('/_sandbox/faults')).status).toBe(200);
      expect((await request(w.api).get('/_sandbox/health')).status).toBe(200);
      expect((await request(w.api).delete('/_sandbox/faults')).status).toBe(204);
    } finally {
      w.close();
    }
  });

  it('are in the served OpenAPI document of both addresses, with X-Sandbox-Fault on every /v1 operation', async () => {
    const w = makeWorld();
    try {
      for (const surface of ['api', 'card']) {
        const doc = (await request(w.api).get(`/_sandbox/openapi.json?surface=${surface}`)).body;
        expect(Object.keys(doc.paths['/_sandbox/faults'])).toEqual(['post', 'get', 'delete']);
        expect(Object.keys(doc.paths['/_sandbox/faults/{id}'])).toEqual(['get', 'delete']);
        expect(doc.paths['/_sandbox/faults'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FaultRequest' });
        expect(doc.components.schemas.FaultRequest.required).toEqual(['Channel', 'Action']);
        expect(doc.paths['/_sandbox/faults/{id}'].delete.responses['204']).toEqual({ description: 'No content' }); // no body
        for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
          if (!path.startsWith('/v1/')) continue;
          for (const op of Object.values(ops)) expect(op.parameters.map((p: any) => p.name)).toContain('X-Sandbox-Fault');
        }
      }
    } finally {
      w.close();
    }
  });
});
