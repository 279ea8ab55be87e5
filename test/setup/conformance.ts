// Every answer a test gets through supertest is checked against the OpenAPI document of the address
// that gave it (test/helpers/conformance.ts): a test fails on an answer the document does not describe.
import type { Server } from 'node:http';
import supertest from 'supertest';
import type { Surface } from '../../src/openapi/document';
import { nonConformity } from '../helpers/conformance';

type Done = (err: Error | null, res: unknown) => void;
const ORIGINAL = Symbol.for('split-sandbox.supertest-assert');
interface TestInternals {
  app: Server | string;
  url: string;
  method: string;
  _header: Record<string, unknown>;
}
interface Res {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** The address behind a URL: only the API address serves the dashboard; undefined for what is no sandbox. */
const byOrigin = new Map<string, Promise<Surface | undefined>>();
function surfaceAt(origin: string): Promise<Surface | undefined> {
  let found = byOrigin.get(origin);
  if (!found) {
    found = fetch(`${origin}/dashboard/login`, { signal: AbortSignal.timeout(10_000) })
      .then(async (r) => {
        if (r.status === 200) return 'api' as const;
        const body = (await r.json().catch(() => null)) as { Message?: unknown } | null;
        return r.status === 404 && typeof body?.Message === 'string' && body.Message.startsWith('No HTTP resource') ? ('card' as const) : undefined;
      })
      .catch(() => undefined);
    byOrigin.set(origin, found);
  }
  return found;
}

async function surfaceOf(t: TestInternals): Promise<Surface | undefined> {
  if (typeof t.app !== 'string') {
    // supertest wraps an app in a server: the app is the server's request listener.
    const app = t.app.listeners('request')[0] as { locals?: { surface?: Surface } } | undefined;
    return app?.locals?.surface;
  }
  return surfaceAt(new URL(t.url).origin);
}

type AssertFn = (this: TestInternals, err: Error | null, res: Res | undefined, fn: Done) => void;
const Test = (supertest as unknown as { Test: { prototype: { assert: AssertFn; [ORIGINAL]?: AssertFn } } }).Test;
// The test files of a jest worker share one supertest (test/setup/environment.cjs): each file replaces
// the previous file's check with its own, around supertest's own assert.
const assert = (Test.prototype[ORIGINAL] ??= Test.prototype.assert);
Test.prototype.assert = function (this: TestInternals, err: Error | null, res: Res | undefined, fn: Done) {
  if (!res) return assert.call(this, err, res, fn);
  void surfaceOf(this).then((surface) => {
    const problem =
      surface &&
      nonConformity(surface, {
        method: this.method,
        // As sent, not normalized: the router sees `/_sandbox/snapshots/../restore` as it is.
        path: this.url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, ''),
        status: res.status,
        contentType: res.headers['content-type'],
        body: res.body,
        requestHeaders: this._header,
      });
    const failure = problem ? new Error(`The OpenAPI document does not describe this answer: ${problem}`) : null;
    assert.call(this, err, res, (e, r) => fn(e ?? failure, r));
  });
};

/**
 * supertest's .expect() formats its caller's stack when it is called, to put it in front of the
 * error of an expectation that fails: with jest's source maps that is a quarter of a millisecond for
 * each one. The frames are taken the same way, when .expect() is called; they are formatted only for
 * an expectation that fails, into the same text. (supertest 7's expect(), with that one change.)
 */
type Assert = (res: unknown) => unknown;
function wrapAssertFn(assertFn: Assert): Assert {
  const saved = new Error();
  return (res) => {
    let err: unknown;
    try {
      err = assertFn(res);
    } catch (e) {
      err = e;
    }
    if (err instanceof Error && err.stack) {
      const savedStack = saved.stack!.split('\n').slice(3);
      const badStack = err.stack.replace(err.message, '').split('\n').slice(1);
      err.stack = [err.toString()].concat(savedStack).concat('----').concat(badStack).join('\n');
    }
    return err;
  };
}
interface ExpectInternals {
  _asserts: Assert[];
  end(fn: unknown): unknown;
  _assertStatus(status: number, res: unknown): unknown;
  _assertStatusArray(statuses: number[], res: unknown): unknown;
  _assertBody(body: unknown, res: unknown): unknown;
  _assertHeader(header: { name: string; value: unknown }, res: unknown): unknown;
}
(Test.prototype as unknown as { expect: (this: ExpectInternals, a: unknown, b?: unknown, c?: unknown) => unknown }).expect = function (
  this: ExpectInternals,
  a: unknown,
  b?: unknown,
  c?: unknown,
) {
  if (typeof a === 'function') {
    this._asserts.push(wrapAssertFn(a as Assert));
    return this;
  }
  if (typeof b === 'function') this.end(b);
  if (typeof c === 'function') this.end(c);
  if (typeof a === 'number') {
    this._asserts.push(wrapAssertFn(this._assertStatus.bind(this, a)));
    if (typeof b !== 'function' && arguments.length > 1) this._asserts.push(wrapAssertFn(this._assertBody.bind(this, b)));
    return this;
  }
  if (Array.isArray(a) && a.length > 0 && a.every((val) => typeof val === 'number')) {
    this._asserts.push(wrapAssertFn(this._assertStatusArray.bind(this, a as number[])));
    return this;
  }
  if (typeof b === 'string' || typeof b === 'number' || b instanceof RegExp) {
    this._asserts.push(wrapAssertFn(this._assertHeader.bind(this, { name: '' + String(a), value: b })));
    return this;
  }
  this._asserts.push(wrapAssertFn(this._assertBody.bind(this, a)));
  return this;
};
