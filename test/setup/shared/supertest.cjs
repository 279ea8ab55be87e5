// supertest, as loaded once per jest worker (test/setup/environment.cjs says why), with one server per app.
'use strict';
// supertest's `request(app)` makes a server for the app, listens, and closes it again for every
// request: with the connection made for it, that was a third of what a request cost. Here an app
// gets one server, on the loopback address and a port of its own, kept listening until the test file
// ends (or until newer apps take its place); each `request(app)` is sent to it, on a connection kept
// alive between the file's requests to that app. `request.agent(app)` (a cookie jar) sends to the same
// server, on a connection of its own per request as before. Anything else (a URL, a server of the
// test's own, http2) goes to supertest as it is.
//
// A kept connection is never closed under a request about to use it: the server keeps idle
// connections for ever (keepAliveTimeout 0: no Keep-Alive timeout, and so none announced to the
// client either); the client pools a connection only after a complete answer that did not say
// `Connection: close` (Node's own rule), which is how the server says it closes one (a malformed
// request, a 408 fault, a client's own `Connection: close`); a connection the sandbox drops in the
// middle of a request (a Reset or LoseAnswer fault) fails that request only, as a new one would.
const http = require('node:http');
const supertest = globalThis[Symbol.for('split-sandbox.shared-module')]('supertest');
const atFileEnd = globalThis[Symbol.for('split-sandbox.at-file-end')];

const { Test } = supertest;
/** On a server kept here: its state (below). On a request sent to one: that state, until it settles. */
const KEPT = Symbol.for('split-sandbox.kept-server');
const HELD = Symbol.for('split-sandbox.kept-server-held');
/** supertest's own methods, kept on its prototype, which the test files of a worker share. */
const ORIGINAL = {
  serverAddress: Symbol.for('split-sandbox.supertest-server-address'),
  _whenServerReady: Symbol.for('split-sandbox.supertest-when-server-ready'),
  _releaseServer: Symbol.for('split-sandbox.supertest-release-server'),
};
const original = (name) => (Test.prototype[ORIGINAL[name]] ??= Test.prototype[name]);
const serverAddress = original('serverAddress');
const whenServerReady = original('_whenServerReady');
const releaseServer = original('_releaseServer');

// Each test file puts its own three back (as test/setup/conformance.ts does its assert): they read
// only what a kept server carries, whichever file made it.
Test.prototype.serverAddress = function (app, path) {
  const kept = app[KEPT];
  if (kept) {
    // Counted from the moment its URL names the server: a server is closed early only with none pending.
    kept.pending += 1;
    this[HELD] = kept;
  }
  // A kept server that is listening is left to its owner by supertest; one that is still starting
  // is waited for (below) and then is.
  return serverAddress.call(this, app, path);
};
Test.prototype._whenServerReady = function (fn) {
  const kept = this.app[KEPT];
  if (kept && !kept.server.listening) {
    const go = () => whenServerReady.call(this, fn);
    kept.listening.then(go, go);
    return;
  }
  whenServerReady.call(this, fn);
};
Test.prototype._releaseServer = function (fn) {
  const kept = this[HELD];
  if (kept) {
    this[HELD] = undefined;
    kept.pending -= 1;
  }
  releaseServer.call(this, fn);
};

/**
 * Servers closed early, the least recently used first, once more than this many are open and idle:
 * a file of many worlds would otherwise keep every world's app (and all it holds) to its end.
 */
const OPEN = 8;
/** The file's servers by app, the most recently used last. */
const kept = new Map();
/** The closes under way: the file ends once they are done. */
const closing = [];
let ended = false;

function keptFor(app) {
  let k = kept.get(app);
  if (k) {
    kept.delete(app);
    kept.set(app, k);
    return k;
  }
  const server = http.createServer(app);
  server.keepAliveTimeout = 0;
  k = {
    server,
    agent: new http.Agent({ keepAlive: true }),
    pending: 0,
    listening: new Promise((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    }),
    methods: undefined,
  };
  k.listening.catch(() => {});
  server[KEPT] = k;
  server.listen(0, '127.0.0.1');
  kept.set(app, k);
  if (kept.size > OPEN) {
    for (const [a, old] of kept) {
      if (kept.size <= OPEN) break;
      if (old.pending > 0 || old === k) continue;
      kept.delete(a);
      closing.push(shut(old));
    }
  }
  return k;
}

function shut(k) {
  return k.listening.then(
    () =>
      new Promise((resolve) => {
        k.agent.destroy();
        k.server.closeAllConnections();
        k.server.close(() => resolve());
      }),
    () => k.agent.destroy(),
  );
}

atFileEnd(async () => {
  ended = true;
  for (const k of kept.values()) closing.push(shut(k));
  kept.clear();
  await Promise.all(closing);
});

const METHODS = Object.keys(supertest('http://127.0.0.1'));

function request(app, options = {}) {
  if (typeof app !== 'function' || options.http2 || ended) return supertest(app, options);
  const k = keptFor(app);
  if (!k.methods) {
    const methods = {};
    for (const method of METHODS) methods[method] = (url) => new Test(k.server, method === 'del' ? 'delete' : method, url).agent(k.agent);
    k.methods = methods;
  }
  return k.methods;
}

function agent(app, options = {}) {
  if (typeof app !== 'function' || options.http2 || ended) return supertest.agent(app, options);
  return supertest.agent(keptFor(app).server, options);
}

module.exports = Object.assign(request, { Test, agent, cookies: supertest.cookies });
