// Fair turns: while two marketplaces send requests, one flooding from many connections has one request
// handled a turn and the other's are taken in rotation, not behind the flood; alone, nobody is held back.
// (What it does to a real flood is measured by bench/neighbours.cjs.)
import request from 'supertest';
import { createApp } from '../../src/http/app';
import { FairTurns } from '../../src/http/fair-turns';
import { LINKED, MARKETPLACE, PLAIN, type World, basic, makeWorld, paymentBody } from '../helpers/world';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('FairTurns', () => {
  it('runs everything at once for a key alone', () => {
    const turns = new FairTurns(1);
    const ran: number[] = [];
    for (let i = 0; i < 5; i++) turns.admit('a', () => ran.push(i));
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect(turns.waitingCount).toBe(0);
  });

  it('while another key sends, gives each key its share of a turn, the rest in later turns in rotation', async () => {
    const turns = new FairTurns(1);
    const ran: string[] = [];
    turns.admit('b', () => ran.push('b1'));
    for (let i = 1; i <= 4; i++) turns.admit('a', () => ran.push(`a${i}`));
    turns.admit('b', () => ran.push('b2'));
    // This turn: b's first, a's first; b's second has had b's share of the turn.
    expect(ran).toEqual(['b1', 'a1']);
    expect(turns.waitingCount).toBe(4);
    await nextTurn();
    expect(ran).toEqual(['b1', 'a1', 'a2', 'b2']);
    turns.admit('b', () => ran.push('b3'));
    await nextTurn();
    await nextTurn();
    await nextTurn();
    expect(ran).toEqual(['b1', 'a1', 'a2', 'b2', 'a3', 'b3', 'a4']);
    expect(turns.waitingCount).toBe(0);
  });
});

describe('the turns on the request path', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it("take each API request by its credentials' marketplace (failed ones no one's), and nothing but the API", async () => {
    const keys: string[] = [];
    const turns = new FairTurns();
    const admit = turns.admit.bind(turns);
    turns.admit = (key, run) => {
      keys.push(key);
      admit(key, run);
    };
    const ctx = { ...w.ctx, turns };
    const api = createApp(ctx, 'api');
    const card = createApp(ctx, 'card');
    await request(api).post('/v1/payments').set('Authorization', basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey)).send(paymentBody()).expect(201);
    await request(card).get('/v1/payments').set('Authorization', basic(PLAIN.SiteID, PLAIN.APIKey)).expect(200);
    await request(api).get('/v1/payments').set('Authorization', basic(LINKED[0], 'wrong')).expect(401);
    await request(api).get('/_sandbox/health').expect(200);
    await request(api).get('/dashboard').expect((r) => expect(r.status).toBeLessThan(500));
    expect(keys).toEqual([String(MARKETPLACE.SiteID), String(PLAIN.SiteID), '']);
  });
});
