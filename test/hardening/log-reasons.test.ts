// A refusal's log line says why it was refused, as its body does: the reasons of a 400, the Message of a 401 or 404.
import request from 'supertest';
import { createApp } from '../../src/http/app';
import { createLogger } from '../../src/log';
import { type World, authorizedPayment, makeWorld } from '../helpers/world';

describe('log lines of refusals', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  function logged(format: 'pretty' | 'json') {
    const lines: string[] = [];
    const app = createApp({ ...w.ctx, log: createLogger('info', format, (line: string) => lines.push(line)) }, 'api');
    return { app, lines };
  }

  it('a 400 names each reason, pretty and as JSON', async () => {
    const pretty = logged('pretty');
    const res = await request(pretty.app).post('/v1/payments').set('Authorization', w.auth).send({ Payment: { Amount: '10.50' } });
    expect(res.status).toBe(400);
    const line = pretty.lines.find((l) => l.includes('POST /v1/payments 400'))!;
    expect(line).toContain('reason=');
    for (const r of res.body.Payment.Status.Reasons as { Info: string }[]) expect(line).toContain(r.Info);

    const json = logged('json');
    await request(json.app).post('/v1/payments').set('Authorization', w.auth).send('{"Payment": ');
    const entry = JSON.parse(json.lines.find((l) => l.includes('POST /v1/payments 400'))!);
    expect(entry.reason).toMatch(/^The request body is not valid JSON/);
  });

  it('a refused capture names its reason; a 401 and a 404 their Message; a 200 none', async () => {
    const p = await authorizedPayment(w);
    const { app, lines } = logged('json');
    expect((await request(app).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth)).status).toBe(200);
    const second = await request(app).post(`/v1/payments/${p.ID}/capture`).set('Authorization', w.auth);
    expect(second.status).toBe(400);
    await request(app).get(`/v1/payments/${p.ID}`);
    await request(app).get('/v1/payments/999999').set('Authorization', w.auth);
    const entries = lines.map((l) => JSON.parse(l) as { msg: string; reason?: string });
    expect(entries.find((e) => e.msg.endsWith('capture 200'))!.reason).toBeUndefined();
    expect(entries.find((e) => e.msg.endsWith('capture 400'))!.reason).toBe(second.body.Payment.Status.Reasons[0].Info);
    expect(entries.find((e) => e.msg.endsWith(' 401'))!.reason).toBe('Authorization has been denied for this request.');
    expect(entries.find((e) => e.msg.endsWith(' 404'))!.reason).toMatch(/\S/);
  });
});
