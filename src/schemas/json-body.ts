// Reads a request body as JSON, keeping apart what JSON.parse would blur.
//
// Fidelity: the real service takes amounts and IDs as integers only, so a number written with a
// fraction or an exponent (1000.0, 1e3) must be refused, although JSON.parse turns both into 1000.
// Such numbers are kept as a marked string, which then fails every integer and amount schema.

export class MalformedJson extends Error {}

const NON_INTEGER_MARK = '\u0000number:';

/** Deeper bodies are refused: no request of the API nests more than a few levels (Json.NET's default limit is 64). */
export const MAX_DEPTH = 64;

/** `integersOnly`: the API's rule (marks fractions and exponents); the control API takes any number. */
export function parseJsonBody(raw: string, integersOnly = true): unknown {
  const text = integersOnly && /\d[.eE]/.test(raw) ? markNonIntegers(raw) : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new MalformedJson((e as Error).message);
  }
  // Checked after parsing, so that malformed text is reported as such; echoing or validating a
  // value nested thousands deep would overflow the stack.
  if (nestsDeeperThan(raw, MAX_DEPTH)) throw new MalformedJson(`the JSON nests deeper than ${MAX_DEPTH} levels`);
  return value;
}

/**
 * Whether arrays and objects in JSON text nest deeper than `limit` (brackets inside strings do not
 * count). Text with no more than `limit` opening brackets in all cannot, and is not read character by
 * character: a body of a megabyte took milliseconds so; one deeper than the limit is known as soon as
 * its nesting passes it.
 */
function nestsDeeperThan(raw: string, limit: number): boolean {
  let openers = 0;
  for (const bracket of ['[', '{']) {
    for (let at = raw.indexOf(bracket); at !== -1 && openers <= limit; at = raw.indexOf(bracket, at + 1)) openers++;
  }
  if (openers <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Turns marked numbers back into their written form, for echoing a request in an error body. */
export function unmark(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(NON_INTEGER_MARK) ? Number(value.slice(NON_INTEGER_MARK.length)) : value;
  if (Array.isArray(value)) return value.map(unmark);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unmark(v)]));
  }
  return value;
}

function markNonIntegers(raw: string): string {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < raw.length && /[0-9eE.+-]/.test(raw[j]!)) j++;
      const token = raw.slice(i, j);
      if (/[.eE]/.test(token) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(token)) {
        out += raw.slice(last, i) + JSON.stringify(NON_INTEGER_MARK + token);
        last = j;
      }
      i = j - 1;
    }
  }
  return last === 0 ? raw : out + raw.slice(last);
}
