// path-to-regexp, the one express's router uses (test/setup/environment.cjs): the sources make it
// remember what it compiled (src/http/route-matchers.ts), for the router to use.
module.exports = globalThis[Symbol.for('split-sandbox.shared-module')]('path-to-regexp');
