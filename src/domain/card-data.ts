// Card data in text the sandbox keeps (the request journal, log lines, snapshots): what counts as a
// card number or a security code, and that text with them masked. Pure: no I/O.
//
// A card number is recognised by what it is, not by the key it is sent under: a run of 13–19 digits
// (single spaces or dashes between them allowed, no letter or digit touching it) that passes the Luhn
// check. It is masked as the card API's own answers show a card (`VISA-1111`), except in a field known
// to hold a time or an ID, where a 14-digit time passes the Luhn check one time in ten. A security code
// is recognised by its key (any case and spelling, after JSON unescaping and percent-decoding) and
// replaced by `***`. JSON is read as JSON (with its escapes), form encoding as form encoding, and text
// that is neither by its `key: value` and `key=value` pairs and its digit runs.

/** What a security code's value becomes. */
export const SECURITY_CODE_MASK = '***';

/** Card numbers are never stored or shown in full: brand and last four digits ("VISA-1111"). */
export function maskCardNumber(number: string): string {
  const brand = /^4/.test(number)
    ? 'VISA'
    : /^(5[1-5]|2[2-7])/.test(number)
      ? 'MASTERCARD'
      : /^3[47]/.test(number)
        ? 'AMEX'
        : /^(6011|65)/.test(number)
          ? 'DISCOVER'
          : 'CARD';
  return `${brand}-${number.slice(-4)}`;
}

/** The Luhn check (mod 10) over a string of digits. */
export function passesLuhn(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** 13 to 19 digits passing the Luhn check. */
export function isCardNumber(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
}

/**
 * The name a key stands for: its last segment (`Card[Number]`, `card.cvv`), lower case, letters and
 * digits only (`card_security_code` → `cardsecuritycode`).
 */
function segmentOf(key: string): string {
  if (!/[[\].]/.test(key)) return key.trim();
  const parts = key.split(/[[\].]/).filter((p) => p.trim() !== '');
  return (parts[parts.length - 1] ?? key).trim();
}
const squeezed = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const SECURITY_CODE = /^(?:card)?(?:(?:cvv|cvc|cvn|cav)2?|cvd|csc|cid)(?:code|number|value)?$|securitycode$|^(?:card)?verification(?:code|value|number)$/;
const TIME = /(?:created|date|datetime|time|timestamp|since|until)$/;

/** 1: a security code's key; 2: a time's or an ID's; 0: neither. Keys repeat: the answers are kept (a few hundred). */
const KINDS = new Map<string, 0 | 1 | 2>();

function kindOf(key: string): 0 | 1 | 2 {
  let kind = KINDS.get(key);
  if (kind !== undefined) return kind;
  const name = segmentOf(key);
  const flat = squeezed(name);
  kind = SECURITY_CODE.test(flat) ? 1 : /(?:I[Dd]s?|[_-][Ii][Dd]s?)$/.test(name) || /^ids?$/i.test(name) || TIME.test(flat) ? 2 : 0;
  if (KINDS.size < 512) KINDS.set(key, kind);
  return kind;
}

/** A key that holds a security code: SecurityCode, CardSecurityCode, CVV, CVV2, CVC, CVC2, CVN, CID, CSC, CVD… */
export function isSecurityCodeKey(key: string): boolean {
  return kindOf(key) === 1;
}

/**
 * A key that holds a time or an ID, whose digits are never taken for a card number: one ending in
 * ID/Id/IDs/Ids (`SiteID`, `MerchantTransactionID`, `PaymentIDs`, `methodId`, `payment_id`, `id`),
 * or in Created, Date, DateTime, Time, Timestamp, Since or Until in any case (`Created`, `startDate`,
 * `NotificationDateTime`). A security code's key never is.
 */
export function isTimeOrIdKey(key: string): boolean {
  return kindOf(key) === 2;
}

// Whether text could hold card data at all: most bodies are passed over with these tests. Apart,
// and the digits as a plain superset: as one expression they took a 64 KiB body three times as long.
const CODE_WORD = /cv[vcnd]|csc|cid|cav|secur|verif/i;
const DIGIT_RUN = /[0-9][0-9 -]{11,}[0-9]/;
const mightHold = (text: string) => text.includes('\\u') || text.includes('%') || CODE_WORD.test(text) || DIGIT_RUN.test(text);

/** Nested text (JSON in a JSON string, a form in a form value…) is read this deep. */
const NESTING = 3;

/**
 * A body of any content type and shape with its card numbers masked and its security codes replaced:
 * the text itself when it holds none.
 */
export function maskCardData(text: string): string {
  return maskText(text, 0);
}

/** A query string (form-encoded, without its `?`), masked as a body is. */
export function maskQuery(query: string): string {
  return mightHold(query) ? maskForm(query, 0) : query;
}

/** A URL as requested (path and query string), its query string masked. */
export function maskUrl(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at + 1) + maskQuery(url.slice(at + 1));
}

function maskText(text: string, nesting: number): string {
  if (!mightHold(text)) return text;
  // Deeper than that, text is read as text: its pairs and digit runs are masked all the same.
  if (nesting > NESTING) return maskLoose(text);
  // A value that is only a number (a card's, most often).
  if (/^[0-9]{13,19}$/.test(text)) return isCardNumber(text) ? maskCardNumber(text) : text;
  if (/^\s*[[{"]/.test(text)) {
    const json = maskJson(text, nesting);
    if (json !== null) return json;
  }
  if (FORM.test(text.trimEnd())) return maskForm(text, nesting);
  return maskLoose(text);
}

type Edit = [start: number, end: number, text: string];

function applyEdits(text: string, edits: Edit[]): string {
  if (edits.length === 0) return text;
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end, replacement] of edits) {
    if (start < at) continue;
    out += text.slice(at, start) + replacement;
    at = end;
  }
  return out + text.slice(at);
}

// --- JSON: read exactly, only the values masked rewritten (every other byte, and every number's digits, kept).

interface Place {
  /** Under a security code's key (at any depth). */
  secret: boolean;
  /** Directly under a time's or an ID's key (or in an array under one). */
  exempt: boolean;
}

const TOP: Place = { secret: false, exempt: false };
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;
const MAX_DEPTH = 256;

/** The JSON text masked, or null when it is not JSON. */
function maskJson(text: string, nesting: number): string | null {
  const edits: Edit[] = [];
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const fail = (): never => {
    throw new SyntaxError('not JSON');
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (place: Place, depth: number): void => {
    if (depth > MAX_DEPTH) fail();
    ws();
    const c = text[i];
    const start = i;
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        let inner = place;
        if (c === '{') {
          ws();
          if (text[i] !== '"') fail();
          const key = string();
          ws();
          if (text[i++] !== ':') fail();
          const kind = kindOf(key);
          inner = { secret: place.secret || kind === 1, exempt: kind === 2 };
        }
        value(inner, depth + 1);
        ws();
        const next = text[i++];
        if (next === close) return;
        if (next !== ',') fail();
      }
    }
    if (c === '"') {
      const s = string();
      if (place.secret) {
        if (s !== '') edits.push([start, i, `"${SECURITY_CODE_MASK}"`]);
      } else if (!place.exempt) {
        const masked = maskText(s, nesting + 1);
        if (masked !== s) edits.push([start, i, JSON.stringify(masked)]);
      }
      return;
    }
    NUMBER.lastIndex = i;
    const n = NUMBER.exec(text);
    if (n) {
      i = NUMBER.lastIndex;
      const digits = n[0].replace(/^-/, '');
      if (place.secret) edits.push([start, i, `"${SECURITY_CODE_MASK}"`]);
      else if (!place.exempt && isCardNumber(digits)) edits.push([start, i, JSON.stringify(maskCardNumber(digits))]);
      return;
    }
    LITERAL.lastIndex = i;
    if (!LITERAL.exec(text)) fail();
    i = LITERAL.lastIndex;
  };
  try {
    value(TOP, 0);
    ws();
    if (i !== text.length) fail();
  } catch {
    // Not JSON (or nested past reason): read as a form or as plain text instead.
    return null;
  }
  return applyEdits(text, edits);
}

// --- Form encoding (a query string, an application/x-www-form-urlencoded body).

/** No white space, a first key before an `=`: `a=1&b=2`, `card%5Bcvv%5D=123`. */
const FORM = /^[^\s"'{}<>=&]+=\S*$/;

function decodeForm(s: string): string {
  return s.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      // Not UTF-8: byte by byte, as Latin-1.
      return m.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
  });
}

function maskForm(text: string, nesting: number): string {
  let changed = false;
  const parts = text.split('&').map((part) => {
    const eq = part.indexOf('=');
    const key = eq < 0 ? null : decodeForm(part.slice(0, eq));
    const raw = eq < 0 ? part : part.slice(eq + 1);
    const head = eq < 0 ? '' : part.slice(0, eq + 1);
    if (key !== null && isSecurityCodeKey(key)) {
      if (raw === '') return part;
      changed = true;
      return head + SECURITY_CODE_MASK;
    }
    if (key !== null && isTimeOrIdKey(key)) return part;
    const value = decodeForm(raw);
    const masked = maskText(value, nesting + 1);
    if (masked === value) return part;
    changed = true;
    return head + encodeURIComponent(masked);
  });
  return changed ? parts.join('&') : text;
}

// --- Text that is neither (malformed JSON, a form with spaces, anything): pairs and digit runs.

/** `\u0043` and `%43` of a letter, digit or bracket, read as that character (only kept if something is masked). */
function plain(text: string): string {
  const keep = (code: string, m: string) => {
    const ch = String.fromCharCode(parseInt(code, 16));
    return /[A-Za-z0-9[\]_.-]/.test(ch) ? ch : m;
  };
  return text.replace(/\\u00([0-7][0-9a-fA-F])/g, (m, h: string) => keep(h, m)).replace(/%([2-7][0-9a-fA-F])/g, (m, h: string) => keep(h, m));
}

/** `key: value` or `key=value`, the key quoted or bare, the value quoted (perhaps unterminated) or bare. */
const PAIR = /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|(?<![\w$.\]-])[A-Za-z_$][\w$.-]*(?:\[[\w$.-]*\])*)([ \t]*[:=][ \t]*)("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|[^\s,;&}\]"']+)/g;

/** Digits in groups separated by one space or dash, no letter or digit touching either end. */
const DIGIT_GROUPS = /(?<![A-Za-z0-9])[0-9]+(?:[ -][0-9]+)*(?![A-Za-z0-9])/g;

function maskLoose(text: string): string {
  const t = plain(text);
  const edits: Edit[] = [];
  const untouched: [number, number][] = [];
  for (const m of t.matchAll(PAIR)) {
    const rawKey = m[1]!;
    const key = /^["']/.test(rawKey) ? rawKey.slice(1, -1).replace(/\\(.)/g, '$1') : rawKey;
    const value = m[3]!;
    const start = m.index + rawKey.length + m[2]!.length;
    const end = start + value.length;
    if (isSecurityCodeKey(key)) {
      if (/^(?:null|""|'')$/.test(value)) continue;
      const q = value[0] === '"' || value[0] === "'" ? value[0] : '';
      edits.push([start, end, `${q}${SECURITY_CODE_MASK}${q}`]);
      untouched.push([start, end]);
    } else if (isTimeOrIdKey(key)) {
      untouched.push([start, end]);
    }
  }
  for (const [start, end, digits] of cardRuns(t)) {
    if (!untouched.some(([a, b]) => start < b && end > a)) edits.push([start, end, maskCardNumber(digits)]);
  }
  return edits.length === 0 ? text : applyEdits(t, edits);
}

/** The card numbers in text: each run of groups whose digits (13–19 of them) pass the Luhn check, longest first. */
export function cardRuns(text: string): [start: number, end: number, digits: string][] {
  const out: [number, number, string][] = [];
  for (const m of text.matchAll(DIGIT_GROUPS)) {
    const groups: { start: number; digits: string }[] = [];
    for (const g of m[0].matchAll(/[0-9]+/g)) groups.push({ start: m.index + g.index, digits: g[0] });
    for (let i = 0; i < groups.length; ) {
      let digits = '';
      let best = -1;
      let bestDigits = '';
      for (let j = i; j < groups.length; j++) {
        digits += groups[j]!.digits;
        if (digits.length > 19) break;
        if (isCardNumber(digits)) {
          best = j;
          bestDigits = digits;
        }
      }
      if (best < 0) {
        i++;
        continue;
      }
      const last = groups[best]!;
      out.push([groups[i]!.start, last.start + last.digits.length, bestDigits]);
      i = best + 1;
    }
  }
  return out;
}
