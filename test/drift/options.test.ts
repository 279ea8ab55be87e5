// What a newcomer gets wrong first: a --merchants file that is missing, not JSON or names no merchant is
// refused with the file's name and what is wrong; --fail-on takes its kinds without shell quoting; the
// proxy answers health, so `wait` and `stop` work on it as on `start`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startDrift } from '../../src/drift/proxy';
import { parseKinds } from '../../src/drift/print';
import { DIFFERENCE_KINDS } from '../../src/drift/differences';

const NOWHERE = 'http://127.0.0.1:1';

describe('drift --merchants', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'drift-options-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const start = (merchants: string) => startDrift({ upstream: NOWHERE, upstreamCard: NOWHERE, port: 0, cardPort: 0, merchants });
  const file = (name: string, text: string) => {
    writeFileSync(join(tmp, name), text);
    return join(tmp, name);
  };

  it('names a file it cannot read', async () => {
    await expect(start(join(tmp, 'none.json'))).rejects.toThrow(`--merchants ${join(tmp, 'none.json')}: cannot read it (no such file)`);
    await expect(start(tmp)).rejects.toThrow(`--merchants ${tmp}: cannot read it (a directory, not a file)`);
  });

  it('names a file that is not JSON, and says what it should hold', async () => {
    const bad = file('bad.json', '{"Merchants": [');
    await expect(start(bad)).rejects.toThrow(new RegExp(`^--merchants ${bad} is not JSON \\(.+\\); it is a file like fixtures/merchants\\.json`));
  });

  it('names a file without merchants', async () => {
    for (const text of ['[]', '{}', '{"Merchants": []}', '{"Merchants": {}}', '{"Merchants": [1]}', 'null']) {
      const f = file('empty.json', text);
      await expect(start(f)).rejects.toThrow(`--merchants ${f} names no merchant`);
    }
  });

  it("names the given file, not the shadow's copy of it, when a merchant is invalid", async () => {
    const f = file('bad-merchant.json', JSON.stringify({ Merchants: [{ SiteID: 'x' }] }));
    const error = await start(f).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(error).toMatch(new RegExp(`^--merchants ${f} is invalid: `));
    expect(error).toContain('Merchants[0].APIKey is missing');
    expect(error).not.toContain('split-sandbox-drift-');
  });

  it('starts with a file made from fixtures/merchants.json as docs/drift.md describes', async () => {
    const fixture = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'merchants.json'), 'utf8'));
    const { NotificationURL: _dropped, ...account } = fixture.Merchants[0];
    const drift = await start(file('my-account.json', JSON.stringify({ Merchants: [account] })));
    await drift.close();
  });
});

describe('drift report --fail-on kinds', () => {
  it('takes a kind of two words with a hyphen, an underscore or any case, so no quotes are needed', () => {
    expect([...parseKinds('http-status,missing-field,status-path,notification-order')]).toEqual(['http status', 'missing field', 'status path', 'notification order']);
    expect([...parseKinds('HTTP_Status, Extra  Field')]).toEqual(['http status', 'extra field']);
    expect([...parseKinds('http status,type')]).toEqual(['http status', 'type']);
  });

  it('takes any, alone or in a list', () => {
    expect([...parseKinds('any')]).toEqual([...DIFFERENCE_KINDS]);
    expect([...parseKinds('status,ANY')]).toEqual([...DIFFERENCE_KINDS]);
  });

  it('still refuses an unknown kind, naming the kinds', () => {
    expect(() => parseKinds('http-status,colour')).toThrow(/unknown kind "colour" \(the kinds: any, or http status, /);
    expect(() => parseKinds(' , ')).toThrow(/--fail-on needs kinds/);
  });
});

describe("the drift proxy's health", () => {
  it('answers GET /_sandbox/health openly, with its addresses and PID, even with a control token', async () => {
    const drift = await startDrift({ upstream: NOWHERE, upstreamCard: NOWHERE, port: 0, cardPort: 0, controlToken: 'secret' });
    try {
      const health = await request(drift.apiUrl).get('/_sandbox/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ Status: 'ok', BaseURL: drift.apiUrl, CardBaseURL: drift.cardUrl, PID: process.pid, Drift: true });
      // The rest stays guarded.
      expect((await request(drift.apiUrl).get('/_sandbox/drift')).status).toBe(401);
      expect((await request(drift.apiUrl).get('/_sandbox/clock')).status).toBe(401);
    } finally {
      await drift.close();
    }
  });
});

describe('an upstream that refuses connections', () => {
  it('is said at start, for each address, and a call through it is a 502 naming it', async () => {
    const warned: { msg: string; fields?: Record<string, unknown> }[] = [];
    let both!: () => void;
    const said = new Promise<void>((resolve) => (both = resolve));
    const log = {
      error: () => undefined,
      info: () => undefined,
      debug: () => undefined,
      enabled: () => true,
      warn(msg: string, fields?: Record<string, unknown>) {
        warned.push({ msg, fields });
        if (warned.length === 2) both();
      },
    };
    const drift = await startDrift({ upstream: `${NOWHERE}/api`, upstreamCard: 'http://127.0.0.1:2', port: 0, cardPort: 0, log });
    try {
      await said;
      expect(warned.map((w) => w.msg)).toEqual(['drift: the upstream does not answer; calls answer 502 until it does', 'drift: the upstream does not answer; calls answer 502 until it does']);
      expect(warned.map((w) => w.fields)).toEqual(
        expect.arrayContaining([expect.objectContaining({ upstream: `${NOWHERE}/api`, error: expect.stringMatching(/ECONNREFUSED/) }), expect.objectContaining({ upstreamCard: 'http://127.0.0.1:2/' })]),
      );
      const answer = await fetch(`${drift.apiUrl}/v1/payments`);
      expect(answer.status).toBe(502);
      expect(((await answer.json()) as { Message: string }).Message).toMatch(/^The upstream http:\/\/127\.0\.0\.1:1\/api did not answer: .*ECONNREFUSED/);
    } finally {
      await drift.close();
    }
  });

  it('is not warned about when it answers', async () => {
    const { startSandbox } = await import('../../src/main');
    const upstream = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', quiet: true });
    const warned: string[] = [];
    const log = { error: () => undefined, info: () => undefined, debug: () => undefined, enabled: () => true, warn: (msg: string) => void warned.push(msg) };
    const drift = await startDrift({ upstream: upstream.baseUrl, upstreamCard: upstream.cardBaseUrl, port: 0, cardPort: 0, log });
    try {
      expect((await fetch(`${drift.apiUrl}/v1/payments`)).status).toBe(401);
      await drift.idle();
      expect(warned).toEqual([]);
    } finally {
      await drift.close();
      await upstream.stop();
    }
  });
});
