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
      matcher = withLeadingText(path, options?.sensitive === true, compile(path, options) as (input: unknown) => unknown);
      known.set(path, matcher);
    }
    return matcher;
  };
}

/** A route path's leading plain text, up to its first parameter, wildcard, group or escape. */
const PLAIN_TEXT = /^[A-Za-z0-9/._-]*/;

/**
 * The matcher of `path`, refusing at once a request path that does not begin with the route path's leading
 * text, which its expression (anchored at the start, that text escaped in it) cannot match: the router tries
 * each route of an address in turn, and a request mostly meets routes of other resources. A route's
 * expression is compiled at its first run, so a start's first answer (health, past all the address's
 * routes) no longer compiles every one of them either.
 */
function withLeadingText(path: string, sensitive: boolean, matcher: (input: unknown) => unknown): (input: unknown) => unknown {
  const lead = PLAIN_TEXT.exec(path)![0];
  if (lead.length < 2) return matcher;
  return (input) => (typeof input !== 'string' || beginsWith(input, lead, sensitive) ? matcher(input) : false);
}

/**
 * Whether `input` begins with the ASCII text `lead` as the route's expression compares them: without `sensitive`
 * it has the i flag, under which an ASCII letter also matches its other case and no character beyond ASCII matches
 * an ASCII one (not even one whose upper case is ASCII: ECMAScript's canonicalization without the u flag).
 */
function beginsWith(input: string, lead: string, sensitive: boolean): boolean {
  if (input.length < lead.length) return false;
  for (let i = 0; i < lead.length; i++) {
    const a = input.charCodeAt(i);
    const b = lead.charCodeAt(i);
    if (a === b) continue;
    const lower = b | 0x20;
    if (sensitive || lower < 0x61 || lower > 0x7a || (a | 0x20) !== lower) return false;
  }
  return true;
}
