// Route paths compiled once a process: each sandbox's routers (two apps, each with the control routes)
// asked path-to-regexp to compile the same few hundred paths again, most of the cost of making an app.

type Match = (path: string, options?: Record<string, unknown>) => unknown;
type PathToRegexp = { match: Match };

/** The options Express's router gives path-to-regexp (its `decode` is one function of its module). */
const KNOWN = new Set(['sensitive', 'end', 'trailing', 'decode']);

/** Marks a module already made to remember: two copies of this file in one process (the bundle and the package, say) wrap it once. */
const REMEMBERS = Symbol.for('split-sandbox.route-matchers');

let looked = false;

/**
 * Makes path-to-regexp's `match` remember what it compiled, by path and options: the function it returns
 * holds only the regular expression and the decoders, none of a request's state, so one serves every
 * router of the process that asks for the same path. Express's router looks `match` up at each call.
 * Where the module is not the router's (an install that nests another version), nothing changes.
 */
export function compileRoutesOnce(): void {
  // Looked at once per module: a require is a lookup each time (in a test file, jest's whole resolution).
  if (looked) return;
  looked = true;
  let lib: PathToRegexp & { [REMEMBERS]?: true };
  try {
    lib = require('path-to-regexp') as PathToRegexp;
  } catch {
    return;
  }
  if (lib[REMEMBERS]) return;
  const compile = lib.match;
  if (typeof compile !== 'function') return;
  lib[REMEMBERS] = true;
  // By decode function (the router's one), then by the three flags, then by path.
  const byDecode = new WeakMap<object, Map<string, unknown>[]>();
  const plain: Map<string, unknown>[] = [];
  const flag = (v: unknown) => (v === undefined ? 0 : v === true ? 1 : v === false ? 2 : -1);
  lib.match = function match(path, options) {
    if (typeof path !== 'string') return compile(path, options);
    let tables = plain;
    let flags = 0;
    if (options !== undefined) {
      for (const k in options) if (!KNOWN.has(k)) return compile(path, options);
      const { sensitive, end, trailing, decode } = options;
      const f = [flag(sensitive), flag(end), flag(trailing)];
      if (f.includes(-1) || (decode !== undefined && typeof decode !== 'function')) return compile(path, options);
      flags = f[0]! * 9 + f[1]! * 3 + f[2]!;
      if (typeof decode === 'function') {
        tables = byDecode.get(decode) ?? [];
        if (tables.length === 0) byDecode.set(decode, tables);
      }
    }
    const known = (tables[flags] ??= new Map());
    let matcher = known.get(path);
    if (matcher === undefined) {
      matcher = compile(path, options);
      known.set(path, matcher);
    }
    return matcher;
  };
}
