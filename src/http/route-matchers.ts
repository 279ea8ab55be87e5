// Route paths compiled once a process: each sandbox's routers (two apps, each with the control routes)
// asked path-to-regexp to compile the same few hundred paths again, most of the cost of making an app.

type Match = (path: string, options?: Record<string, unknown>) => unknown;
type PathToRegexp = { match: Match };

/** The options Express's router gives path-to-regexp (its `decode` is one function of its module). */
const KNOWN = new Set(['sensitive', 'end', 'trailing', 'decode']);

let installed = false;

/**
 * Makes path-to-regexp's `match` remember what it compiled, by path and options: the function it returns
 * holds only the regular expression and the decoders, none of a request's state, so one serves every
 * router of the process that asks for the same path. Express's router looks `match` up at each call.
 * Where the module is not the router's (an install that nests another version), nothing changes.
 */
export function compileRoutesOnce(): void {
  if (installed) return;
  installed = true;
  let lib: PathToRegexp;
  try {
    lib = require('path-to-regexp') as PathToRegexp;
  } catch {
    return;
  }
  const compile = lib.match;
  if (typeof compile !== 'function') return;
  const byDecode = new WeakMap<object, Map<string, unknown>>();
  const plain = new Map<string, unknown>();
  lib.match = function match(path, options) {
    if (typeof path !== 'string' || (options !== undefined && Object.keys(options).some((k) => !KNOWN.has(k)))) return compile(path, options);
    const decode = options?.decode;
    if (decode !== undefined && typeof decode !== 'function') return compile(path, options);
    let known = plain;
    if (typeof decode === 'function') {
      known = byDecode.get(decode) ?? new Map();
      byDecode.set(decode, known);
    }
    const key = `${String(options?.sensitive)}:${String(options?.end)}:${String(options?.trailing)}:${path}`;
    let matcher = known.get(key);
    if (matcher === undefined) {
      matcher = compile(path, options);
      known.set(key, matcher);
    }
    return matcher;
  };
}
